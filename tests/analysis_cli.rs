//! `ghast analysis` driven through pipes, as a program drives KataGo's analysis engine: for
//! every shipped bot (every game with a page or GTP), several queries in flight, results out of
//! order matched by `id`, bad input answered with one line while later queries are answered,
//! and `terminate`.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// Long enough for a loaded CI machine; a hung engine still fails the test.
const PATIENCE: Duration = Duration::from_secs(180);

fn model(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
}

/// A running `ghast analysis`, its standard input, and its output and error lines as they
/// come.
struct Analysis {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
    errors: Receiver<String>,
}

fn lines_of(reader: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { return };
            if send.send(line).is_err() {
                return;
            }
        }
    });
    receive
}

impl Analysis {
    fn start(args: &[&str]) -> Analysis {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ghast"))
            .arg("analysis")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = lines_of(child.stdout.take().unwrap());
        let errors = lines_of(child.stderr.take().unwrap());
        Analysis {
            input: child.stdin.take(),
            child,
            lines,
            errors,
        }
    }

    /// Waits for KataGo's start line on standard error; returns the log lines before it.
    fn started(&mut self) -> Vec<String> {
        let mut log = Vec::new();
        loop {
            let line = self
                .errors
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no start line; the log said {log:?}"));
            if line == "Started, ready to begin handling requests" {
                return log;
            }
            log.push(line);
        }
    }

    fn send(&mut self, line: &str) {
        let input = self.input.as_mut().unwrap();
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
    }

    fn next(&mut self) -> Value {
        let line = self.lines.recv_timeout(PATIENCE).expect("an answer");
        assert!(
            !line.contains('\u{1b}'),
            "no terminal codes on standard output: {line}"
        );
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    /// Reads answers until `done` says the last one read was the one wanted; all of them.
    fn until(&mut self, done: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut answers = Vec::new();
        loop {
            let answer = self.next();
            let finished = done(&answer);
            answers.push(answer);
            if finished {
                return answers;
            }
        }
    }

    /// Closes standard input and checks that the engine exits cleanly, with nothing more to say.
    fn finish(mut self) -> Vec<Value> {
        drop(self.input.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        let rest: Vec<Value> = self
            .lines
            .try_iter()
            .map(|line| serde_json::from_str(&line).unwrap())
            .collect();
        let log: Vec<String> = self.errors.try_iter().collect();
        assert!(
            log.iter().all(|line| !line.contains('\u{1b}')),
            "plain log: {log:?}"
        );
        rest
    }
}

fn is_final(answer: &Value, id: &str) -> bool {
    answer["id"] == id && answer["isDuringSearch"] == false && answer.get("error").is_none()
}

#[test]
fn every_game_is_analysed_through_pipes() {
    for bot in [
        "ghast-size4",
        "fakerghast-size4",
        "ghodak9",
        "vastuz5",
        "qast",
        "ghostchess",
    ] {
        let path = model(bot);
        let mut engine = Analysis::start(&[
            "--bot",
            path.to_str().unwrap(),
            "--device",
            "cpu",
            "--positions-in-flight",
            "8",
            "--visits",
            "16",
        ]);
        engine.started();
        let queries = [
            r#"{"id":"long","moves":[],"maxVisits":100000000}"#,
            r#"{"id":"a","moves":[],"maxVisits":40,"includePolicy":true}"#,
            r#"{"id":"b","moves":[],"maxVisits":8}"#,
            "{oops",
            r#"{"id":"illegal","moves":[["B","no-such-move"]]}"#,
            r#"{"id":"size","moves":[],"boardXSize":19,"boardYSize":19}"#,
            r#"{"id":"other-game","moves":[],"rules":{"no_such_rule":1}}"#,
            r#"{"id":"warn","moves":[],"maxVisits":4,"someToolField":true}"#,
            r#"{"id":"visits","moves":[],"maxVisits":"lots"}"#,
        ];
        for query in queries {
            engine.send(query);
        }
        let answers = engine.until(|a| is_final(a, "a"));
        let position = |id: &str| answers.iter().position(|a| is_final(a, id));
        let (a, b) = (position("a").unwrap(), position("b").unwrap());
        assert!(
            b < a,
            "{bot}: the shorter search, sent later, is answered first"
        );
        for (id, field) in [
            (None, None),
            (Some("illegal"), Some("moves")),
            (Some("size"), Some("boardXSize")),
            (Some("other-game"), Some("rules")),
            (Some("visits"), Some("maxVisits")),
        ] {
            let error = answers
                .iter()
                .find(|a| a.get("error").is_some() && a.get("id").and_then(Value::as_str) == id)
                .unwrap_or_else(|| panic!("{bot}: no error for {id:?} in {answers:?}"));
            assert_eq!(
                error.get("field").and_then(Value::as_str),
                field,
                "{bot}: {error}"
            );
        }
        let warning = answers.iter().find(|a| a.get("warning").is_some());
        assert_eq!(warning.unwrap()["field"], "someToolField", "{bot}");
        assert!(
            position("warn").is_some(),
            "{bot}: a query with a warning is answered"
        );

        // The best move of a result is a move a query can play.
        let result = &answers[a];
        let best = result["moveInfos"][0]["move"].as_str().unwrap();
        let player = result["rootInfo"]["currentPlayer"].as_str().unwrap();
        let policy = result["policy"].as_array().unwrap();
        assert!(policy.iter().any(|p| p.as_f64().unwrap() > 0.0), "{bot}");
        engine.send(&format!(
            r#"{{"id":"next","moves":[["{player}","{best}"]],"maxVisits":8}}"#
        ));
        let next = engine.until(|a| a["id"] == "next");
        let next = next.last().unwrap();
        assert_eq!(next["turnNumber"], 1, "{bot}: {next}");
        assert!(next["moveInfos"].is_array(), "{bot}: {next}");

        engine.send(r#"{"id":"stop","action":"terminate","terminateId":"long"}"#);
        let stopped = engine.until(|a| is_final(a, "long"));
        let long = stopped.last().unwrap();
        let visits = long["rootInfo"]["visits"].as_u64().unwrap();
        assert!(visits < 100_000_000, "{bot}: {long}");
        let rest = engine.finish();
        assert!(
            stopped
                .iter()
                .chain(&rest)
                .any(|a| a["id"] == "stop" && a["action"] == "terminate"),
            "{bot}: the terminate action is echoed"
        );
    }
}

#[test]
fn katagos_command_line_and_config_start_the_go_bot() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("analysis.cfg");
    std::fs::write(
        &config,
        "# A KataGo analysis config\nlogDir = analysis_logs\nmaxVisits = 24\n\
         numAnalysisThreads = 4\nnumSearchThreadsPerAnalysisThread = 2\n\
         reportAnalysisWinratesAs = BLACK\nnnCacheSizePowerOfTwo = 20\nnnMutexPoolSizePowerOfTwo = 17\n",
    )
    .unwrap();
    let model = model("ghodak9");
    let mut engine = Analysis::start(&[
        "-config",
        config.to_str().unwrap(),
        "-model",
        model.to_str().unwrap(),
        "-override-config",
        "analysisPVLen=3",
    ]);
    let log = engine.started();
    assert!(
        log.iter()
            .any(|l| l.contains("`logDir` tunes KataGo's own machinery")),
        "{log:?}"
    );
    assert!(
        log.iter().any(|l| l.contains("nnMutexPoolSizePowerOfTwo")),
        "{log:?}"
    );
    // A line that is not UTF-8 is bad input like any other.
    engine
        .input
        .as_mut()
        .unwrap()
        .write_all(b"{\"id\":\"\xff\xfe\"}\n")
        .unwrap();
    let refused = engine.next();
    assert!(
        refused["error"].as_str().unwrap().contains("not UTF-8"),
        "{refused}"
    );
    engine.send(
        r#"{"id":"foo","initialStones":[["B","C3"],["B","G7"]],"moves":[["W","E5"],["B","D4"]],"rules":"Chinese","komi":0.5,"boardXSize":9,"boardYSize":9,"analyzeTurns":[0,1,2],"includePVVisits":true,"includeOwnership":true}"#,
    );
    let mut results = Vec::new();
    while results.len() < 3 {
        let answer = engine.next();
        assert!(
            answer.get("error").is_none() && answer.get("warning").is_none(),
            "{answer}"
        );
        results.push(answer);
    }
    results.sort_by_key(|r| r["turnNumber"].as_u64());
    let players: Vec<&str> = results
        .iter()
        .map(|r| r["rootInfo"]["currentPlayer"].as_str().unwrap())
        .collect();
    assert_eq!(
        players,
        ["W", "B", "W"],
        "White moves first after the set-up stones"
    );
    for result in &results {
        assert_eq!(result["id"], "foo");
        assert!(
            result["rootInfo"]["visits"].as_u64().unwrap() >= 24,
            "maxVisits: {result}"
        );
        for info in result["moveInfos"].as_array().unwrap() {
            let pv = info["pv"].as_array().unwrap();
            // KataGo's analysisPVLen counts the moves after the first.
            assert!(!pv.is_empty() && pv.len() <= 4, "analysisPVLen: {info}");
            assert_eq!(info["pvVisits"].as_array().unwrap().len(), pv.len());
        }
        let ownership = result["ownership"].as_array().unwrap();
        assert_eq!(ownership.len(), 81, "one value a point");
        assert!(ownership.iter().all(|o| o.as_f64().unwrap().abs() <= 1.0));
    }
    assert!(engine.finish().is_empty());
}

/// The example client annotates a record: one line per move, the mover's win rate before and
/// after it, and the result.
#[test]
fn the_annotation_script_writes_a_line_per_move() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.txt");
    std::fs::write(&record, "# a short game\nE5 C3\npass pass\n").unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/annotate.py");
    let output = Command::new("python3")
        .arg(script)
        .args([
            "--visits",
            "8",
            "--ghast",
            env!("CARGO_BIN_EXE_ghast"),
            "--bot",
        ])
        .arg(model("ghodak9"))
        .arg(&record)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[0].starts_with("   1. E5") && lines[0].contains('%'),
        "{text}"
    );
    assert!(lines[3].starts_with("   4. pass"), "{text}");
    assert!(lines[4].starts_with("result: "), "{text}");
}

/// A bot or config that cannot be read stops the engine before it starts: one line, exit 2.
#[test]
fn a_bad_bot_or_config_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.cfg");
    std::fs::write(&config, "maxVisits = lots\n").unwrap();
    let model = model("ghodak9");
    for (args, expected) in [
        (vec!["--bot", "/no/such/bot"], "no bot at /no/such/bot"),
        (
            vec![
                "-model",
                model.to_str().unwrap(),
                "-config",
                config.to_str().unwrap(),
            ],
            "bad.cfg line 1: maxVisits = `lots`: not a number",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_ghast"))
            .arg("analysis")
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(output.stdout.is_empty());
    }
}

/// What a client written for KataGo sends, through the real binary with the shipped Go bot:
/// `overrideSettings` (the view, the visits, the variations' length, and a setting this
/// engine lacks, which gets a warning), moves out of turn and KataGo's first player after a
/// handicap, a turn asked twice, a query with a bad move (one error line, nothing searched),
/// the search's ownership (the root's and each move's), the policy, `lcb` in `rootInfo`, a
/// search stopped by `maxTime`, and `clear_cache`.
#[test]
fn a_katago_clients_queries_are_answered_as_katago_answers_them() {
    let model = model("ghodak9");
    let mut engine = Analysis::start(&["--bot", model.to_str().unwrap(), "--visits", "30"]);
    engine.started();
    engine.send(
        r#"{"id":"k","moves":[["B","E5"],["B","C3"],["W","G7"]],"analyzeTurns":[3,2,2],"includeOwnership":true,"includeMovesOwnership":true,"includePolicy":true,"overrideSettings":{"reportAnalysisWinratesAs":"BLACK","maxVisits":20,"analysisPVLen":2,"wideRootNoise":0.04}}"#,
    );
    let answers = engine.until(|a| is_final(a, "k") && a["turnNumber"] == 2);
    let warning = &answers[0];
    assert_eq!(warning["field"], "overrideSettings", "{answers:?}");
    assert!(
        warning["warning"]
            .as_str()
            .unwrap()
            .contains("`wideRootNoise`")
    );
    let mut turns: Vec<&Value> = answers.iter().filter(|a| is_final(a, "k")).collect();
    let last = engine.until(|a| is_final(a, "k"));
    turns.extend(last.iter().filter(|a| is_final(a, "k")));
    let mut numbers: Vec<u64> = turns
        .iter()
        .map(|a| a["turnNumber"].as_u64().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [2, 3], "turn 2 asked twice, answered once");
    for turn in &turns {
        let root = &turn["rootInfo"];
        assert_eq!(root["visits"], 20, "{turn}");
        // Black moved twice: White is to move at turn 2, Black at turn 3.
        let to_move = if turn["turnNumber"] == 2 { "W" } else { "B" };
        assert_eq!(root["currentPlayer"], to_move, "{turn}");
        // The side to move's lower bound; from Black's view at White's turn, White's bound
        // turned round, as KataGo gives it.
        let (lcb, winrate) = (
            root["lcb"].as_f64().unwrap(),
            root["winrate"].as_f64().unwrap(),
        );
        if to_move == "B" {
            assert!(lcb <= winrate, "{root}");
        } else {
            assert!(lcb >= winrate, "{root}");
        }
        let ownership = turn["ownership"].as_array().unwrap();
        assert_eq!(ownership.len(), 81);
        // Black's view: its stone on C3 (row 7 from the top, column 2) is its own.
        assert!(ownership[6 * 9 + 2].as_f64().unwrap() > 0.0, "{turn}");
        assert_eq!(turn["policy"].as_array().unwrap().len(), 82);
        for info in turn["moveInfos"].as_array().unwrap() {
            assert!(info["pv"].as_array().unwrap().len() <= 3, "{info}");
            assert_eq!(
                info["ownership"].as_array().map(Vec::len),
                Some(81),
                "{info}"
            );
        }
    }
    engine.send(r#"{"id":"h","initialStones":[["B","C3"],["B","G7"]],"moves":[],"maxVisits":5}"#);
    let handicap = engine.until(|a| is_final(a, "h"));
    assert_eq!(handicap.last().unwrap()["rootInfo"]["currentPlayer"], "W");
    engine.send(r#"{"id":"bad","moves":[["B","E5"],["W","Z9"]],"analyzeTurns":[0,1,2]}"#);
    let refused = engine.next();
    assert_eq!(
        (&refused["id"], &refused["field"]),
        (&Value::from("bad"), &Value::from("moves"))
    );
    engine.send(r#"{"id":"t","moves":[],"overrideSettings":{"maxVisits":10000000,"maxTime":0.3}}"#);
    let timed = engine.until(|a| is_final(a, "t"));
    let visits = timed.last().unwrap()["rootInfo"]["visits"]
        .as_u64()
        .unwrap();
    assert!(
        visits > 0 && visits < 10_000_000,
        "maxTime stops the search: {visits}"
    );
    engine.send(r#"{"id":"c","action":"clear_cache"}"#);
    assert_eq!(engine.next()["action"], "clear_cache");
    assert!(
        engine.finish().is_empty(),
        "nothing answered for the bad query"
    );
}
