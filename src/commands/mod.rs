mod bench;
mod replay;
mod train;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Command {
    /// Train a bot: self-play, replay store, trainer and checkpoints in one resumable run.
    Train(train::Args),
    /// Replay moves read from standard input and print every position (and the result).
    Replay(replay::Args),
    /// Measure the speed of the rules, the search, the network and the self-play loop.
    #[command(subcommand)]
    Bench(bench::Bench),
}

pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Train(args) => train::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Bench(bench) => bench::run(bench),
    }
}
