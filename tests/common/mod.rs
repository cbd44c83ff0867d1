//! Helpers shared by the tests that drive the real binary.

use std::io::Write;
use std::path::{Path, PathBuf};
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

/// An untrained tiny network for games of `G` with `options`, saved in `dir` and exported by
/// `ghast export` with 8 visits a move: the bundle folder `dir/bot`.
#[allow(
    dead_code,
    reason = "not every test binary that shares these helpers needs a bot"
)]
pub fn untrained_bundle<G: game::Planes>(dir: &Path, options: &G::Options) -> PathBuf {
    let weights = dir.join("gen-0000.safetensors");
    play::save_untrained::<G>(&weights, options, play::tiny_config::<G>(options)).unwrap();
    export_bundle(&weights, &dir.join("bot"), 8)
}

/// `ghast export` of the checkpoint `weights` with `visits` a move into the bundle folder
/// `out`, which it returns.
#[allow(
    dead_code,
    reason = "not every test binary that shares these helpers needs a bot"
)]
pub fn export_bundle(weights: &Path, out: &Path, visits: u32) -> PathBuf {
    let exported = ghast(
        &[
            "export",
            "--visits",
            &visits.to_string(),
            "--checkpoint",
            weights.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    out.to_owned()
}
