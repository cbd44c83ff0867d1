use crate::InputError;
use clap::{Args as ClapArgs, ValueEnum};
use game::{Game, GtpGame, Planes};
use ghast::{Ghast, GhastOptions, parse_vetoes};
use ghodak::{Ghodak, GhodakOptions};

/// The games this binary plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// The hex game Ghast (RULES.md).
    Ghast,
    /// Go with area scoring (GHODAK.md).
    Ghodak,
}

/// Work generic over the game, run by [`for_game`] for the game a file names.
pub trait GameWork {
    fn run<G: GtpGame + Planes>(self) -> anyhow::Result<()>;
}

/// Runs `work` for the game called `name`: the one list of the games this build plays. A name
/// it does not know is an [`InputError`] naming `source` (`config PATH`, `bot PATH`) and the
/// `field` that gave the name.
pub fn for_game(name: &str, source: &str, field: &str, work: impl GameWork) -> anyhow::Result<()> {
    match name {
        Ghast::NAME => work.run::<Ghast>(),
        Ghodak::NAME => work.run::<Ghodak>(),
        other => Err(InputError(format!(
            "{source}: {field} `{other}` is not a game this build plays (ghast, ghodak)"
        ))
        .into()),
    }
}

/// Validated options of one of the games.
pub enum AnyOptions {
    Ghast(GhastOptions),
    Ghodak(GhodakOptions),
}

/// The game and its rules on the command line, shared by every command that starts games.
/// Read as wide signed numbers so that out-of-range values reach the rules' validation and
/// get its one-line message instead of a usage dump.
#[derive(ClapArgs)]
pub struct GameOptions {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameName::Ghast)]
    game: GameName,
    /// Board size: hexes per side for Ghast (2..=7, default 6), points per side for Ghodak
    /// (5..=19, default 9).
    #[arg(long, allow_negative_numbers = true)]
    size: Option<i64>,
    /// Points added to the second player's score, a multiple of 0.5 (Blue in Ghast, default 0;
    /// White in Ghodak, default 7.5).
    #[arg(long, allow_negative_numbers = true)]
    komi: Option<f64>,
    /// Ghast: the tile lead that wins at once (>= 1, default 9).
    #[arg(long, allow_negative_numbers = true)]
    win_margin: Option<i64>,
    /// Ghast: vetoes of Orange and Blue, as `O,B` (default 0,0).
    #[arg(long, allow_hyphen_values = true)]
    vetoes: Option<String>,
    /// Ghast: turns after which the game ends as at passes (default: 4 times the hexes).
    #[arg(long, allow_negative_numbers = true)]
    max_turns: Option<i64>,
    /// Ghodak: moves, passes included, after which the game is scored (default: 3 times the
    /// points).
    #[arg(long, allow_negative_numbers = true)]
    max_moves: Option<i64>,
}

fn input_error(message: String) -> anyhow::Error {
    anyhow::Error::new(InputError(message))
}

impl GameOptions {
    /// The validated options of the chosen game; a bad value, or an option of the other
    /// game, is an [`InputError`] naming it.
    pub fn validate(&self) -> anyhow::Result<AnyOptions> {
        match self.game {
            GameName::Ghast => self.ghast().map(AnyOptions::Ghast),
            GameName::Ghodak => self.ghodak().map(AnyOptions::Ghodak),
        }
    }

    /// The options for a command that plays Ghast only so far.
    pub fn validate_ghast(&self, command: &str) -> anyhow::Result<GhastOptions> {
        match self.validate()? {
            AnyOptions::Ghast(options) => Ok(options),
            AnyOptions::Ghodak(_) => Err(input_error(format!(
                "--game ghodak: `ghast {command}` plays Ghast only so far"
            ))),
        }
    }

    fn refuse_options_of(&self, game: &str, flags: &[(&str, bool)]) -> anyhow::Result<()> {
        match flags.iter().find(|(_, given)| *given) {
            Some((flag, _)) => Err(input_error(format!(
                "{flag} is an option of {game}, not of the game chosen with --game"
            ))),
            None => Ok(()),
        }
    }

    fn ghast(&self) -> anyhow::Result<GhastOptions> {
        self.refuse_options_of("Ghodak", &[("--max-moves", self.max_moves.is_some())])?;
        let defaults = ghast::RawOptions::default();
        let vetoes = match &self.vetoes {
            Some(text) => parse_vetoes(text).map_err(|e| input_error(e.to_string()))?,
            None => defaults.vetoes,
        };
        ghast::RawOptions {
            size: self.size.unwrap_or(defaults.size),
            win_margin: self.win_margin.unwrap_or(defaults.win_margin),
            komi: self.komi.unwrap_or(defaults.komi),
            vetoes,
            max_turns: self.max_turns,
            ..defaults
        }
        .validate()
        .map_err(|e| input_error(e.to_string()))
    }

    fn ghodak(&self) -> anyhow::Result<GhodakOptions> {
        self.refuse_options_of(
            "Ghast",
            &[
                ("--win-margin", self.win_margin.is_some()),
                ("--vetoes", self.vetoes.is_some()),
                ("--max-turns", self.max_turns.is_some()),
            ],
        )?;
        let defaults = ghodak::RawOptions::default();
        ghodak::RawOptions {
            size: self.size.unwrap_or(defaults.size),
            komi: self.komi.unwrap_or(defaults.komi),
            max_moves: self.max_moves,
        }
        .validate()
        .map_err(|e| input_error(e.to_string()))
    }
}
