mod rules;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Bench {
    /// Random full games on the standard board: placements and games per second.
    Rules(rules::Args),
}

pub fn run(bench: Bench) -> anyhow::Result<()> {
    match bench {
        Bench::Rules(args) => rules::run(args),
    }
}
