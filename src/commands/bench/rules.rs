use clap::Args as ClapArgs;
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// How long to play random games.
    #[arg(long, default_value = "3", value_parser = super::seconds)]
    seconds: Duration,
}

pub fn run(args: Args) -> anyhow::Result<()> {
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
    Ok(())
}
