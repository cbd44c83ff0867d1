//! `ghast`: one binary, one file per subcommand. Each subcommand parses its arguments and
//! calls the crates; no game or search logic lives here.

mod commands;
mod input_error;

use clap::{CommandFactory, Parser};
use std::io::IsTerminal;
use std::process::ExitCode;

pub use input_error::InputError;

#[derive(Parser)]
#[command(
    name = "ghast",
    version,
    about = "Self-play training, evaluation and play for board games",
    long_about = "Self-play training, evaluation and play for board games: AlphaZero done the way \
        KataGo does it.\n\n\
        `ghast games` lists the games, their rules (set with `--rule KEY=VALUE`, or `--KEY VALUE`) \
        and what each can do; moves are written in each game's notation (docs/RULES.md for \
        Ghast: `f6:3`, `pass`, `accept`, `veto`).",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: commands::Command,
}

fn main() -> ExitCode {
    keep_freed_memory();
    let args = commands::analysis::katago_flags(std::env::args_os().collect());
    let args = commands::rule_args::expand_rule_flags(args, &Cli::command());
    let cli = Cli::parse_from(args);
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("GHAST_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,object_store=warn")),
        )
        .with_writer(std::io::stderr)
        // Colour codes only for a person at a terminal: logs redirected to a file or read by
        // a program (CI, a tool driving `ghast analysis`) stay plain text.
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    // Before anything asks libtorch about CUDA, which it answers once for good.
    #[cfg(feature = "torch")]
    nn::load_cuda_backend();
    if let Err(error) = inject_device_failure() {
        eprintln!("ghast: {error}");
        return ExitCode::from(2);
    }
    match commands::run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ghast: {error:#}");
            if error.downcast_ref::<InputError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// `GHAST_FAIL_PASS=N`: every network made in this process fails at its Nth forward pass
/// (warm-up passes count), as a device fails (libtorch's out-of-memory error): how the tests
/// show what a failed GPU does to each command without a GPU.
const FAIL_PASS_VAR: &str = "GHAST_FAIL_PASS";

fn inject_device_failure() -> Result<(), String> {
    let Some(value) = std::env::var_os(FAIL_PASS_VAR) else {
        return Ok(());
    };
    let pass = value
        .to_str()
        .and_then(|text| text.trim().parse::<std::num::NonZeroU64>().ok())
        .ok_or_else(|| {
            format!("{FAIL_PASS_VAR}={value:?}: expected a forward pass number of at least 1")
        })?;
    nn::inject_failure_at_pass(pass);
    Ok(())
}

/// Tells glibc to keep freed memory for reuse rather than return it to the kernel at once.
///
/// libtorch allocates and frees its activation buffers (hundreds of KB each) on every forward
/// pass. By default glibc serves blocks that large with mmap and trims the heap top eagerly,
/// so every pass faulted its buffers in again: with a small net on the CPU the kernel took
/// 15% of self-play's time. With these thresholds a buffer is reused from the heap.
fn keep_freed_memory() {
    const MMAP_THRESHOLD: i32 = 64 << 20;
    const TRIM_THRESHOLD: i32 = 256 << 20;
    // SAFETY: mallopt only sets allocator parameters; called before any other thread runs.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}
