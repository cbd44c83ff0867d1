mod nn;
mod rules;
mod search;
mod selfplay;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Bench {
    /// Random full games on the standard board: placements and games per second.
    Rules(rules::Args),
    /// PUCT simulations per second with a uniform evaluator, one thread and all threads.
    Search(search::Args),
    /// Network forward evaluations per second at several batch sizes, FLOPs and FLOP/s.
    Nn(nn::Args),
    /// Self-play evaluations per second over bare forward passes of the same net: the loop's efficiency.
    Selfplay(selfplay::Args),
}

pub fn run(bench: Bench) -> anyhow::Result<()> {
    match bench {
        Bench::Rules(args) => rules::run(args),
        Bench::Search(args) => search::run(args),
        Bench::Nn(args) => nn::run(args),
        Bench::Selfplay(args) => selfplay::run(args),
    }
}
