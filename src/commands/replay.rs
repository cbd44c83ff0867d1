use super::game_options::GameOptions;
use crate::InputError;
use anyhow::Context;
use clap::Args as ClapArgs;
use ghast::Ghast;
use std::io::{BufWriter, Read, Write};

/// Reads moves (whitespace separated) from standard input and prints the start position, the
/// position after each move, and `result <winner> <reason>` if the game ended.
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameOptions,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let input_error = |message: String| anyhow::Error::new(InputError(message));
    let options = args.game.validate()?;
    let mut moves = String::new();
    std::io::stdin()
        .read_to_string(&mut moves)
        .context("reading moves from standard input")?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut game = Ghast::new(&options);
    writeln!(out, "{game}")?;
    for text in moves.split_whitespace() {
        if let Err(error) = game.play(text) {
            out.flush()?;
            return Err(input_error(error.to_string()));
        }
        writeln!(out, "{text} {game}")?;
    }
    if let Some(result) = game.result() {
        writeln!(out, "result {result}")?;
    }
    out.flush()?;
    Ok(())
}
