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
