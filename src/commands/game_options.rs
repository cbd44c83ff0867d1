use crate::InputError;
use clap::{Args as ClapArgs, ValueEnum};
use game::{BoardView, Game, Planes};
use ghast::fakerghast::Hiding;
use ghast::{
    Fakerghast, FakerghastOptions, Ghast, GhastOptions, RawFakerghastOptions, parse_fakes,
    parse_vetoes,
};
use ghodak::{Ghodak, GhodakOptions};

/// The games this binary plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// The hex game Ghast (RULES.md).
    Ghast,
    /// Go with area scoring (GHODAK.md).
    Ghodak,
    /// Ghast's hidden-information variant (RULES.md section 9); `--fakerghast` or `--fakes`
    /// choose it without `--game`.
    Fakerghast,
}

impl GameName {
    /// The name checkpoints and configs use.
    pub fn as_str(self) -> &'static str {
        match self {
            GameName::Ghast => Ghast::NAME,
            GameName::Ghodak => Ghodak::NAME,
            GameName::Fakerghast => Fakerghast::NAME,
        }
    }
}

/// What the commands need of a game beyond its rules: its options from and back to the
/// command line.
pub trait CliGame: BoardView + Planes {
    /// The options the rule flags give; a flag not given keeps its value in `base` (a bot's
    /// options), or the rules' default without one. A bad value, or a flag of another game,
    /// is an [`InputError`] naming it.
    fn options_from(
        flags: &GameOptions,
        base: Option<&Self::Options>,
    ) -> anyhow::Result<Self::Options>;

    /// The flags that set up games with `options`, `--game` first: what a record's replay
    /// command line needs.
    fn flags_of(options: &Self::Options) -> Vec<String>;
}

/// Work generic over the game, run by [`for_game`] for the game a file or flag names.
pub trait GameWork {
    type Output;

    fn run<G: CliGame>(self) -> anyhow::Result<Self::Output>;
}

/// Runs `work` for the game called `name`: the one list of the games this build plays. A name
/// it does not know is an [`InputError`] naming `source` (`config PATH`, `bot PATH`) and the
/// `field` that gave the name.
pub fn for_game<W: GameWork>(
    name: &str,
    source: &str,
    field: &str,
    work: W,
) -> anyhow::Result<W::Output> {
    match name {
        Ghast::NAME => work.run::<Ghast>(),
        Ghodak::NAME => work.run::<Ghodak>(),
        Fakerghast::NAME => work.run::<Fakerghast>(),
        other => Err(InputError(format!(
            "{source}: {field} `{other}` is not a game this build plays (ghast, ghodak, \
             fakerghast)"
        ))
        .into()),
    }
}

/// The game and its rules on the command line, shared by every command that starts games.
/// Read as wide signed numbers so that out-of-range values reach the rules' validation and
/// get its one-line message instead of a usage dump.
#[derive(ClapArgs)]
pub struct GameOptions {
    /// The game (default: the one a bot given to the command plays, else ghast).
    #[arg(long, value_enum)]
    game: Option<GameName>,
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
    /// Fakerghast: every placement is a pair of face-down tiles, one real and one fake,
    /// revealed D of its owner's turns later (1..=3; default 2). Implies `--game fakerghast`.
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    fakerghast: Option<i64>,
    /// Fakerghast's "a few fake moves" variant: Orange and Blue may place that many pairs, as
    /// `O,B`, each revealed at the end of its owner's next turn. Implies `--game fakerghast`.
    #[arg(long, value_name = "O,B", allow_hyphen_values = true)]
    fakes: Option<String>,
}

fn input_error(message: String) -> anyhow::Error {
    anyhow::Error::new(InputError(message))
}

impl GameOptions {
    /// The game `--game` names, if it was given.
    pub fn game(&self) -> Option<GameName> {
        let hides = self.fakerghast.is_some() || self.fakes.is_some();
        self.game.or(hides.then_some(GameName::Fakerghast))
    }

    /// Runs `work` for the game `--game` names (Ghast by default; Fakerghast when
    /// `--fakerghast` or `--fakes` is given).
    pub fn run<W: GameWork>(&self, work: W) -> anyhow::Result<W::Output> {
        let name = self.game().unwrap_or(GameName::Ghast).as_str();
        for_game(name, "the command line", "--game", work)
    }

    fn refuse_fakerghast_options(&self) -> anyhow::Result<()> {
        self.refuse_options_of(
            "Fakerghast",
            &[
                ("--fakerghast", self.fakerghast.is_some()),
                ("--fakes", self.fakes.is_some()),
            ],
        )
    }

    fn refuse_options_of(&self, game: &str, flags: &[(&str, bool)]) -> anyhow::Result<()> {
        match flags.iter().find(|(_, given)| *given) {
            Some((flag, _)) => Err(input_error(format!(
                "{flag} is an option of {game}, not of the game being played"
            ))),
            None => Ok(()),
        }
    }
}

/// `--flag value` pairs as command-line words.
fn words(pairs: &[(&str, String)]) -> Vec<String> {
    pairs
        .iter()
        .flat_map(|(flag, value)| [(*flag).to_owned(), value.clone()])
        .collect()
}

impl CliGame for Ghast {
    fn options_from(
        flags: &GameOptions,
        base: Option<&GhastOptions>,
    ) -> anyhow::Result<GhastOptions> {
        flags.refuse_options_of("Ghodak", &[("--max-moves", flags.max_moves.is_some())])?;
        flags.refuse_fakerghast_options()?;
        let base = base.map_or_else(ghast::RawOptions::default, |options| options.raw().clone());
        let vetoes = match &flags.vetoes {
            Some(text) => parse_vetoes(text).map_err(|e| input_error(e.to_string()))?,
            None => base.vetoes,
        };
        ghast::RawOptions {
            size: flags.size.unwrap_or(base.size),
            win_margin: flags.win_margin.unwrap_or(base.win_margin),
            komi: flags.komi.unwrap_or(base.komi),
            vetoes,
            max_turns: flags.max_turns.or(base.max_turns),
            ..base
        }
        .validate()
        .map_err(|e| input_error(e.to_string()))
    }

    fn flags_of(options: &GhastOptions) -> Vec<String> {
        let [orange, blue] = options.vetoes();
        words(&[
            ("--game", Ghast::NAME.to_owned()),
            ("--size", options.size().to_string()),
            ("--win-margin", options.win_margin().to_string()),
            ("--komi", options.komi().to_string()),
            ("--vetoes", format!("{orange},{blue}")),
            ("--max-turns", options.max_turns().to_string()),
        ])
    }
}

impl CliGame for Ghodak {
    fn options_from(
        flags: &GameOptions,
        base: Option<&GhodakOptions>,
    ) -> anyhow::Result<GhodakOptions> {
        flags.refuse_options_of(
            "Ghast",
            &[
                ("--win-margin", flags.win_margin.is_some()),
                ("--vetoes", flags.vetoes.is_some()),
                ("--max-turns", flags.max_turns.is_some()),
            ],
        )?;
        flags.refuse_fakerghast_options()?;
        let base = base.map_or_else(ghodak::RawOptions::default, |options| options.raw().clone());
        ghodak::RawOptions {
            size: flags.size.unwrap_or(base.size),
            komi: flags.komi.unwrap_or(base.komi),
            max_moves: flags.max_moves.or(base.max_moves),
        }
        .validate()
        .map_err(|e| input_error(e.to_string()))
    }

    fn flags_of(options: &GhodakOptions) -> Vec<String> {
        words(&[
            ("--game", Ghodak::NAME.to_owned()),
            ("--size", options.size().to_string()),
            ("--komi", options.komi().to_string()),
            ("--max-moves", options.max_moves().to_string()),
        ])
    }
}

impl CliGame for Fakerghast {
    /// `--fakerghast D` and `--fakes O,B` each choose their variant: giving one sets the
    /// other off, whatever the base options said.
    fn options_from(
        flags: &GameOptions,
        base: Option<&FakerghastOptions>,
    ) -> anyhow::Result<FakerghastOptions> {
        flags.refuse_options_of("Ghodak", &[("--max-moves", flags.max_moves.is_some())])?;
        let base = base.map_or_else(RawFakerghastOptions::default, |options| {
            options.raw().clone()
        });
        let vetoes = match &flags.vetoes {
            Some(text) => parse_vetoes(text).map_err(|e| input_error(e.to_string()))?,
            None => base.vetoes,
        };
        let fakes = match &flags.fakes {
            Some(text) => Some(parse_fakes(text).map_err(|e| input_error(e.to_string()))?),
            None => None,
        };
        let (fakerghast, fakes) = match (flags.fakerghast, fakes) {
            (None, None) => (base.fakerghast, base.fakes),
            (Some(delay), None) => (delay, [0, 0]),
            (None, Some(pairs)) => (0, pairs),
            (Some(delay), Some(pairs)) => (delay, pairs),
        };
        RawFakerghastOptions {
            size: flags.size.unwrap_or(base.size),
            win_margin: flags.win_margin.unwrap_or(base.win_margin),
            komi: flags.komi.unwrap_or(base.komi),
            vetoes,
            max_turns: flags.max_turns.or(base.max_turns),
            fakerghast,
            fakes,
            ..base
        }
        .validate()
        .map_err(|e| input_error(e.to_string()))
    }

    fn flags_of(options: &FakerghastOptions) -> Vec<String> {
        let ghast = options.ghast();
        let hiding = match options.hiding() {
            Hiding::EveryTurn { delay } => ("--fakerghast", delay.to_string()),
            Hiding::Fakes {
                pairs: [orange, blue],
            } => ("--fakes", format!("{orange},{blue}")),
        };
        words(&[
            ("--game", Fakerghast::NAME.to_owned()),
            ("--size", ghast.size().to_string()),
            ("--win-margin", ghast.win_margin().to_string()),
            ("--komi", ghast.komi().to_string()),
            ("--max-turns", ghast.max_turns().to_string()),
            hiding,
        ])
    }
}
