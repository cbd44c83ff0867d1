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
