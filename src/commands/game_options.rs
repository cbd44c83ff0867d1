use crate::InputError;
use clap::Args as ClapArgs;
use ghast::{GhastOptions, RawOptions, parse_vetoes};

/// The game's rules on the command line, shared by every command that starts games. Read as
/// wide signed numbers so that out-of-range values reach the rules' validation and get its
/// one-line message instead of a usage dump.
#[derive(ClapArgs)]
pub struct GameOptions {
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

impl GameOptions {
    /// The validated options; a bad value is an [`InputError`] naming the option.
    pub fn validate(&self) -> anyhow::Result<GhastOptions> {
        let input_error = |message: String| anyhow::Error::new(InputError(message));
        let vetoes = parse_vetoes(&self.vetoes).map_err(|e| input_error(e.to_string()))?;
        RawOptions {
            size: self.size,
            win_margin: self.win_margin,
            komi: self.komi,
            vetoes,
            max_turns: self.max_turns,
            ..RawOptions::default()
        }
        .validate()
        .map_err(|e| input_error(e.to_string()))
    }
}
