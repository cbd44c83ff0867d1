//! `ghast games`: every game this build plays, with its rules, their defaults and what the
//! game can do besides training and rating.

use super::registry::{GameWork, catalogue, for_game};
use clap::Args as ClapArgs;
use game::Planes;

#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON array instead of text.
    #[arg(long, conflicts_with = "planes")]
    json: bool,
    /// Show what the network of GAME reads and writes, at its default rules: each input
    /// plane, and which action each policy entry is. That is what a program that runs a
    /// bundle's model.onnx outside ghast feeds it and reads back.
    #[arg(long, value_name = "GAME")]
    planes: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(game) = &args.planes {
        return for_game(game, "--planes", "game", ShowPlanes);
    }
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
            "  level anchors (ghast ladder --levels): {}",
            game.level_anchors.join(", ")
        );
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

/// `ghast games --planes GAME`.
struct ShowPlanes;

impl GameWork for ShowPlanes {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        let game = G::new(&G::Options::default());
        let shape = game.plane_shape();
        let layout = game.policy_layout();
        let (channels, height, width) = (shape.channels, shape.height, shape.width);
        let cells = shape.cells();
        println!(
            "{}, default rules: the network's inputs and outputs",
            G::NAME
        );
        println!();
        println!(
            "planes [batch, {channels}, {height}, {width}], board_mask [batch, {height}, {width}] \
             (1 on the board, 0 on the grid's padding)"
        );
        println!("{}", G::PLANES_DOC);
        println!();
        let actions = game.num_actions();
        println!(
            "policy and illegal_bias [batch, {actions}]: {} spatial plane(s) of {height} x {width}, \
             then {} global action(s)",
            layout.spatial_planes, layout.global_actions
        );
        let mut mask = vec![0.0; cells];
        game.board_mask(&mut mask);
        let first_cell = mask.iter().position(|&on| on > 0.0).unwrap_or(0);
        for plane in 0..layout.spatial_planes {
            let first = plane * cells;
            println!(
                "  {first}-{}: plane {plane}, cell (row y, column x) at {first} + y * {width} + x; \
                 row {}, column {} is `{}`",
                first + cells - 1,
                first_cell / width,
                first_cell % width,
                game.action_to_string(first + first_cell)
            );
        }
        for action in layout.spatial_planes * cells..actions {
            println!("  {action}: `{}`", game.action_to_string(action));
        }
        println!(
            "wdl [batch, 3] (win, draw, loss), lead [batch] and ownership [batch, {height}, {width}], \
             all from the side to move's view"
        );
        Ok(())
    }
}
