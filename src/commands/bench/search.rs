//! `ghast bench search`: PUCT simulations per second with a uniform evaluator, from a
//! mid-game position of a game (ghast on the standard board by default), on one thread and on
//! all threads.

use crate::commands::registry::GameWork;
use crate::commands::rule_args::GameArgs;
use clap::Args as ClapArgs;
use game::Planes;
use mcts::bench::{BenchOptions, measure, random_position};

/// Random moves from the start to the measured position: on Ghast's standard board it is
/// about half full, where moves are many and removal does real work.
const MIDGAME_PLIES: usize = 30;

#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// Seconds to measure on one thread, and again on all threads.
    #[arg(long, default_value = "3", value_parser = super::seconds)]
    seconds: std::time::Duration,
    #[command(flatten)]
    game: GameArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    args.game.run(Measure(&args))
}

struct Measure<'a>(&'a Args);

impl GameWork for Measure<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        report::<G>(self.0)
    }
}

fn report<G: Planes>(args: &Args) -> anyhow::Result<()> {
    let options = args.game.options::<G>(None)?;
    let position = random_position(&G::new(&options), MIDGAME_PLIES, 0);
    let options = BenchOptions {
        seconds: args.seconds.as_secs_f64(),
        ..BenchOptions::default()
    };
    let report = measure(&position, &options);
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "search: {:.0} simulations/s on one thread, {:.0} on {} threads \
             ({} games in flight per thread, {} visits per move, mean batch {:.1})",
            report.sims_per_sec,
            report.sims_per_sec_all_threads,
            report.threads,
            report.trees_per_thread,
            report.visits_per_search,
            report.mean_batch
        );
    }
    Ok(())
}
