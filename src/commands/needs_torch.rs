//! The commands of a build without libtorch that need it (training, self-play, the ladder of
//! a run's checkpoints, the benchmarks): they keep their place in `--help` and say in one line
//! which build runs them.

use std::ffi::OsString;

/// Whatever follows the command: this build cannot run it, so nothing is read.
#[derive(clap::Args)]
pub struct Args {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    _rest: Vec<OsString>,
}

/// `ghast bench`'s arguments, as its subcommands would be.
pub use Args as Bench;

/// The refusal of `ghast COMMAND`.
pub fn refuse(command: &str) -> anyhow::Result<()> {
    anyhow::bail!(
        "`ghast {command}` needs the libtorch build of ghast (`cargo build --release`); this one \
         was built without libtorch (--no-default-features) to play, analyse and export bundles"
    )
}
