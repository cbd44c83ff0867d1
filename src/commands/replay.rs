use super::game_options::{AnyOptions, GameOptions};
use crate::InputError;
use anyhow::Context;
use clap::Args as ClapArgs;
use game::Game;
use ghast::Ghast;
use ghodak::Ghodak;
use std::io::{BufWriter, Read, Write};

/// Reads moves (whitespace separated) from standard input and prints the start position, the
/// position after each move, and `result ...` if the game ended.
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameOptions,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let options = args.game.validate()?;
    let mut moves = String::new();
    std::io::stdin()
        .read_to_string(&mut moves)
        .context("reading moves from standard input")?;
    match options {
        AnyOptions::Ghast(options) => replay(Ghast::new(&options), &moves),
        AnyOptions::Ghodak(options) => replay(Ghodak::new(&options), &moves),
    }
}

fn replay<G: Game>(mut game: G, moves: &str) -> anyhow::Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    writeln!(out, "{}", game.position_text())?;
    for text in moves.split_whitespace() {
        match game.parse_action(text) {
            Ok(action) => game.apply(action),
            Err(error) => {
                out.flush()?;
                return Err(anyhow::Error::new(InputError(error)));
            }
        }
        writeln!(out, "{text} {}", game.position_text())?;
    }
    if let Some(result) = game.result_text() {
        writeln!(out, "result {result}")?;
    }
    out.flush()?;
    Ok(())
}
