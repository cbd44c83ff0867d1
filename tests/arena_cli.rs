//! Drives `ghast arena` and `ghast ladder` end to end: results, saved records that
//! `ghast replay` reproduces, SPRT, bad input, and a ladder over a fake run.

mod common;

use common::ghast;
use std::path::Path;
use std::process::Output;

#[path = "fixtures/tiny_run.rs"]
mod tiny_run;

const SMALL: [&str; 4] = ["--size", "4", "--win-margin", "5"];

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn arena(args: &[&str]) -> Output {
    let mut all = vec!["arena"];
    all.extend_from_slice(args);
    ghast(&all, "")
}

#[test]
fn a_match_reports_results_and_saves_replayable_records() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let mut args = vec![
        "greedy",
        "random",
        "--games",
        "8",
        "--threads",
        "2",
        "--out",
        dir,
    ];
    args.extend(SMALL);
    let output = arena(&args);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(stdout.contains("greedy vs random: "), "{stdout}");
    assert!(stdout.contains("Elo"), "{stdout}");

    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("match.json")).unwrap()).unwrap();
    let replay_args = common::replay_args(&summary);
    assert_eq!(
        replay_args[..7],
        [
            "replay",
            "--game",
            "ghast",
            "--size",
            "4",
            "--win-margin",
            "5"
        ]
    );
    let games = summary["games"].as_array().unwrap();
    assert_eq!(games.len(), 8);
    for game in games {
        let moves =
            std::fs::read_to_string(out.path().join(game["file"].as_str().unwrap())).unwrap();
        let replayed = ghast(&replay_args, &moves);
        assert!(replayed.status.success(), "{}", text(&replayed.stderr));
        let last = text(&replayed.stdout).lines().last().unwrap().to_owned();
        assert!(last.starts_with("result "), "a finished game: {last}");
        assert!(
            last.ends_with(game["reason"].as_str().unwrap()),
            "{last} vs {game}"
        );
    }
}

#[test]
fn sprt_stops_a_lopsided_match_and_names_the_hypothesis() {
    let mut args = vec!["uct:50", "random", "--games", "200", "--sprt", "0,200"];
    args.extend(SMALL);
    let output = arena(&args);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(!stdout.contains("200 games"), "stopped early: {stdout}");
}

#[test]
fn bad_input_exits_2_with_a_message_naming_it() {
    for (args, expected) in [
        (vec!["grandmaster", "random"], "player `grandmaster`"),
        (vec!["random", "greedy", "--games", "3"], "even number"),
        (
            vec!["random", "greedy", "--sprt", "10,0"],
            "--sprt: elo0 (10) must be below elo1 (0)",
        ),
        (
            vec!["random", "greedy", "--size", "9"],
            "size must be 2..=7, got 9",
        ),
    ] {
        assert_refused(&[&["arena"], &args[..]].concat(), expected);
    }
}

/// A path that holds no bot is named with what a bot is, in every command that takes one:
/// a missing folder or file, a checkpoint without its sidecar, a folder that is no bundle.
#[test]
fn a_path_that_is_no_bot_is_named_with_what_a_bot_is() {
    let temp = tempfile::tempdir().unwrap();
    let missing = temp.path().join("no-such-bot");
    let missing = missing.to_str().unwrap();
    let no_bot = format!("no bot at {missing}: expected a bundle folder");
    let out = temp.path().join("out");
    let out = out.to_str().unwrap();
    for args in [
        vec!["gtp", "--bot", missing],
        vec!["serve", "--bot", missing, "--port", "0"],
        vec!["export", "--checkpoint", missing, "--out", out],
    ] {
        assert_refused(&args, &no_bot);
    }
    let player = format!("player `{missing}`: expected random, greedy");
    assert_refused(&["arena", missing, "random"], &player);
    let run = tiny_ladder_run(&[1]);
    let run_arg = run.path().to_str().unwrap();
    assert_refused(
        &["ladder", "--run", run_arg, "--baselines", missing],
        &player,
    );
    let lone = temp.path().join("lone.safetensors");
    std::fs::copy(run.path().join("models/gen-0001.safetensors"), &lone).unwrap();
    let lone = lone.to_str().unwrap();
    assert_refused(
        &["gtp", "--bot", lone],
        "lone.safetensors: a checkpoint needs its sidecar",
    );
    let folder = temp.path().to_str().unwrap();
    assert_refused(
        &["gtp", "--bot", folder],
        "not a bot bundle: model.safetensors is missing",
    );
}

#[test]
fn ladder_prints_a_table_and_draws_the_plots() {
    let run = tiny_ladder_run(&[1, 2]);
    let run_arg = run.path().to_str().unwrap();
    let args = [
        "ladder",
        "--run",
        run_arg,
        "--games",
        "2",
        "--baselines",
        "random,greedy",
        "--visits",
        "2",
    ];
    let output = ghast(&args, "");
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    for name in [
        "gen-0001@2",
        "gen-0002@2",
        "random",
        "greedy",
        "anchor: random = 0",
    ] {
        assert!(stdout.contains(name), "{name} in {stdout}");
    }
    let ladder = run.path().join("ladder");
    for file in ["ratings.png", "ratings.svg", "results.json"] {
        assert!(is_nonempty(&ladder.join(file)), "{file}");
    }
    let svg = std::fs::read_to_string(ladder.join("ratings.svg")).unwrap();
    let run_name = run.path().file_name().unwrap().to_str().unwrap();
    let title = format!("ghast: Elo of each generation of run {run_name} (2 visits a move)");
    assert!(svg.contains(&title), "{title} in the plot");
    let rerun = text(&ghast(&args, "").stdout);
    assert!(
        rerun.starts_with("0 new pairings played, 6 from"),
        "{rerun}"
    );
}

/// Without `--baselines` a ladder rates against the game's own, up to the strongest
/// independent player Ghast has (`uct:10000`), which keeps strong generations apart.
#[test]
fn a_ladder_without_baselines_rates_against_the_games_own_up_to_uct_10000() {
    let run = tiny_ladder_run(&[1]);
    let args = [
        "ladder",
        "--run",
        run.path().to_str().unwrap(),
        "--games",
        "2",
        "--visits",
        "2",
    ];
    let output = ghast(&args, "");
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(stdout.starts_with("7 new pairings played"), "{stdout}");
    let results = std::fs::read_to_string(run.path().join("ladder/results.json")).unwrap();
    for name in ["random", "greedy", "uct:1000", "uct:10000"] {
        assert!(stdout.contains(&format!("\n{name} ")), "{name} in {stdout}");
        assert!(
            results.contains(&format!("\"{name}\"")),
            "{name} in {results}"
        );
    }
}

/// The generations search as the run's bot does: its config's `[bot]` over its self-play
/// search, recorded with the results (a cache of another search is refused).
#[test]
fn ladder_generations_search_as_the_runs_bot() {
    let run = tiny_ladder_run(&[1]);
    let config = run.path().join("config.toml");
    std::fs::write(
        &config,
        "[game]\nsize = 3\nwin_margin = 4\n\n[network]\npreset = \"tiny\"\n\n[selfplay.search]\nformula = \"gumbel\"\n\n\
         [bot]\nopponent_random_decisions = 0.25\ngumbel_actions = 7\n",
    )
    .unwrap();
    let run_arg = run.path().to_str().unwrap();
    let args = [
        "ladder",
        "--run",
        run_arg,
        "--games",
        "2",
        "--baselines",
        "random",
        "--visits",
        "2",
    ];
    let output = ghast(&args, "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(run.path().join("ladder/results.json")).unwrap())
            .unwrap();
    assert_eq!(results["search"]["formula"], "gumbel", "{results}");
    assert_eq!(results["search"]["opponent_random_decisions"], 0.25);
    assert_eq!(
        results["search"]["gumbel_actions"], 7,
        "[bot] over self-play's 16"
    );
    assert_eq!(
        results["search"]["root_noise"], false,
        "a bot plays without noise"
    );

    let plain = "[game]\nsize = 3\nwin_margin = 4\n\n[network]\npreset = \"tiny\"\n";
    std::fs::write(&config, plain).unwrap();
    assert_refused(&args, "searched with other settings than the run's bot");
    std::fs::write(&config, format!("{plain}\n[bot]\nvisits = 0\n")).unwrap();
    assert_refused(&args, "config.toml: [bot] visits");
    std::fs::write(&config, format!("{plain}\n[bot]\ngumbel_actions = 0\n")).unwrap();
    assert_refused(&args, "config.toml: [bot] gumbel_actions");
    std::fs::write(&config, format!("{plain}\n[bot]\nformula = \"ucb1\"\n")).unwrap();
    assert_refused(
        &args,
        "config.toml: [bot] formula = \"ucb1\" ignores the network's policy",
    );
}

#[test]
fn ladder_without_checkpoints_is_bad_input() {
    let run = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(run.path().join("models")).unwrap();
    assert_refused(
        &["ladder", "--run", run.path().to_str().unwrap()],
        "no generation checkpoints",
    );
}

#[test]
fn ladder_with_a_repeated_baseline_is_bad_input() {
    let run = tiny_ladder_run(&[1]);
    let run_arg = run.path().to_str().unwrap();
    assert_refused(
        &[
            "ladder",
            "--run",
            run_arg,
            "--baselines",
            "random, greedy,random",
        ],
        "--baselines: `random` is listed twice (entry 3)",
    );
}

#[test]
fn ladder_and_arena_play_the_game_of_the_checkpoints() {
    let run = tempfile::tempdir().unwrap();
    let options = ghodak::RawOptions {
        size: 5,
        ..ghodak::RawOptions::default()
    }
    .validate()
    .unwrap();
    tiny_run::write_tiny_run::<ghodak::Ghodak>(run.path(), &options, &[1, 2]);
    let run_arg = run.path().to_str().unwrap();
    let output = ghast(
        &[
            "ladder",
            "--run",
            run_arg,
            "--games",
            "2",
            "--baselines",
            "random",
            "--visits",
            "2",
        ],
        "",
    );
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    for name in ["gen-0001@2", "gen-0002@2", "anchor: random = 0"] {
        assert!(stdout.contains(name), "{name} in {stdout}");
    }
    let results = std::fs::read_to_string(run.path().join("ladder/results.json")).unwrap();
    assert!(
        results.contains("\"max_moves\""),
        "Ghodak options: {results}"
    );

    let checkpoint = run.path().join("models/gen-0002.safetensors");
    let checkpoint = checkpoint.to_str().unwrap();
    let output = arena(&[checkpoint, "random", "--games", "2", "--size", "6"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    for (args, expected) in [
        (
            vec![checkpoint, "random", "--game", "ghast"],
            "--game ghast: ",
        ),
        (
            vec![checkpoint, "random", "--win-margin", "3"],
            "ghodak has no rule `win_margin`",
        ),
    ] {
        assert_refused(&[&["arena"], &args[..]].concat(), expected);
    }
}

/// A bundle whose `bot.toml` says to resign gives games up in a match: every root value of
/// an untrained net lies below 1.5, so the bot resigns at its second decision of each game.
#[test]
fn a_bot_whose_settings_say_resign_gives_lost_games_up_in_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let options = ghast::RawOptions {
        size: 3,
        win_margin: 4,
        ..ghast::RawOptions::default()
    }
    .validate()
    .unwrap();
    let bundle = common::untrained_bundle::<ghast::Ghast>(dir.path(), &options);
    let settings = bundle.join("bot.toml");
    let written = std::fs::read_to_string(&settings).unwrap();
    let never = "[resign]\nthreshold = -0.9\nconsecutive_moves = 0\n";
    assert!(
        written.contains(never),
        "an export never resigns: {written}"
    );
    let resigning = written.replace(never, "[resign]\nthreshold = 1.5\nconsecutive_moves = 2\n");
    std::fs::write(&settings, resigning).unwrap();

    let out = tempfile::tempdir().unwrap();
    let output = arena(&[
        bundle.to_str().unwrap(),
        "random",
        "--games",
        "4",
        "--threads",
        "1",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("match.json")).unwrap()).unwrap();
    assert_eq!(summary["losses"], 4, "{summary}");
    for game in summary["games"].as_array().unwrap() {
        assert_eq!(game["reason"], "resign", "{game}");
    }
}

/// `--backend onnx` plays a bundle's model.onnx on tract: a shipped bundle plays, and a
/// bundle exported without one is refused with the file it lacks.
#[test]
fn arena_plays_bundles_on_the_backend_it_is_given() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/ghast-size4");
    let bot = format!("{}@4", shipped.display());
    let output = arena(&[
        &bot,
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--backend",
        "onnx",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("2 games"),
        "{}",
        text(&output.stdout)
    );

    let dir = tempfile::tempdir().unwrap();
    let options = ghast::RawOptions {
        size: 3,
        win_margin: 3,
        ..ghast::RawOptions::default()
    }
    .validate()
    .unwrap();
    let without_onnx = common::untrained_bundle::<ghast::Ghast>(dir.path(), &options);
    let output = arena(&[
        without_onnx.to_str().unwrap(),
        "random",
        "--games",
        "2",
        "--backend",
        "onnx",
    ]);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("model.onnx"),
        "{}",
        text(&output.stderr)
    );
}

/// `ghast ladder --bot DIR --levels` rates the levels against the baselines and writes them
/// into bot.toml with their ratings; `ghast gtp --level N` plays one, and names the levels
/// there are when N is none of them.
/// Its matches are kept in DIR/levels-games.json: the same ladder again plays none, and one
/// with a level more plays only that level's.
#[test]
fn levels_are_rated_written_into_the_bundle_and_played() {
    let dir = tempfile::tempdir().unwrap();
    let options = ghast::RawOptions {
        size: 3,
        win_margin: 3,
        max_turns: Some(30),
        ..ghast::RawOptions::default()
    }
    .validate()
    .unwrap();
    let bundle = common::untrained_bundle::<ghast::Ghast>(dir.path(), &options);
    let bot = bundle.to_str().unwrap();
    let ladder_args = vec![
        "ladder",
        "--bot",
        bot,
        "--levels",
        "1:1:1",
        "--games",
        "4",
        "--baselines",
        "random,greedy",
        "--threads",
        "1",
    ];
    let output = ghast(&ladder_args, "");
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(stdout.contains("anchor: random = 0"), "{stdout}");
    let settings: toml::Value =
        toml::from_str(&std::fs::read_to_string(bundle.join("bot.toml")).unwrap()).unwrap();
    let levels = settings["levels"].as_array().expect("levels written");
    assert_eq!(
        levels.len(),
        2,
        "the level asked for and full strength: {levels:?}"
    );
    let field = |level: &toml::Value, name: &str| level["rating"][name].as_float().unwrap();
    assert!(
        field(&levels[0], "elo") <= field(&levels[1], "elo"),
        "levels are written weakest first by their measured Elo: {levels:?}"
    );
    assert!(
        levels
            .iter()
            .any(|level| level["random_moves"].as_float() == Some(1.0)),
        "{levels:?}"
    );
    assert!(
        levels
            .iter()
            .any(|level| level["visits"].as_integer() == Some(8)),
        "full strength has the bundle's own visits: {levels:?}"
    );
    for level in levels {
        let rating = &level["rating"];
        let (elo, low, high) = (
            field(level, "elo"),
            field(level, "low"),
            field(level, "high"),
        );
        assert!(low <= elo && elo <= high, "{rating:?}");
        // A level that dominates random in its 2 probe games climbs to greedy; it plays 4
        // games against each anchor that brackets it, and 4 against the other level.
        let anchors: Vec<&str> = rating["anchors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|anchor| anchor.as_str().unwrap())
            .collect();
        assert!(
            anchors == ["random"] || anchors == ["random", "greedy"],
            "{rating:?}"
        );
        assert_eq!(
            rating["games"].as_integer(),
            Some(4 * anchors.len() as i64 + 4),
            "{rating:?}"
        );
    }

    let bot_toml = std::fs::read_to_string(bundle.join("bot.toml")).unwrap();
    let again = ghast(&ladder_args, "");
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        text(&again.stdout).contains("0 matches played now, "),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(bundle.join("bot.toml")).unwrap(),
        bot_toml,
        "the kept matches rate the levels as before"
    );
    let mut one_more = ladder_args.clone();
    one_more[4] = "1:1:1,1:1:0.5";
    let extended = ghast(&one_more, "");
    let extended_out = text(&extended.stdout);
    assert!(extended.status.success(), "{}", text(&extended.stderr));
    let played_now: usize = extended_out
        .split(" matches played now")
        .next()
        .and_then(|before| before.rsplit('\n').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no count of matches played: {extended_out}"));
    assert!(
        (1..=4).contains(&played_now),
        "the new level's matches only: {extended_out}"
    );

    let played = ghast(
        &["gtp", "--cpu", "--bot", bot, "--level", "1"],
        "genmove orange\nquit\n",
    );
    assert!(played.status.success(), "{}", text(&played.stderr));
    assert!(
        text(&played.stdout).starts_with("= "),
        "{}",
        text(&played.stdout)
    );
    assert_refused(
        &["gtp", "--bot", bot, "--level", "4"],
        "level 4: the bot has 3 levels",
    );
    assert_refused(
        &["ladder", "--bot", bot, "--levels", "0:1"],
        "--levels: `0:1`: visits 0",
    );
}

/// A fake run on the size-3 board holding untrained checkpoints of `generations`.
fn tiny_ladder_run(generations: &[u64]) -> tempfile::TempDir {
    let run = tempfile::tempdir().unwrap();
    let options = ghast::RawOptions {
        size: 3,
        win_margin: 4,
        ..ghast::RawOptions::default()
    }
    .validate()
    .unwrap();
    tiny_run::write_tiny_run::<ghast::Ghast>(run.path(), &options, generations);
    run
}

/// `ghast ARGS` exits with status 2 (bad input) and says `expected` on standard error.
fn assert_refused(args: &[&str], expected: &str) {
    let output = ghast(args, "");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
}

fn is_nonempty(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
}

/// A Go match's records open in Sabaki's SGF parser (tests/sgf-tool/read.mjs, @sabaki/sgf)
/// with every move, the players, the board and the result intact: games given up by a bot
/// that resigns at once (`B+R`/`W+R`) and games played to the end between two baselines,
/// whose score the test takes from `ghast replay` of the moves file. Moves are compared with
/// the moves file through SGF's coordinates as this test computes them.
#[test]
fn go_records_are_sgf_that_sabaki_reads_whole() {
    let dir = tempfile::tempdir().unwrap();
    let options = ghodak::RawOptions {
        size: 5,
        komi: 0.5,
        max_moves: None,
    }
    .validate()
    .unwrap();
    let bundle = common::untrained_bundle::<ghodak::Ghodak>(dir.path(), &options);
    let settings = bundle.join("bot.toml");
    let written = std::fs::read_to_string(&settings).unwrap();
    let never = "[resign]\nthreshold = -0.9\nconsecutive_moves = 0\n";
    std::fs::write(
        &settings,
        written.replace(never, "[resign]\nthreshold = 1.5\nconsecutive_moves = 1\n"),
    )
    .unwrap();
    let reader = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sgf-tool");
    assert!(
        reader.join("node_modules/@sabaki/sgf").is_dir(),
        "@sabaki/sgf is missing: run scripts/setup-engines.sh"
    );
    let go = ["--game", "ghodak", "--size", "5", "--komi", "0.5"];
    let matches: [&[&str]; 2] = [&[bundle.to_str().unwrap(), "random"], &["random", "greedy"]];
    let mut endings = std::collections::BTreeSet::new();
    for players in matches {
        let out = tempfile::tempdir().unwrap();
        let mut args = players.to_vec();
        args.extend(["--games", "4", "--threads", "1", "--out"]);
        args.push(out.path().to_str().unwrap());
        args.extend(go);
        let output = arena(&args);
        assert!(output.status.success(), "{}", text(&output.stderr));
        let summary: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.path().join("match.json")).unwrap()).unwrap();
        for game in summary["games"].as_array().unwrap() {
            let sgf = out.path().join(game["sgf"].as_str().unwrap());
            let read = std::process::Command::new("node")
                .arg(reader.join("read.mjs"))
                .arg(&sgf)
                .output()
                .expect("start node");
            assert!(read.status.success(), "{}", text(&read.stderr));
            let record: serde_json::Value = serde_json::from_slice(&read.stdout).unwrap();
            let root = &record["root"];
            let first = |key: &str| root[key][0].as_str().unwrap_or_default().to_owned();
            assert_eq!(
                [
                    first("GM"),
                    first("FF"),
                    first("SZ"),
                    first("KM"),
                    first("RU")
                ],
                ["1", "4", "5", "0.5", "Chinese"],
                "{record}"
            );
            assert_eq!(first("PB"), game["black"].as_str().unwrap(), "{record}");
            assert_eq!(first("PW"), game["white"].as_str().unwrap(), "{record}");

            let moves_file = out.path().join(game["file"].as_str().unwrap());
            let moves = std::fs::read_to_string(&moves_file).unwrap();
            let expected: Vec<String> = moves
                .split_whitespace()
                .enumerate()
                .map(|(ply, name)| format!("{} {}", ["B", "W"][ply % 2], sgf_point(name, 5)))
                .collect();
            assert_eq!(record["moves"], serde_json::json!(expected), "{record}");

            let winner = match game["outcome"].as_str().unwrap() {
                "Win(First)" => "B",
                "Win(Second)" => "W",
                other => panic!("a draw under komi 0.5: {other}"),
            };
            let result = if game["reason"] == "resign" {
                format!("{winner}+R")
            } else {
                let replayed = ghast(&[&["replay"], &go[..]].concat(), &moves);
                let stdout = text(&replayed.stdout);
                let last: Vec<&str> = stdout.lines().last().unwrap().split(' ').collect();
                let [_, _, _, black, white] = last[..] else {
                    panic!("no result: {stdout}");
                };
                let lead = black.parse::<f64>().unwrap() - white.parse::<f64>().unwrap();
                format!("{winner}+{}", lead.abs())
            };
            assert_eq!(first("RE"), result, "{record}");
            endings.insert(game["reason"].as_str().unwrap().to_owned());
        }
    }
    assert!(endings.contains("resign"), "{endings:?}");
    assert!(endings.len() >= 2, "games scored too: {endings:?}");
}

/// A GTP point (`C3`, `pass`) as SGF writes it on a board of `size`: the column's letter
/// (GTP skips I) and the row counted from the top, both from `a`; a pass is empty.
fn sgf_point(name: &str, size: u8) -> String {
    if name == "pass" {
        return String::new();
    }
    let column = "ABCDEFGHJKLMNOPQRST".find(&name[..1]).unwrap() as u8;
    let row: u8 = name[1..].parse().unwrap();
    [b'a' + column, b'a' + size - row]
        .iter()
        .map(|&c| char::from(c))
        .collect()
}
