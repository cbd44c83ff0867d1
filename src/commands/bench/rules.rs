use crate::commands::game_options::GameName;
use clap::Args as ClapArgs;
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    /// The game whose rules to time: Ghast or Fakerghast (D = 2) on the standard 6-sided
    /// board, or Ghodak on 9 x 9.
    #[arg(long, value_enum, default_value_t = GameName::Ghast)]
    game: GameName,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// How long to play random games.
    #[arg(long, default_value = "3", value_parser = super::seconds)]
    seconds: Duration,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {
        GameName::Ghast => report_ghast(&args),
        GameName::Ghodak => report_ghodak(&args),
        GameName::Fakerghast => report_fakerghast(&args),
    }
    Ok(())
}

fn report_ghast(args: &Args) {
    let speed = ghast::bench::random_games(args.seconds, 1);
    if args.json {
        let report = serde_json::json!({
            "placements_per_sec": speed.placements_per_sec(),
            "games_per_sec": speed.games_per_sec(),
        });
        println!("{report}");
    } else {
        println!(
            "rules: {:.0} placements/s, {:.0} games/s ({} games, {} placements, one thread)",
            speed.placements_per_sec(),
            speed.games_per_sec(),
            speed.games,
            speed.placements
        );
    }
}

fn report_ghodak(args: &Args) {
    let speed = ghodak::bench::random_games(args.seconds, 1);
    if args.json {
        let report = serde_json::json!({
            "moves_per_sec": speed.moves_per_sec(),
            "games_per_sec": speed.games_per_sec(),
        });
        println!("{report}");
    } else {
        println!(
            "rules (ghodak 9x9): {:.0} moves/s, {:.0} games/s ({} games, {} moves, one thread, \
             each move chosen from the full list of legal moves)",
            speed.moves_per_sec(),
            speed.games_per_sec(),
            speed.games,
            speed.moves
        );
    }
}

/// Fakerghast through the `Game` interface search uses.
fn report_fakerghast(args: &Args) {
    let speed = ghast::bench::random_fakerghast_games(args.seconds, 1);
    if args.json {
        let report = serde_json::json!({
            "decisions_per_sec": speed.decisions_per_sec(),
            "games_per_sec": speed.games_per_sec(),
        });
        println!("{report}");
    } else {
        println!(
            "rules (fakerghast, D = 2): {:.0} decisions/s, {:.0} games/s ({} games, {} \
             decisions, one thread, each chosen from the full list of legal ones)",
            speed.decisions_per_sec(),
            speed.games_per_sec(),
            speed.games,
            speed.decisions,
        );
    }
}
