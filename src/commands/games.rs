//! `ghast games`: every game this build plays, with its rules, their defaults and what the
//! game can do besides training and rating.

use super::registry::catalogue;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON array instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let games = catalogue();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&games)?);
        return Ok(());
    }
    for (index, game) in games.iter().enumerate() {
        if index > 0 {
            println!();
        }
        println!("{}: {}", game.name, game.about);
        let capabilities = if game.capabilities.is_empty() {
            "none beyond training and rating".to_owned()
        } else {
            game.capabilities.join(", ")
        };
        println!("  can: train, rate, export; {capabilities}");
        println!("  ladder baselines: {}", game.ladder_baselines.join(", "));
        println!(
            "  strongest opponents (ghast bench learning): {}",
            game.strongest_opponents.join(", ")
        );
        println!("  rules (--rule KEY=VALUE, or --KEY VALUE):");
        let width = game
            .rules
            .iter()
            .map(|rule| rule.key.len())
            .max()
            .unwrap_or(0);
        for rule in &game.rules {
            let default = rule.default.as_deref().unwrap_or("derived");
            println!(
                "    {:<width$}  {}  [default: {default}]",
                rule.key, rule.help
            );
        }
    }
    Ok(())
}
