//! The shipped bots play exactly as they did: short seeded matches against greedy, whose every
//! move is pinned in tests/data/shipped-bot-games.txt. A change to the search, the network's
//! evaluation, the referee or the openings that changes a single move fails here. libtorch is
//! kept to one thread and to its generic CPU kernels, so that the floats, and so the moves,
//! are the same on every x86 machine.

use std::path::Path;
use std::process::Command;

const PINNED: &str = include_str!("data/shipped-bot-games.txt");

/// `ghast arena BOT greedy`, 2 games from 2-move openings, seed 11: the games' moves.
fn games_of(bot: &str) -> Vec<String> {
    let out = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(env!("CARGO_BIN_EXE_ghast"))
        .current_dir(root)
        .env("ATEN_CPU_CAPABILITY", "default")
        .env("OMP_NUM_THREADS", "1")
        .args(["arena", &format!("models/{bot}"), "greedy"])
        .args([
            "--games",
            "2",
            "--threads",
            "1",
            "--openings",
            "2",
            "--seed",
            "11",
        ])
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{bot}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (0..2)
        .map(|game| {
            let file = out.path().join(format!("game-{game:04}.moves"));
            std::fs::read_to_string(file)
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn the_shipped_bots_play_the_pinned_games() {
    let mut matches = 0;
    let mut lines = PINNED.lines().filter(|line| !line.starts_with('#'));
    while let Some(header) = lines.next() {
        let bot = header.strip_prefix("match ").expect("a match line");
        let pinned: Vec<&str> = lines.by_ref().take(2).collect();
        let played = games_of(bot);
        for (index, (played, pinned)) in played.iter().zip(&pinned).enumerate() {
            let first_difference = played
                .split(' ')
                .zip(pinned.split(' '))
                .position(|(a, b)| a != b);
            assert_eq!(
                played, pinned,
                "{bot}, game {index}: first different move at {first_difference:?}"
            );
        }
        matches += 1;
    }
    let shipped = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("models"))
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().path().is_dir())
        .count();
    assert_eq!(
        matches, shipped,
        "every shipped bot in models/ has its match"
    );
}

/// Every shipped bot carries five or more levels of play as `ghast ladder --bot DIR --levels`
/// rated them: weakest first, neighbours at least 100 Elo apart with 95% intervals that do not
/// overlap, and full strength (the bundle's visits, the most visited move) on top.
#[test]
fn shipped_levels_are_five_or_more_told_apart() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut bundles = 0;
    for entry in std::fs::read_dir(&models).unwrap() {
        let dir = entry.unwrap().path();
        let file = dir.join("bot.toml");
        if !file.is_file() {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let settings: toml::Value = toml::from_str(&std::fs::read_to_string(&file).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let levels = settings
            .get("levels")
            .and_then(toml::Value::as_array)
            .unwrap_or_else(|| {
                panic!("models/{name} has no levels (ghast ladder --bot DIR --levels)")
            });
        bundles += 1;
        assert!(levels.len() >= 5, "{name}: {} levels", levels.len());
        let number = |level: &toml::Value, key: &str| {
            level["rating"][key]
                .as_float()
                .unwrap_or_else(|| panic!("{name}: a level without its rating's {key}"))
        };
        for (index, pair) in levels.windows(2).enumerate() {
            let (lower, upper) = (&pair[0], &pair[1]);
            assert!(
                number(upper, "elo") - number(lower, "elo") >= 100.0,
                "{name}: levels {} and {} are under 100 Elo apart",
                index + 1,
                index + 2
            );
            assert!(
                number(upper, "low") > number(lower, "high"),
                "{name}: the intervals of levels {} and {} overlap",
                index + 1,
                index + 2
            );
        }
        for level in levels {
            assert!(number(level, "low") <= number(level, "elo"));
            assert!(number(level, "elo") <= number(level, "high"));
            let anchors = level["rating"]["anchors"].as_array().unwrap();
            assert!(
                !anchors.is_empty(),
                "{name}: a level measured against no anchor"
            );
        }
        let top = levels.last().unwrap();
        assert_eq!(
            top["visits"], settings["visits"],
            "{name}: the top level is full strength"
        );
        assert_eq!(top["temperature"].as_float(), Some(0.0), "{name}");
        assert_eq!(top["random_moves"].as_float(), Some(0.0), "{name}");
    }
    assert!(bundles > 0, "no bundle in models/");
}
