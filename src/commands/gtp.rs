use super::backend::Backend;
use super::registry::{GameWork, for_game};
use crate::InputError;
use anyhow::Context;
use clap::Args as ClapArgs;
use game::{GtpGame, GtpWork, Planes};
use nn::DeviceChoice;
use play::gtp::GtpEngine;
use play::{Bot, Bundle};
use std::io::{BufWriter, stdin, stdout};
use std::path::PathBuf;

/// Speaks GTP version 2 on standard input and output (logs go to standard error), for GUIs,
/// tournament managers and `ghast arena`. The game is the bot's, if it speaks GTP (`ghast
/// games` says which do).
#[derive(ClapArgs)]
#[command(after_long_help = "\
Ghodak bots speak GTP as Go programs do: `black`/`white`, points `A1`..`T19` without `I`, \
`final_score` as `B+3.5`, `W+0.5` or `0` (area scores, komi included), so GNU Go and GUIs \
such as Sabaki drive them.

Ghast colours: `orange` and `blue`; as in Go, `black`/`b` is Orange (the first player) and \
`white`/`w` is Blue. Moves are written as in RULES.md: `f6:3`, `pass`, and `accept`/`veto` \
to answer a placement when vetoes are in play. The side to move follows the game: while a \
placement awaits its answer, the answering side is to move, so `play` and `genmove` of the \
other colour are refused.

Ghast final_score: `O+3` means Orange wins by 3, `B+2.5` Blue by 2.5, `0` a draw (scores are \
tiles on the board, plus komi for Blue).

`boardsize` and `komi` set the game's `size` and `komi` rules, for the games that have them.

Extensions: `ghast-position` prints the position string, `ghast-set_position <position>` \
starts from one, `ghast-analyze [visits]` lists the top moves with visits, prior and value \
and the win rate of the side to move, `ghast-set_visits <n>` changes the visits per move, \
`ghast-chance <outcome>` tells the engine chance's outcome (a roll of the dice) in a game \
with chance.

Example: echo -e 'boardsize 4\\ngenmove b\\nshowboard' | ghast gtp --bot bots/gen-0042")]
pub struct Args {
    /// The bot: a bundle folder written by `ghast export`, or a checkpoint `.safetensors`
    /// file (with its sidecar beside it), which plays with default search settings.
    #[arg(long, value_name = "DIR|FILE")]
    bot: PathBuf,
    /// Visits per move, overriding the bundle's (and the level's).
    #[arg(long)]
    visits: Option<u32>,
    /// Play at this level of the bundle's `bot.toml` (1 is the weakest; `ghast ladder --bot
    /// DIR --levels` measures them), instead of at full strength.
    #[arg(long)]
    level: Option<usize>,
    /// Seed of the search's tie-breaking, for reproducible games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Search on the CPU even when a CUDA device is available.
    #[arg(long)]
    cpu: bool,
    /// What runs the network: `torch` (libtorch, on CUDA when there is one) or `onnx` (the
    /// bundle's model.onnx on tract, on the CPU; `ghast export --onnx` writes it). A build
    /// without libtorch has `onnx` only.
    #[arg(long, value_enum, default_value_t = Backend::DEFAULT)]
    backend: Backend,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let game = play::game_of(&args.bot).map_err(|e| InputError(e.to_string()))?;
    let source = format!("bot {}", args.bot.display());
    for_game(&game, &source, "game", Speak(&args))
}

/// A GTP engine for the game the bot plays.
struct Speak<'a>(&'a Args);

impl GameWork for Speak<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        G::with_gtp(self).unwrap_or_else(|| {
            Err(InputError(format!("{} does not speak GTP yet", G::NAME)).into())
        })
    }
}

impl<G: Planes> GtpWork<G> for Speak<'_> {
    type Output = anyhow::Result<()>;

    fn run(self) -> anyhow::Result<()>
    where
        G: GtpGame,
    {
        speak::<G>(self.0)
    }
}

fn speak<G: GtpGame + Planes>(args: &Args) -> anyhow::Result<()> {
    let input_error = |e: play::PlayError| anyhow::Error::new(InputError(e.to_string()));
    let bundle = Bundle::<G>::open(&args.bot).map_err(input_error)?;
    let options = bundle.settings.game_options.clone();
    let level = match args.level {
        Some(number) => Some(bundle.settings.level(number).map_err(input_error)?.clone()),
        None => None,
    };
    let device = if args.cpu {
        DeviceChoice::cpu()
    } else {
        DeviceChoice::Best
    };
    let runtime = args.backend.runtime(device)?;
    let mut bot = Bot::new(bundle, runtime, args.seed).map_err(input_error)?;
    if let Some(level) = &level {
        bot.set_level(level).map_err(input_error)?;
    }
    if let Some(visits) = args.visits {
        bot.set_visits(visits).map_err(input_error)?;
    }
    tracing::info!(
        bot = %args.bot.display(),
        level = ?args.level,
        visits = bot.visits(),
        ?runtime,
        "GTP engine ready"
    );
    GtpEngine::new(bot, options)
        .run(stdin().lock(), BufWriter::new(stdout().lock()))
        .context("gtp")
}
