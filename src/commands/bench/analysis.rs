//! `ghast bench analysis`: positions analysed per second by `ghast analysis` with one query
//! at a time and with all of them in flight, on one engine, side by side.

use crate::commands::analysis::{EngineArgs, EngineWork};
use analysis::AnalysisEngine;
use analysis::bench::{all_in_flight, one_at_a_time, random_queries};
use clap::Args as ClapArgs;
use game::Planes;
use nn::NetEvaluator;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Queries of each way: positions of random games, one turn each.
    #[arg(long, default_value_t = 64)]
    queries: usize,
    /// Random moves from the start at most, to the analysed position.
    #[arg(long, default_value_t = 40)]
    max_moves: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.queries == 0 {
        return Err(crate::InputError("--queries 0: expected at least 1".into()).into());
    }
    args.engine.for_bots_game(Measure(&args))
}

struct Measure<'a>(&'a Args);

impl EngineWork for Measure<'_> {
    fn run<G: Planes>(self, mut engine: AnalysisEngine<G, NetEvaluator<G>>) -> anyhow::Result<()> {
        let args = self.0;
        let options = play::options_of::<G>(&args.engine.bot)?;
        let visits = args.engine.visits.unwrap_or(100);
        let queries = random_queries::<G>(&options, args.queries, visits, args.max_moves, 1);
        let start = super::cpu_seconds();
        let in_flight = all_in_flight(&mut engine, &queries)?;
        let one = one_at_a_time(&mut engine, &queries)?;
        let cpu_seconds = super::cpu_seconds() - start;
        let speedup = in_flight.positions_per_sec / one.positions_per_sec;
        let report = serde_json::json!({
            "game": G::NAME,
            "queries": args.queries,
            "visits": visits,
            "one_at_a_time": one,
            "all_in_flight": in_flight,
            "speedup": speedup,
            "cpu_seconds": cpu_seconds,
        });
        if args.json {
            println!("{report}");
        } else {
            println!(
                "analysis of {} {} positions at {visits} visits:\n  one query at a time: \
                 {:.1} positions/s ({:.1} s)\n  all {} in flight:     {:.1} positions/s ({:.1} s)\n  \
                 speed-up {speedup:.1}x, {cpu_seconds:.1} CPU-s",
                args.queries,
                G::NAME,
                one.positions_per_sec,
                one.seconds,
                args.queries,
                in_flight.positions_per_sec,
                in_flight.seconds,
            );
        }
        Ok(())
    }
}
