//! A device that fails (a CUDA error, out of memory) stops every command that runs a network
//! with one line naming the device and the error and a non-zero exit, instead of hanging:
//! `ghast train` (keeping its games and checkpoints, so that `--resume` goes on), `ghast gtp`,
//! `ghast analysis` and `ghast serve` (each answering the request under way with the error
//! first). `GHAST_FAIL_PASS=N` makes every network of the process fail at its Nth pass, as
//! libtorch fails at an out-of-memory error.
//!
//! No test waits on a timer it could lose: each waits for the process to end, and only a hung
//! process (the failure these tests exist for) meets [`PATIENCE`].

mod common;

use ghast::GhastOptions;
use ghodak::GhodakOptions;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// Far longer than any of these commands needs to fail; only a hang reaches it.
const PATIENCE: Duration = Duration::from_secs(300);

fn ghast_failing_at(pass: u64) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ghast"));
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("GHAST_FAIL_PASS", pass.to_string())
        .env("CUDA_VISIBLE_DEVICES", "");
    command
}

/// Waits for `child` to exit; a process still running after [`PATIENCE`] is killed and the
/// test fails: it hung.
fn exit_of(child: &mut Child, what: &str) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > PATIENCE {
            child.kill().unwrap();
            panic!("{what} hung after its device failed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `command` to its end with `input` on standard input; fails the test if it hangs.
fn run(mut command: Command, input: &str, what: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Everything at once, then end of input: the command stops before it reads the rest.
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        stdout.read_to_end(&mut text).unwrap();
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        stderr.read_to_end(&mut text).unwrap();
        text
    });
    let status = exit_of(&mut child, what);
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The last line of standard error, after checking that no panic was printed: the one line
/// a failed device leaves.
fn last_error_line(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked"),
        "a panic was printed:\n{stderr}"
    );
    stderr.lines().last().unwrap_or_default().to_owned()
}

fn assert_device_line(line: &str, prefix: &str, device: &str, pass: u64) {
    assert!(line.starts_with(prefix), "{line}");
    assert!(
        line.contains(&format!(
            "the network on {device} failed: CUDA out of memory (a failure injected at forward pass {pass})"
        )),
        "{line}"
    );
}

fn games_kept(run: &Path) -> usize {
    let shards = std::fs::read_dir(run.join("shards")).map_or(0, |entries| entries.count());
    let journal = std::fs::metadata(run.join("journal.bin")).map_or(0, |meta| meta.len());
    shards + usize::from(journal > 0)
}

#[test]
fn a_training_run_stops_with_one_line_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    // Self-play's server on a simulated device fails at its 1,500th pass, well after the
    // first games and generations.
    let mut train = ghast_failing_at(1500);
    train
        .args(["train", "--config", "configs/tiny.toml", "--minutes", "10"])
        .args(["--device", "sim:0.5,1", "--run"])
        .arg(&run_dir);
    let failed = run(train, "", "ghast train");
    assert_eq!(failed.status.code(), Some(1));
    let line = last_error_line(&failed);
    assert_device_line(
        &line,
        &format!("ghast: training run {}: ", run_dir.display()),
        "sim:0.5,1",
        1500,
    );
    assert!(line.contains("(`--resume`) goes on from them"), "{line}");
    assert!(games_kept(&run_dir) > 0, "no finished game kept");
    let generations = std::fs::read_dir(run_dir.join("models")).unwrap().count();
    assert!(generations >= 2, "generation 0 and more kept");

    let mut resume = Command::new(env!("CARGO_BIN_EXE_ghast"));
    resume
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["train", "--resume", "--minutes", "0.05"])
        .args(["--device", "sim:0.5,1", "--run"])
        .arg(&run_dir);
    let resumed = run(resume, "", "ghast train --resume");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(stderr.contains("resuming at generation"), "{stderr}");
}

#[test]
fn gtp_answers_the_move_under_way_with_the_error_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let bot = common::untrained_bundle::<ghast::Ghast>(dir.path(), &GhastOptions::default());
    // The warm-up is the first pass; the first search's is the second.
    let mut gtp = ghast_failing_at(2);
    gtp.args(["gtp", "--cpu", "--bot"]).arg(&bot);
    let output = run(gtp, "1 name\n2 genmove orange\n3 name\n", "ghast gtp");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let responses: Vec<&str> = stdout.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(
        responses.len(),
        2,
        "no answer after the failure: {stdout:?}"
    );
    assert_eq!(responses[0], "=1 ghast");
    assert_device_line(responses[1], "?2 ", "cpu", 2);
    assert_eq!(output.status.code(), Some(1));
    assert_device_line(&last_error_line(&output), "ghast: gtp: ", "cpu", 2);
}

/// The forward pass at which the analysis engine's device fails: the warm-up is the first.
const FAILING_PASS: u64 = 6;

#[test]
fn analysis_answers_every_query_under_way_with_the_error_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let bot = common::untrained_bundle::<ghodak::Ghodak>(dir.path(), &GhodakOptions::default());
    // Both queries are under way when the device fails: the engine reads `b` while it
    // searches `a` (a failure at the first search pass could come before `b` is read, on a
    // loaded machine), and 400 visits of either take more passes than that.
    let mut analysis = ghast_failing_at(FAILING_PASS);
    analysis
        .args(["analysis", "--device", "cpu", "--bot"])
        .arg(&bot);
    let queries = [
        r#"{"id":"a","moves":[],"maxVisits":400}"#,
        r#"{"id":"b","moves":[["B","D4"]],"maxVisits":400}"#,
        r#"{"id":"later","action":"query_version"}"#,
    ];
    let output = run(analysis, &(queries.join("\n") + "\n"), "ghast analysis");
    let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let mut failed: Vec<&str> = answers
        .iter()
        .filter(|answer| answer.get("error").is_some())
        .map(|answer| {
            let error = answer["error"].as_str().unwrap();
            assert_device_line(error, "", "cpu", FAILING_PASS);
            answer["id"].as_str().unwrap()
        })
        .collect();
    failed.sort_unstable();
    assert_eq!(failed, ["a", "b"], "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|answer| answer.get("turnNumber").is_none()),
        "no analysis after the failure: {answers:?}"
    );
    assert_eq!(output.status.code(), Some(1));
    assert_device_line(
        &last_error_line(&output),
        "ghast: analysis: ",
        "cpu",
        FAILING_PASS,
    );
}

#[test]
fn serve_answers_the_search_under_way_with_500_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let bot = common::untrained_bundle::<ghast::Ghast>(dir.path(), &GhastOptions::default());
    let mut serve = ghast_failing_at(2);
    let mut child = serve
        .args(["serve", "--port", "0", "--searches", "1", "--bot"])
        .arg(&bot)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut listening = String::new();
    stdout.read_line(&mut listening).unwrap();
    let base = listening
        .trim()
        .strip_prefix("ghast serve: listening on ")
        .unwrap_or_else(|| panic!("{listening:?}"))
        .trim_end_matches('/')
        .to_owned();
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut response = agent
        .post(&format!("{base}/api/analyse"))
        .header("Content-Type", "application/json")
        .send("{}")
        .unwrap();
    assert_eq!(response.status(), 500);
    let body = response.body_mut().read_to_string().unwrap();
    assert!(
        body.contains("CUDA out of memory (a failure injected"),
        "{body}"
    );
    let status = exit_of(&mut child, "ghast serve");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(1), "{stderr}");
    let output = Output {
        status,
        stdout: Vec::new(),
        stderr: stderr.into_bytes(),
    };
    assert_device_line(
        &last_error_line(&output),
        "ghast: the server stopped: ",
        "cpu",
        2,
    );
}
