//! Ghodak against GNU Go and Pachi, Go programs nobody here wrote: `ghast arena` drives them
//! over GTP against a Ghodak bot, and GNU Go against `ghast gtp`, so both ends of our GTP meet
//! a real Go program. They refuse any move their rules forbid, so a rules disagreement shows
//! up as a forfeit. `scripts/setup-engines.sh` installs them (Debian puts GNU Go in
//! /usr/games; Pachi is built into .tools/pachi/bin).

mod common;

use common::ghast;
use ghodak::{Ghodak, GhodakOptions, RawOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "fixtures/tiny_run.rs"]
mod tiny_run;

/// GNU Go's command line: `$GNUGO`, else Debian's /usr/games/gnugo, else `gnugo` on the
/// PATH; with the flags that make it finish games under area scoring.
fn gnugo_command() -> String {
    let program = std::env::var("GNUGO").unwrap_or_else(|_| {
        let debian = Path::new("/usr/games/gnugo");
        if debian.is_file() {
            debian.display().to_string()
        } else {
            "gnugo".to_owned()
        }
    });
    format!("{program} --mode gtp --chinese-rules --capture-all-dead --level 1")
}

/// GNU Go as an arena player spec.
fn gnugo_spec() -> String {
    format!("gtp:{}", gnugo_command())
}

/// The rules the tests' bot plays: 7 x 7, otherwise Ghodak's defaults.
fn options() -> GhodakOptions {
    RawOptions {
        size: 7,
        ..RawOptions::default()
    }
    .validate()
    .unwrap()
}

/// Pachi as an arena player spec: Chinese rules, 1,000 playouts a move (its least is 500),
/// one thread, capturing dead stones before it passes (`pass_all_alive`), as area scoring of
/// the board as it stands needs.
fn pachi_spec() -> String {
    let pachi = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/pachi/bin/pachi");
    assert!(
        pachi.is_file(),
        "Pachi is missing: run scripts/setup-engines.sh"
    );
    format!(
        "gtp:{} -r chinese -t =1000 -s 1 threads=1,pass_all_alive",
        pachi.display()
    )
}

/// Plays `a` against GNU Go over two games, saving records in `records`; returns match.json.
fn against_gnugo(a: &str, extra: &[&str], records: &Path) -> serde_json::Value {
    against(&gnugo_spec(), "gnugo-level-1", a, extra, records)
}

/// Plays `a` against the GTP player `opponent`, which the arena names `gtp:NAME`, over two
/// games, saving records in `records`; returns match.json.
fn against(
    opponent: &str,
    name: &str,
    a: &str,
    extra: &[&str],
    records: &Path,
) -> serde_json::Value {
    let mut args = vec![
        "arena",
        a,
        opponent,
        "--games",
        "2",
        "--threads",
        "2",
        "--out",
        records.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = ghast(&args, "");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "is {name} installed (scripts/setup-engines.sh)? {stderr}"
    );
    assert!(stdout.contains(&format!("vs gtp:{name}: ")), "{stdout}");
    assert!(!stderr.contains("forfeits"), "{stderr}");
    serde_json::from_slice(&std::fs::read(records.join("match.json")).unwrap()).unwrap()
}

/// Every game was played to its end by the rules (no forfeit), with Go's colour names, and
/// replays through `ghast replay` with the command match.json gives; `opponent` is the GTP
/// player's name in the records (`gtp:gnugo-level-1`), and a game it resigned has no result line.
fn assert_whole_games(summary: &serde_json::Value, records: &Path, a: &str, opponent: &str) {
    let replay = common::replay_args(summary);
    assert_eq!(replay[..5], ["replay", "--game", "ghodak", "--size", "7"]);
    let games = summary["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for game in games {
        assert_eq!(game["forfeit"], serde_json::Value::Null, "{game}");
        let reason = game["reason"].as_str().unwrap();
        assert!(["passes", "moves", "resign"].contains(&reason), "{game}");
        let players = [game["black"].as_str(), game["white"].as_str()];
        assert!(players.contains(&Some(a)), "{game}");
        assert!(players.contains(&Some(opponent)), "{game}");
        let moves = std::fs::read_to_string(records.join(game["file"].as_str().unwrap())).unwrap();
        let replayed = ghast(&replay, &moves);
        assert!(replayed.status.success(), "{replayed:?}");
        let stdout = String::from_utf8_lossy(&replayed.stdout);
        let last = stdout.lines().last().unwrap();
        assert_eq!(last.starts_with("result "), reason != "resign", "{last}");
    }
}

/// An untrained 7 x 7 bot plays two whole games against the GTP player `opponent`, named
/// `gtp:NAME` in the records; no --game and no --size: both come from the bot.
fn a_bot_plays_whole_games_against(opponent: &str, name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let bot = common::untrained_bundle::<Ghodak>(dir.path(), &options());
    let records = dir.path().join("records");
    let summary = against(opponent, name, bot.to_str().unwrap(), &[], &records);
    assert_eq!(summary["options"]["size"], 7, "{summary}");
    assert_whole_games(&summary, &records, "bot", &format!("gtp:{name}"));
}

#[test]
fn a_ghodak_bot_plays_whole_games_against_gnugo() {
    a_bot_plays_whole_games_against(&gnugo_spec(), "gnugo-level-1");
}

#[test]
fn a_ghodak_bot_plays_whole_games_against_pachi() {
    a_bot_plays_whole_games_against(&pachi_spec(), "pachi");
}

#[test]
fn gnugo_and_ghast_gtp_play_whole_games_over_gtp() {
    let dir = tempfile::tempdir().unwrap();
    let bot = common::untrained_bundle::<Ghodak>(dir.path(), &options());
    let records = dir.path().join("records");
    let engine = format!(
        "gtp:{} gtp --cpu --bot {}",
        env!("CARGO_BIN_EXE_ghast"),
        bot.display()
    );
    let summary = against_gnugo(&engine, &["--game", "ghodak", "--size", "7"], &records);
    assert_whole_games(&summary, &records, "gtp:ghast", "gtp:gnugo-level-1");
}

/// The whole-game check from the other side: Sabaki's own GTP library
/// (tests/gtp-tool/drive.mjs) drives `ghast gtp` against GNU Go, ours with each colour. Every
/// command must be accepted, the moves must replay under our rules, and our `final_score` must
/// be the score of that replay.
#[test]
fn sabakis_gtp_controller_drives_ghast_gtp_through_whole_games() {
    let dir = tempfile::tempdir().unwrap();
    let bot = common::untrained_bundle::<Ghodak>(dir.path(), &options());
    let ours = format!(
        "{} gtp --cpu --bot {}",
        env!("CARGO_BIN_EXE_ghast"),
        bot.display()
    );
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp-tool");
    assert!(
        driver.join("node_modules/@sabaki/gtp").is_dir(),
        "@sabaki/gtp is missing: run scripts/setup-engines.sh"
    );
    let options = options();
    let (size, komi, move_limit) = (
        options.size().to_string(),
        options.komi().to_string(),
        options.max_moves().to_string(),
    );
    for ours_is_black in [true, false] {
        let (black, white) = if ours_is_black {
            (ours.clone(), gnugo_command())
        } else {
            (gnugo_command(), ours.clone())
        };
        let output = std::process::Command::new("node")
            .arg(driver.join("drive.mjs"))
            .args([&size, &komi, &move_limit, &black, &white])
            .output()
            .expect("start node");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let game: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let moves: Vec<&str> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(moves.len() >= 10, "{game}");
        let end = game["end"].as_str().unwrap();
        assert!(
            ["passes", "moves"].contains(&end) || end.ends_with(" resigned"),
            "{game}"
        );

        let replayed = ghast(
            &[
                "replay", "--game", "ghodak", "--size", &size, "--komi", &komi,
            ],
            &moves.join(" "),
        );
        assert!(replayed.status.success(), "{replayed:?}");
        if end.ends_with(" resigned") {
            continue;
        }
        let stdout = String::from_utf8_lossy(&replayed.stdout);
        let result: Vec<&str> = stdout.lines().last().unwrap().split(' ').collect();
        let [_, winner, _, black_score, white_score] = result[..] else {
            panic!("no result after {end}: {stdout}");
        };
        let (black_score, white_score): (f64, f64) =
            (black_score.parse().unwrap(), white_score.parse().unwrap());
        let expected = match winner {
            "black" => format!("B+{}", black_score - white_score),
            "white" => format!("W+{}", white_score - black_score),
            _ => "0".to_owned(),
        };
        let our_colour = if ours_is_black { "black" } else { "white" };
        assert_eq!(game["scores"][our_colour], expected.as_str(), "{game}");
    }
}

/// The folder GNU Go's program is in: `$GNUGO`'s, else Debian's /usr/games.
fn gnugo_folder() -> PathBuf {
    std::env::var_os("GNUGO").map_or_else(
        || PathBuf::from("/usr/games"),
        |program| Path::new(&program).parent().unwrap().to_owned(),
    )
}

/// A Ghodak run's ladder rates against GNU Go level 10 by default, where `gnugo` is on the
/// PATH, and says it left GNU Go out where it is not. (It found the referee's bug of not
/// telling an in-process search GNU Go's moves: see the Ghost Chess referee tests.)
#[test]
fn a_ghodak_ladder_anchors_at_gnugo_where_the_path_has_it() {
    let run = tempfile::tempdir().unwrap();
    let options = RawOptions {
        size: 5,
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    tiny_run::write_tiny_run::<Ghodak>(run.path(), &options, &[1]);
    let ladder = |search_path: &std::ffi::OsStr| {
        let output = Command::new(env!("CARGO_BIN_EXE_ghast"))
            .args(["ladder", "--run", run.path().to_str().unwrap()])
            .args(["--games", "2", "--visits", "2", "--threads", "2"])
            .env("PATH", search_path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        (stdout, stderr)
    };

    let without = tempfile::tempdir().unwrap();
    let (stdout, stderr) = ladder(without.path().as_os_str());
    assert!(
        stderr.contains(
            "gtp:gnugo-level-10 is left out of the baselines: `gnugo` is not on the PATH"
        ),
        "{stderr}"
    );
    assert!(stdout.starts_with("3 new pairings played"), "{stdout}");
    assert!(!stdout.contains("gtp:gnugo"), "{stdout}");

    std::fs::remove_dir_all(run.path().join("ladder")).unwrap();
    let (stdout, stderr) = ladder(gnugo_folder().as_os_str());
    assert!(!stderr.contains("left out"), "{stderr}");
    assert!(stdout.starts_with("5 new pairings played"), "{stdout}");
    for name in ["random", "uct:1000", "gtp:gnugo-level-10"] {
        assert!(stdout.contains(&format!("\n{name} ")), "{name} in {stdout}");
    }
}
