//! Drives the real `ghast replay` binary over the replay vectors and over bad input.

mod common;

use std::process::Output;

fn replay(args: &[&str], stdin: &str) -> Output {
    common::ghast(&[&["replay"], args].concat(), stdin)
}

/// Each game of the vector file: its CLI options and the exact expected output.
fn vector_games() -> Vec<(Vec<String>, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/ghast/tests/data/replay-vectors.txt"
    );
    let text = std::fs::read_to_string(path).expect("read the replay vectors");
    let mut games: Vec<(Vec<String>, String)> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if let Some(header) = line.strip_prefix("game ") {
            games.push((
                header
                    .split_whitespace()
                    .skip(1)
                    .map(String::from)
                    .collect(),
                String::new(),
            ));
        } else if line != "end" {
            let expected = &mut games.last_mut().unwrap().1;
            expected.push_str(line);
            expected.push('\n');
        }
    }
    games
}

#[test]
fn replays_every_vector_game_byte_for_byte() {
    let games = vector_games();
    assert_eq!(games.len(), 60);
    for (args, expected) in games {
        let moves: Vec<&str> = expected
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("result "))
            .map(|l| l.split_once(' ').unwrap().0)
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = replay(&args, &moves.join("\n"));
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            expected,
            "{args:?}"
        );
    }
}

/// Exit status 2, one line on stderr naming the problem, and no panic.
fn assert_refused(args: &[&str], stdin: &str, needle: &str) {
    let output = replay(args, stdin);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?} {stdin:?}: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("ghast: ") && stderr.contains(needle),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_moves_exit_2_naming_the_move() {
    assert_refused(
        &[],
        "a6:0 f6:1",
        "move \"f6:1\": f6 is not open yet on turn 2 (depth 5, allowed up to 0)",
    );
    assert_refused(
        &[],
        "z9:1",
        "move \"z9:1\": hex z9 is off the 6-sided board",
    );
    assert_refused(
        &[],
        "a6:7",
        "move \"a6:7\": orientation `7` is not one of 0..5",
    );
    assert_refused(
        &[],
        "hello",
        "move \"hello\": expected <hex>:<orientation>, pass, accept or veto",
    );
    assert_refused(&[], "f1:0 f1:1", "move \"f1:1\": f1 is occupied");
    assert_refused(
        &[],
        "accept",
        "move \"accept\": no placement is awaiting an answer",
    );
    assert_refused(
        &["--vetoes", "0,1"],
        "a6:0 pass",
        "blue must first answer the pending placement",
    );
}

#[test]
fn bad_options_exit_2_naming_the_option() {
    assert_refused(&["--size", "1"], "", "size must be 2..=7, got 1");
    assert_refused(&["--size", "8"], "", "size must be 2..=7, got 8");
    assert_refused(
        &["--win-margin", "-3"],
        "",
        "win_margin must be at least 1, got -3",
    );
    assert_refused(
        &["--vetoes", "1,-1"],
        "",
        "vetoes for blue must be 0..=255, got -1",
    );
    assert_refused(&["--vetoes", "1"], "", "vetoes must be two counts");
    assert_refused(
        &["--komi", "0.3"],
        "",
        "komi must be a finite multiple of 0.5, got 0.3",
    );
    assert_refused(
        &["--max-turns", "0"],
        "",
        "max_turns must be 1..=65535, got 0",
    );
}
