//! `ghast export` and `ghast gtp` driven over pipes, as a GUI or tournament manager would.

use ghast::{GhastOptions, RawOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn ghast() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ghast"))
}

/// An untrained tiny network on a size-3 board with short games, exported with 8 visits.
fn bundle(dir: &Path) -> PathBuf {
    let options: GhastOptions = RawOptions {
        size: 3,
        win_margin: 3,
        max_turns: Some(30),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    let weights = dir.join("gen-0000.safetensors");
    play::save_untrained::<ghast::Ghast>(
        &weights,
        &options,
        play::tiny_config::<ghast::Ghast>(&options),
    )
    .unwrap();
    let out = dir.join("bot");
    let status = ghast()
        .args(["export", "--visits", "8", "--checkpoint"])
        .arg(&weights)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    out
}

/// A running `ghast gtp` and the pipes to it.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(bot: &Path) -> Gtp {
        let mut child = ghast()
            .args(["gtp", "--cpu", "--bot"])
            .arg(bot)
            .env("GHAST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            input,
            output,
        }
    }

    /// Sends one line and returns the whole response, status and id included, without the
    /// blank line that ends it.
    fn send(&mut self, line: &str) -> String {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        let mut response = String::new();
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "engine hung up"
            );
            if line == "\n" {
                return response.trim_end_matches('\n').to_owned();
            }
            response.push_str(&line);
        }
    }

    /// The text of a successful response to `line`.
    fn ok(&mut self, line: &str) -> String {
        let response = self.send(line);
        response
            .strip_prefix("= ")
            .unwrap_or_else(|| panic!("`{line}` failed: {response}"))
            .to_owned()
    }
}

#[test]
fn a_whole_game_over_pipes() {
    let temp = tempfile::tempdir().unwrap();
    let mut gtp = Gtp::start(&bundle(temp.path()));
    assert_eq!(gtp.send("1 protocol_version"), "=1 2");
    assert_eq!(gtp.send("2 name"), "=2 ghast");
    assert_eq!(gtp.send("known_command genmove"), "= true");
    assert_eq!(gtp.send("known_command fly"), "= false");
    let commands = gtp.ok("list_commands");
    for command in [
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "ghast-analyze",
    ] {
        assert!(commands.lines().any(|line| line == command), "{commands}");
    }
    assert_eq!(gtp.send("3 fly"), "?3 unknown command");
    gtp.ok("boardsize 3");
    gtp.ok("clear_board");

    let illegal = gtp.send("4 play b c3:0");
    assert!(
        illegal.starts_with("?4 illegal move: move \"c3:0\": c3 is not open yet"),
        "{illegal}"
    );
    assert_eq!(
        gtp.send("play w c1:0"),
        "? it is orange's turn to move, not blue's"
    );
    gtp.ok("play b c1:0");
    gtp.ok("undo");
    assert_eq!(gtp.ok("ghast-position"), "3/4/5/4/3 o 1");

    // The engine plays Orange, we answer for Blue with the first hex that takes a tile.
    let mut moves = 0;
    while !gtp.ok("showboard").contains("result ") {
        let colour = if moves % 2 == 0 { "b" } else { "w" };
        if colour == "b" {
            let generated = gtp.ok(&format!("genmove {colour}"));
            assert!(
                generated == "pass" || generated.contains(':'),
                "{generated}"
            );
        } else {
            let answered = ["c1:0", "d1:0", "e1:0", "b2:0", "f2:0", "pass"]
                .iter()
                .any(|text| gtp.send(&format!("play {colour} {text}")) == "= ");
            assert!(answered, "pass is always legal while the game goes on");
        }
        moves += 1;
        assert!(moves <= 40, "the game must end within max_turns");
    }
    let score = gtp.ok("final_score");
    assert!(
        score == "0" || score.starts_with("O+") || score.starts_with("B+"),
        "{score}"
    );
    let board = gtp.ok("showboard");
    assert!(board.starts_with("\n       c   d   e"), "{board}");
    assert!(board.contains("position "), "{board}");

    assert_eq!(gtp.send("9 quit"), "=9 ");
    assert!(gtp.child.wait().unwrap().success());
}

#[test]
fn a_damaged_bundle_is_refused_with_status_2() {
    let temp = tempfile::tempdir().unwrap();
    let bot = bundle(temp.path());
    std::fs::write(bot.join("bot.toml"), "visits = [").unwrap();
    let output = ghast().args(["gtp", "--bot"]).arg(&bot).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bot.toml: malformed bot settings"),
        "{stderr}"
    );
}
