//! `ghast bench rules`: the speed of a game's rules, in random games through the `Game` calls
//! search makes.

use crate::commands::registry::GameWork;
use crate::commands::rule_args::GameArgs;
use clap::Args as ClapArgs;
use game::Planes;
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// How long to play random games.
    #[arg(long, default_value = "3", value_parser = super::seconds)]
    seconds: Duration,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    args.game.run(Report(&args))
}

struct Report<'a>(&'a Args);

impl GameWork for Report<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        let args = self.0;
        let options = args.game.options::<G>(None)?;
        let speed = game::speed::random_games::<G>(&options, args.seconds, 1);
        if args.json {
            let report = serde_json::json!({
                "game": G::NAME,
                "options": options,
                "moves_per_sec": speed.actions_per_sec(),
                "games_per_sec": speed.games_per_sec(),
            });
            println!("{report}");
        } else {
            println!(
                "rules ({}, {}): {:.0} moves/s, {:.0} games/s ({} games, {} moves, one thread, \
                 each move drawn from the full list of legal ones, chance's by its odds)",
                G::NAME,
                serde_json::to_string(&options)?,
                speed.actions_per_sec(),
                speed.games_per_sec(),
                speed.games,
                speed.actions
            );
        }
        Ok(())
    }
}
