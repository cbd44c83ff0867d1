use crate::InputError;
use anyhow::Context;
use clap::Args as ClapArgs;
use ghast::{Ghast, RawOptions, parse_vetoes};
use std::io::{BufWriter, Read, Write};

/// Options are read as wide signed numbers so that out-of-range values reach the rules'
/// validation and get its one-line message instead of a usage dump.
#[derive(ClapArgs)]
pub struct Args {
    /// Hexes per side of the board (2..=7).
    #[arg(long, default_value_t = 6, allow_negative_numbers = true)]
    size: i64,
    /// Tile lead that wins at once (>= 1).
    #[arg(long, default_value_t = 9, allow_negative_numbers = true)]
    win_margin: i64,
    /// Points added to Blue's score (a multiple of 0.5).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    komi: f64,
    /// Vetoes of Orange and Blue, as `O,B`.
    #[arg(long, default_value = "0,0", allow_hyphen_values = true)]
    vetoes: String,
    /// Turns after which the game ends as at passes (default: 4 times the hexes).
    #[arg(long, allow_negative_numbers = true)]
    max_turns: Option<i64>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let input_error = |message: String| anyhow::Error::new(InputError(message));
    let vetoes = parse_vetoes(&args.vetoes).map_err(|e| input_error(e.to_string()))?;
    let options = RawOptions {
        size: args.size,
        win_margin: args.win_margin,
        komi: args.komi,
        vetoes,
        max_turns: args.max_turns,
        ..RawOptions::default()
    }
    .validate()
    .map_err(|e| input_error(e.to_string()))?;
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
