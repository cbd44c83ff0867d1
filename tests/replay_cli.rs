//! Drives the real `ghast replay` binary over the replay vectors and over bad input.

mod common;

use std::process::Output;

fn replay(args: &[&str], stdin: &str) -> Output {
    common::ghast(&[&["replay"], args].concat(), stdin)
}

/// Each game of a vector file (relative to the repository): its CLI options and the exact
/// expected output.
fn vector_games(file: &str) -> Vec<(Vec<String>, String)> {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("read the replay vectors");
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
    let files = [
        ("crates/ghast/tests/data/replay-vectors.txt", 60),
        ("crates/ghodak/tests/data/replay-vectors.txt", 40),
        ("crates/ghast/tests/data/fakerghast-replay-vectors.txt", 40),
        ("crates/vastuz/tests/data/vastuz-replay.txt", 40),
        ("crates/qast/tests/data/qast-replay.txt", 40),
        ("crates/ghostchess/tests/data/ghostchess-replay.txt", 40),
    ];
    let mut games = Vec::new();
    for (file, count) in files {
        let found = vector_games(file);
        assert_eq!(found.len(), count, "{file}");
        games.extend(found);
    }
    // One process per game, four at a time: each start of the binary loads libtorch.
    std::thread::scope(|scope| {
        for share in games.chunks(games.len().div_ceil(4)) {
            scope.spawn(move || {
                share
                    .iter()
                    .for_each(|(args, expected)| check_replay(args, expected))
            });
        }
    });
}

/// Replays a vector game's moves and compares the output with the vector's, byte for byte.
fn check_replay(args: &[String], expected: &str) {
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

/// Every example of GHOST-CHESS.md section 13 through the binary, each from its own position
/// (`--from`): the position echoed, the move and the position after it, and the result line
/// where the move ends the game; a move the section calls illegal exits 2 naming it.
#[test]
fn ghostchess_section_13_examples_replay_from_their_positions() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/ghostchess/tests/data/section-13.txt"
    );
    let text = std::fs::read_to_string(path).expect("read section 13's examples");
    let examples: Vec<Vec<&str>> = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split(" | ").collect())
        .collect();
    assert_eq!(examples.len(), 19);
    for example in examples {
        let (before, token, after) = (example[0], example[1], example[2]);
        let args = ["--game", "ghostchess", "--from", before];
        if after == "illegal" {
            assert_refused(&args, token, &format!("\"{token}\""));
            continue;
        }
        let output = replay(&args, token);
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(output.status.success(), "{example:?}: {stdout}");
        let mut expected = format!("{before}\n{token} {after}\n");
        if let Some(result) = example.get(3) {
            expected.push_str(&format!("{result}\n"));
        }
        assert_eq!(stdout, expected, "{example:?}");
    }
}

/// A start position that the game cannot read exits 2 naming it; a game without position
/// strings says so.
#[test]
fn a_bad_start_position_exits_2_naming_it() {
    let args = ["--game", "ghostchess", "--from", "3q4/8 w"];
    assert_refused(&args, "", "position \"3q4/8 w\"");
    assert_refused(
        &["--game", "pig", "--from", "0 0"],
        "",
        "pig reads no position strings",
    );
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

/// Every block of the illegal-move vectors (Ghast, Ghodak, Fakerghast, Vastuz, Qast, Ghost
/// Chess): a position for the start and each legal prefix move (their text is checked by the
/// replay vectors), then exit status 2 naming the refused move. One process per block, since each
/// start of the binary loads libtorch; four at a time.
#[test]
fn refuses_every_illegal_vector_move() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/illegal-moves.txt");
    let text = std::fs::read_to_string(path).expect("read the illegal-move vectors");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let blocks: Vec<&[&str]> = lines
        .split(|l| *l == "end")
        .filter(|b| b.len() >= 4)
        .collect();
    assert_eq!(blocks.len(), 70 + 60 + 80 + 40 + 60 + 40);
    std::thread::scope(|scope| {
        for share in blocks.chunks(blocks.len().div_ceil(4)) {
            scope.spawn(move || share.iter().for_each(|block| check_refusal(block)));
        }
    });
}

/// Replays one block of the illegal-move vectors and checks the refusal.
fn check_refusal(block: &[&str]) {
    let args: Vec<&str> = block[0].split_whitespace().skip(2).collect();
    let (prefix, refused) = (block[1], block[2]);
    let output = replay(&args, &format!("{prefix}\n{refused}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}: {stderr}", block[0]);
    let printed = String::from_utf8(output.stdout).unwrap();
    let positions = printed.lines().count();
    let prefix_moves = prefix.split_whitespace().count();
    assert_eq!(positions, 1 + prefix_moves, "{}: {printed}", block[0]);
    assert!(
        stderr.contains(&format!("move \"{refused}\"")) && !stderr.contains("panicked"),
        "{}: {stderr}",
        block[0]
    );
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
fn ghodak_moves_and_options_are_checked_too() {
    let ghodak = ["--game", "ghodak", "--size", "5"];
    assert_refused(&ghodak, "C3 C3", "move \"C3\": C3 is occupied");
    assert_refused(&ghodak, "F1", "move \"F1\": F1 is off the 5x5 board");
    assert_refused(&ghodak, "I3", "move \"I3\": expected a point such as D4");
    assert_refused(&ghodak, "pass pass pass", "move \"pass\": the game is over");
    assert_refused(
        &["--game", "ghodak", "--size", "4"],
        "",
        "size must be 5..=19, got 4",
    );
    assert_refused(
        &["--game", "ghodak", "--win-margin", "3"],
        "",
        "ghodak has no rule `win_margin`; its rules are size, komi, max_moves",
    );
    assert_refused(
        &["--max-moves", "30", "--win-margin", "3"],
        "",
        "no game has all the rules given (max_moves, win_margin)",
    );
    // A rule two games have chooses neither: `--game` must.
    assert_refused(
        &["--max-moves", "2"],
        "pass pass",
        "the rules given (max_moves) fit ghodak and ghostchess: choose one with --game",
    );
    let output = replay(&["--game", "ghodak", "--max-moves", "2"], "pass pass");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.ends_with("result white passes 0 7.5\n"), "{stdout}");
}

#[test]
fn fakerghast_moves_and_options_are_checked_too() {
    let full = ["--size", "3", "--win-margin", "4", "--fakerghast", "2"];
    assert_refused(
        &full,
        "c1:0",
        "move \"c1:0\": every placement under fakerghast is a pair",
    );
    assert_refused(
        &full,
        "c1:0+c1:1",
        "move \"c1:0+c1:1\": both tiles of the pair are on c1",
    );
    assert_refused(
        &full,
        "c1:0+c3:1",
        "move \"c1:0+c3:1\": c3 is not open yet on turn 1",
    );
    assert_refused(&full, "c1:0+", "a pair <real>+<fake> such as f6:3+g7:1");
    let fakes = ["--size", "3", "--win-margin", "4", "--fakes", "1,0"];
    assert_refused(
        &fakes,
        "c1:0 d1:1+e1:1",
        "move \"d1:1+e1:1\": blue has no fakes left: place a single tile",
    );
    assert_refused(
        &["--fakes", "1,1", "--vetoes", "1,0"],
        "",
        "vetoes cannot be combined with fakerghast or fakes",
    );
    assert_refused(
        &["--fakerghast", "4"],
        "",
        "fakerghast must be 0..=3 (turns before a pair is revealed; 0: off), got 4",
    );
    assert_refused(
        &["--fakes", "2"],
        "",
        "`fakes=2`: invalid type: integer `2`, expected an array of length 2 (rules of \
         fakerghast)",
    );
    assert_refused(
        &["--game", "ghodak", "--fakes", "1,1"],
        "",
        "ghodak has no rule `fakes`",
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
    assert_refused(
        &["--vetoes", "1"],
        "",
        "`vetoes=1`: invalid type: integer `1`, expected an array of length 2 (rules of ghast)",
    );
    assert_refused(
        &["--rule", "size"],
        "",
        "--rule `size` is not a rule: write KEY=VALUE",
    );
    assert_refused(
        &["--game", "chess"],
        "",
        "`chess` is not a game this build plays",
    );
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

/// `--sgf` writes the moves as a Go record: the board's properties, stones of a `--from`
/// position as AB/AW with the side to play, each move, and the result once the game ended.
/// A game SGF has no form for, and a bad move, exit 2 naming them.
#[test]
fn sgf_writes_a_go_record_and_refuses_other_games() {
    let go = ["--game", "ghodak", "--size", "5", "--komi", "0.5", "--sgf"];
    let output = replay(&go, "C3 B2 pass pass");
    assert!(output.status.success(), "{output:?}");
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "(;FF[4]GM[1]CA[UTF-8]AP[ghast:{version}]SZ[5]KM[0.5]RU[Chinese]RE[W+0.5]\n\
             ;B[cc]\n;W[bd]\n;B[]\n;W[])\n"
        )
    );
    let from = replay(&[&go[..], &["--from", "5/5/2x2/5/5 w 2"]].concat(), "D4");
    assert!(from.status.success(), "{from:?}");
    let text = String::from_utf8_lossy(&from.stdout);
    assert!(text.contains("RU[Chinese]AB[cc]PL[W]\n;W[db])"), "{text}");

    assert_refused(&go, "C3 B2 C3", "move \"C3\": C3 is occupied");

    // What --sgf wrote replays from the file as the moves did.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.sgf");
    std::fs::write(&file, output.stdout).unwrap();
    let from_file = replay(
        &["--game", "ghodak", "--from-sgf", file.to_str().unwrap()],
        "",
    );
    assert!(from_file.status.success(), "{from_file:?}");
    let moves = replay(&go[..6], "C3 B2 pass pass");
    assert_eq!(
        String::from_utf8_lossy(&from_file.stdout),
        String::from_utf8_lossy(&moves.stdout)
    );
    std::fs::write(&file, "(;GM[1]SZ[5];B[cc];W[cc])").unwrap();
    assert_refused(
        &["--game", "ghodak", "--from-sgf", file.to_str().unwrap()],
        "",
        "node 2 `;W[cc]`: move \"C3\": C3 is occupied",
    );
    assert_refused(
        &["--game", "ghast", "--sgf"],
        "",
        "--sgf: SGF has no form for ghast",
    );
}
