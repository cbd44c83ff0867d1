//! Helpers shared by the tests that drive the real binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `ghast ARGS` with `stdin` on its standard input and collects what it printed.
pub fn ghast(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ghast"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ghast");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The `ghast replay` words of a match's `match.json` (its `replay` field, without `ghast`
/// and the `< game-NNNN.moves` redirection), which replay every game of the match.
#[allow(
    dead_code,
    reason = "not every test binary that shares these helpers plays matches"
)]
pub fn replay_args(summary: &serde_json::Value) -> Vec<&str> {
    summary["replay"]
        .as_str()
        .expect("match.json names its replay command")
        .split_whitespace()
        .skip(1)
        .take_while(|word| *word != "<")
        .collect()
}
