//! `ghast bench` rejects durations it cannot honour with one line naming the flag, not a panic.

mod common;

use common::ghast;
use std::process::Output;

/// The JSON report of a bench that must have succeeded.
fn json_of(output: &Output) -> serde_json::Value {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        let stdout = String::from_utf8_lossy(&output.stdout);
        panic!("the report is not JSON ({error}): {stdout}")
    })
}

#[test]
fn unbounded_or_nonsense_durations_are_bad_input() {
    for (args, expected) in [
        (
            &["bench", "selfplay", "--seconds", "inf"][..],
            "inf seconds",
        ),
        (&["bench", "rules", "--seconds", "0"], "0 seconds"),
        (
            &["bench", "nn", "--seconds", "soon"],
            "`soon` is not a number",
        ),
    ] {
        let output = ghast(args, "");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("--seconds"), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// `--precision fp32,bf16` times the network and the self-play loop in each type, named apart;
/// a type that is neither is refused with the flag named.
#[test]
fn network_and_self_play_benches_time_each_precision_asked() {
    let output = ghast(
        &[
            "bench",
            "nn",
            "--net",
            "tiny",
            "--batch",
            "4",
            "--precision",
            "fp32,bf16",
            "--seconds",
            "0.1",
            "--json",
        ],
        "",
    );
    let report = json_of(&output);
    let devices = &report["nets"]["2x16"]["devices"];
    assert_eq!(devices["cpu fp32"]["precision"], "Float", "{report}");
    assert_eq!(devices["cpu bf16"]["precision"], "BFloat16", "{report}");
    assert!(devices["cpu bf16"]["evals_per_sec"]["4"].as_f64().unwrap() > 0.0);

    let output = ghast(
        &[
            "bench",
            "selfplay",
            "--config",
            "configs/tiny.toml",
            "--precision",
            "bf16",
            "--seconds",
            "0.3",
            "--json",
        ],
        "",
    );
    let report = json_of(&output);
    assert_eq!(report["precision"], "bf16", "{report}");
    assert!(report["selfplay_evals_per_sec"].as_f64().unwrap() > 0.0);

    let output = ghast(&["bench", "nn", "--precision", "fp16"], "");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--precision") && stderr.contains("fp16"),
        "{stderr}"
    );
}

/// The rules and self-play benches measure Ghodak when asked (by `--game`, or by the config's
/// `[game] name`), and report figures that are numbers.
#[test]
fn benches_measure_ghodak() {
    let output = ghast(
        &[
            "bench",
            "rules",
            "--game",
            "ghodak",
            "--seconds",
            "0.2",
            "--json",
        ],
        "",
    );
    let report = json_of(&output);
    assert!(report["moves_per_sec"].as_f64().unwrap() > 0.0, "{report}");

    let output = ghast(
        &[
            "bench",
            "selfplay",
            "--config",
            "configs/ghodak-tiny.toml",
            "--seconds",
            "0.3",
            "--workers",
            "2",
            "--visits",
            "8",
            "--json",
        ],
        "",
    );
    let report = json_of(&output);
    assert!(
        report["selfplay_evals_per_sec"].as_f64().unwrap() > 0.0,
        "{report}"
    );
    assert_eq!(report["workers"], 2, "{report}");
    assert!(report["games_per_sec"].as_f64().is_some(), "{report}");

    let output = ghast(
        &[
            "bench",
            "selfplay",
            "--config",
            "configs/ghodak-tiny.toml",
            "--size",
            "4",
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("size must be 5..=19, got 4"), "{stderr}");
}

#[test]
fn bench_learning_trains_and_rates_a_ghodak_bot() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let run_arg = run.to_str().unwrap();
    // Two games against random at the bundle's visits and at 4, in both invocations.
    let rating = [
        "--run",
        run_arg,
        "--opponents",
        "random",
        "--visits",
        "4",
        "--games",
        "2",
        "--json",
    ];
    let trained = [
        "bench",
        "learning",
        "--config",
        "configs/ghodak-tiny.toml",
        "--minutes",
        "0.1",
    ];
    let output = ghast(&[&trained[..], &rating[..]].concat(), "");
    let report = json_of(&output);
    let matches = report["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 2, "the bundle's visits and 4: {report}");
    for row in matches {
        assert_eq!(row["opponent"], "random");
        let games = ["wins", "draws", "losses"].map(|k| row[k].as_u64().unwrap());
        assert_eq!(games.iter().sum::<u64>(), 2, "{row}");
    }
    assert!(
        report["training"]["cpu_seconds"].as_f64().unwrap() > 0.0,
        "{report}"
    );
    let bot = std::fs::read_to_string(run.join("bot/bot.toml")).unwrap();
    assert!(bot.contains("game = \"ghodak\""), "{bot}");

    let rated = ghast(
        &[&["bench", "learning", "--rate-only"][..], &rating[..]].concat(),
        "",
    );
    assert!(
        rated.status.success(),
        "{}",
        String::from_utf8_lossy(&rated.stderr)
    );
}

/// `--pair`: two configs, each on two seeds, trained one after the other (A, B, A, B) and
/// rated alike; a Markdown table with a row per run, a row per arm with its seeds' games
/// added up, and B's Elo minus A's; `pair.json` keeps every run's report.
#[test]
fn bench_learning_pairs_two_configs_on_two_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = std::fs::read_to_string("configs/tiny.toml").unwrap();
    let averaged = dir.path().join("tiny-averaged.toml");
    let switch = "[training.weight_average]\ndecay = 0.9\nevery_steps = 1\n";
    std::fs::write(&averaged, format!("{tiny}\n{switch}")).unwrap();
    let folder = dir.path().join("pair");
    let output = ghast(
        &[
            "bench",
            "learning",
            "--config",
            "configs/tiny.toml",
            "--pair",
            averaged.to_str().unwrap(),
            "--minutes",
            "0.05",
            "--run",
            folder.to_str().unwrap(),
            "--opponents",
            "random",
            "--visits",
            "4",
            "--games",
            "2",
        ],
        "",
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let seed: u64 = tiny
        .lines()
        .find_map(|line| line.strip_prefix("seed = "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(folder.join("pair.json")).unwrap()).unwrap();
    assert_eq!(report["arms"], serde_json::json!(["tiny", "tiny-averaged"]));
    let runs = report["runs"].as_array().unwrap();
    let trained: Vec<(String, u64)> = runs
        .iter()
        .map(|run| {
            let folder = std::path::Path::new(run["run"].as_str().unwrap());
            (
                folder.file_name().unwrap().to_string_lossy().into_owned(),
                run["seed"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, u64)> = [seed, seed + 1]
        .into_iter()
        .flat_map(|s| {
            [
                (format!("tiny-seed{s}"), s),
                (format!("tiny-averaged-seed{s}"), s),
            ]
        })
        .collect();
    assert_eq!(
        trained,
        expected,
        "A, B, A, B on seeds {seed} and {}",
        seed + 1
    );
    let saved =
        std::fs::read_to_string(folder.join(format!("tiny-averaged-seed{}/config.toml", seed + 1)))
            .unwrap();
    assert!(saved.contains("decay = 0.9"), "{saved}");

    let table: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with('|'))
        .collect();
    assert_eq!(
        table[0], "| arm | seed | training | `random`, 800 visits | `random`, 4 visits |",
        "{stdout}"
    );
    assert_eq!(table.len(), 2 + 4 + 2 + 1, "{stdout}");
    let totals = |arm: &str| {
        table
            .iter()
            .find(|line| line.starts_with(&format!("| **{arm}** | 2 seeds |")))
            .unwrap_or_else(|| panic!("no total of {arm}: {stdout}"))
            .to_string()
    };
    for arm in ["tiny", "tiny-averaged"] {
        let games: u32 = runs
            .iter()
            .filter(|run| {
                run["config"]
                    .as_str()
                    .unwrap()
                    .ends_with(&format!("{arm}.toml"))
            })
            .map(|run| run["matches"][0]["wins"].as_u64().unwrap() as u32)
            .sum();
        assert!(
            totals(arm).contains(&format!(" **{games}-")),
            "{arm} won {games} at the bundle's visits: {stdout}"
        );
    }
    assert!(
        table[8].starts_with("| tiny-averaged - tiny | | Elo [95%] |"),
        "{stdout}"
    );

    // The pair rated again, with what each run saved.
    let rated = ghast(
        &[
            "bench",
            "learning",
            "--config",
            "configs/tiny.toml",
            "--pair",
            averaged.to_str().unwrap(),
            "--rate-only",
            "--run",
            folder.to_str().unwrap(),
            "--opponents",
            "random",
            "--visits",
            "4",
            "--games",
            "2",
            "--json",
        ],
        "",
    );
    assert!(
        rated.status.success(),
        "{}",
        String::from_utf8_lossy(&rated.stderr)
    );
    let again: serde_json::Value = serde_json::from_slice(&rated.stdout).unwrap();
    let runs = again["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4, "{again}");
    for (run, (name, seed)) in runs.iter().zip(&expected) {
        assert!(run["training"].is_null(), "{run}");
        assert_eq!(run["seed"].as_u64(), Some(*seed), "{run}");
        assert!(
            run["run"].as_str().unwrap().ends_with(name.as_str()),
            "{run}"
        );
    }
}

/// A pair of two games' configs, and an opponent whose program is missing, are refused
/// before anything trains.
#[test]
fn bench_learning_refuses_a_pair_of_two_games_and_a_missing_engine_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let refused = |args: &[&str], words: &str| {
        let mut all = vec!["bench", "learning", "--run", run.to_str().unwrap()];
        all.extend_from_slice(args);
        let output = ghast(&all, "");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(!run.exists(), "nothing trained: {args:?}");
    };
    refused(
        &[
            "--config",
            "configs/tiny.toml",
            "--pair",
            "configs/ghodak-tiny.toml",
        ],
        "its game is ghodak, --config configs/tiny.toml's is ghast",
    );
    refused(
        &[
            "--config",
            "configs/tiny.toml",
            "--opponents",
            "gtp:/nowhere/engine --gtp",
        ],
        "--opponents: gtp:/nowhere/engine --gtp: `/nowhere/engine` is not found",
    );
}

/// `bench selfplay --device sim` measures the loop on a simulated accelerator through the
/// inference server and reports what a GPU user needs, with today's keys kept; one batch in
/// flight per worker is a flag away, and a simulated device refuses per-thread inference.
#[test]
fn bench_selfplay_on_a_simulated_device_reports_the_device_and_the_cores() {
    for batches in ["2", "1"] {
        let output = ghast(
            &[
                "bench",
                "selfplay",
                "--config",
                "configs/tiny.toml",
                "--device",
                "sim:0.2,1",
                "--workers",
                "2",
                "--batches-in-flight",
                batches,
                "--seconds",
                "0.5",
                "--json",
            ],
            "",
        );
        let report = json_of(&output);
        assert_eq!(report["device"], "sim:0.2,1", "{report}");
        assert_eq!(report["inference"], "server", "{report}");
        assert_eq!(report["batches_in_flight"].to_string(), batches, "{report}");
        let number = |key: &str| {
            report[key]
                .as_f64()
                .unwrap_or_else(|| panic!("{key} in {report}"))
        };
        for key in [
            "selfplay_evals_per_sec",
            "forward_evals_per_sec",
            "loop_efficiency",
            "mean_batch",
            "cores_used",
            "cpu_seconds",
        ] {
            assert!(number(key) > 0.0, "{key} in {report}");
        }
        let busy = number("device_busy");
        assert!(busy > 0.0 && busy <= 1.05, "{report}");
    }

    let output = ghast(
        &[
            "bench",
            "selfplay",
            "--config",
            "configs/tiny.toml",
            "--device",
            "sim",
            "--inference",
            "per-thread",
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--device sim with --inference per-thread"),
        "{stderr}"
    );
}

/// `bench analysis` analyses the same positions both ways and reports both rates and their
/// ratio.
#[test]
fn the_analysis_bench_reports_one_at_a_time_beside_all_in_flight() {
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/models/ghodak9");
    let output = ghast(
        &[
            "bench",
            "analysis",
            "--bot",
            bot,
            "--device",
            "cpu",
            "--visits",
            "8",
            "--queries",
            "4",
            "--json",
        ],
        "",
    );
    let report = json_of(&output);
    assert_eq!(report["game"], "ghodak");
    assert_eq!(report["queries"], 4);
    assert_eq!(report["visits"], 8);
    let rate = |way: &str| report[way]["positions_per_sec"].as_f64().unwrap();
    assert!(
        rate("one_at_a_time") > 0.0 && rate("all_in_flight") > 0.0,
        "{report}"
    );
    let speedup = report["speedup"].as_f64().unwrap();
    assert!((speedup - rate("all_in_flight") / rate("one_at_a_time")).abs() < 1e-9);
    let output = ghast(&["bench", "analysis", "--bot", bot, "--queries", "0"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--queries 0"));
}

/// `bench train`: each precision trains the same fresh net on the same samples of a run's
/// games, and reports its rates and its losses; a run without games, and the simulated
/// device, are refused with what is wrong.
#[test]
fn bench_train_steps_each_precision_on_a_runs_games() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let run_arg = run.to_str().unwrap();
    let bench = |extra: &[&str]| {
        let args = [&["bench", "train", "--run", run_arg][..], extra].concat();
        ghast(&args, "")
    };
    let output = bench(&["--device", "cpu"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "no run yet: {stderr}");
    assert!(stderr.contains("config.toml"), "{stderr}");

    let trained = ghast(
        &[
            "train",
            "--config",
            "configs/tiny.toml",
            "--run",
            run_arg,
            "--minutes",
            "0.1",
        ],
        "",
    );
    assert!(
        trained.status.success(),
        "{}",
        String::from_utf8_lossy(&trained.stderr)
    );
    let output = bench(&["--device", "sim"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--device sim"));

    let output = bench(&["--device", "cpu", "--steps", "10", "--json"]);
    let reports = json_of(&output);
    let reports = reports.as_array().unwrap();
    let precisions: Vec<_> = reports.iter().map(|r| r["precision"].clone()).collect();
    assert_eq!(precisions, ["fp32", "bf16"], "{reports:?}");
    for report in reports {
        assert_eq!(report["steps"], 10, "{report}");
        assert_eq!(report["device"], "cpu", "{report}");
        for rate in ["steps_per_sec", "learn_steps_per_sec", "samples_per_sec"] {
            assert!(report[rate].as_f64().unwrap() > 0.0, "{rate}: {report}");
        }
        assert!(
            report["learn_steps_per_sec"].as_f64() >= report["steps_per_sec"].as_f64(),
            "learning alone is a part of a step: {report}"
        );
    }
    // The same weights and samples: the first steps' losses agree to bf16's precision.
    let first = |i: usize| reports[i]["first_losses"]["total"].as_f64().unwrap();
    assert!((first(0) - first(1)).abs() < 0.02 * first(0), "{reports:?}");
}
