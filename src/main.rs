//! `ghast`: one binary, one file per subcommand. Each subcommand parses its arguments and
//! calls the crates; no game or search logic lives here.

mod commands;
mod input_error;

use clap::Parser;
use std::process::ExitCode;

pub use input_error::InputError;

#[derive(Parser)]
#[command(
    name = "ghast",
    version,
    about = "Self-play training, evaluation and play for the hex game Ghast",
    long_about = "Self-play training, evaluation and play for the hex game Ghast.\n\n\
        Rules: docs/RULES.md. Moves are written `<hex>:<orientation>` (for example `f6:3`), `pass`, \
        `accept` or `veto`.",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: commands::Command,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("GHAST_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
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
