//! `ghast arena A B`: a match between two players, with the score, the Elo difference and
//! its 95% interval, an optional SPRT that stops early, and every game saved for replay.

use super::backend::Backend;
use super::registry::{GameWork, for_game};
use super::rule_args::{GameArgs, flags_of};
use crate::InputError;
use anyhow::Context;
use arena::rating::{SprtDecision, SprtParams, SprtStatus};
use arena::{GameRecord, Match, MatchResult, MatchSettings, OnRuntime, PlayerSpec, RecordWriter};
use clap::Args as ClapArgs;
use game::Planes;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

/// A player is `random`, `greedy`, `uct:N` (N random playouts per move), a checkpoint
/// `FILE.safetensors[@visits]`, a bot bundle folder `DIR[@visits]`, or `gtp:COMMAND LINE`
/// (an external GTP v2 engine; quote the whole spec in the shell).
///
/// The game and its rules are the bot's when a checkpoint or bundle plays (rules given
/// change them); otherwise `--game` and the rules set them. In a game with chance both games
/// of a colour-swapped pair get the same chance outcomes, so that luck cancels.
///
/// Any `--rule KEY=VALUE` (`--KEY VALUE`) is one of the game's rules: `ghast games` lists
/// them.
#[derive(ClapArgs)]
#[command(after_long_help = "\
Examples:
  ghast arena models/ghast-size4 uct:1000 --games 40
  ghast arena runs/small/models/gen-0050.safetensors@200 greedy --sprt 0,50
  ghast arena models/ghodak9 \"gtp:gnugo --mode gtp --chinese-rules --capture-all-dead --level 1\"
  ghast arena random greedy --game ghodak --size 9 --out records/
  ghast arena greedy uct:200 --game pig --rule target=50")]
pub struct Args {
    /// The player whose results are reported (wins, score and Elo are A's).
    a: String,
    /// The opponent.
    b: String,
    /// Games in all; even, since each opening is played twice with the colours swapped.
    #[arg(long, default_value_t = 100)]
    games: u32,
    #[command(flatten)]
    game: GameArgs,
    /// Games played at once, each thread with its own pair of players (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Stop as soon as a sequential probability ratio test decides between Elo `elo0` and
    /// `elo1` (A's advantage), as `elo0,elo1` or `elo0,elo1,alpha,beta` (default 0.05 each).
    #[arg(long, allow_hyphen_values = true)]
    sprt: Option<String>,
    /// Random legal moves that open every game pair, so that deterministic players do not
    /// play the same game over and over.
    #[arg(long, default_value_t = 4)]
    openings: usize,
    /// Folder for the game records: `game-NNNN.moves` (input for `ghast replay`) and
    /// `match.json` (options, replay command line, players and result of every game).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seed of the openings and of the players' random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// What runs the networks of checkpoint and bundle players: torch (libtorch, on CUDA
    /// when there is one) or onnx (a bundle's model.onnx on tract). A build without libtorch
    /// has onnx only.
    #[arg(long, value_enum, default_value_t = Backend::DEFAULT)]
    backend: Backend,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let a: PlayerSpec = args.a.parse().map_err(input_error)?;
    let b: PlayerSpec = args.b.parse().map_err(input_error)?;
    let bot = bot_game(&[&a, &b], &args.game)?;
    match &bot {
        Some((path, game)) => for_game(
            game,
            &format!("bot {}", path.display()),
            "game",
            Play {
                args: &args,
                a: &a,
                b: &b,
                bot: Some(path),
            },
        ),
        None => args.game.run(Play {
            args: &args,
            a: &a,
            b: &b,
            bot: None,
        }),
    }
}

/// The first network player's file and the game it plays, if a network plays; two bots of
/// different games, or a bot of another game than `--game`, are bad input.
pub fn bot_game(
    players: &[&PlayerSpec],
    flags: &GameArgs,
) -> anyhow::Result<Option<(PathBuf, String)>> {
    let mut found: Option<(PathBuf, String)> = None;
    for path in players.iter().filter_map(|player| player.file()) {
        let game = play::game_of(path).map_err(input_error)?;
        if let Some((first, first_game)) = &found
            && *first_game != game
        {
            return Err(input_error(format!(
                "{} plays {first_game} and {} plays {game}: a match needs one game",
                first.display(),
                path.display()
            )));
        }
        found.get_or_insert((path.to_owned(), game));
    }
    if let (Some((path, game)), Some(named)) = (&found, flags.named())
        && named != game
    {
        return Err(input_error(format!(
            "--game {named}: {} plays {game}",
            path.display()
        )));
    }
    Ok(found)
}

/// The match, in the game chosen.
struct Play<'a> {
    args: &'a Args,
    a: &'a PlayerSpec,
    b: &'a PlayerSpec,
    /// The bot whose game options are the match's, before the rule flags.
    bot: Option<&'a std::path::Path>,
}

impl GameWork for Play<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        let base = self
            .bot
            .map(play::options_of::<G>)
            .transpose()
            .map_err(input_error)?;
        let options = self.args.game.options::<G>(base.as_ref())?;
        play_match::<G>(self.args, self.a, self.b, options)
    }
}

fn play_match<G: Planes>(
    args: &Args,
    a: &PlayerSpec,
    b: &PlayerSpec,
    options: G::Options,
) -> anyhow::Result<()> {
    let sprt = args
        .sprt
        .as_deref()
        .map(|text| {
            text.parse::<SprtParams>()
                .map_err(|e| input_error(format!("--sprt: {e}")))
        })
        .transpose()?;
    let writer = args
        .out
        .as_deref()
        .map(|dir| {
            RecordWriter::create::<G>(dir, &options, &flags_of::<G>(&options))
                .with_context(|| format!("cannot create the record folder {}", dir.display()))
        })
        .transpose()?;
    let runtime = args.backend.runtime(nn::DeviceChoice::Best)?;
    let game_match = Match::<G> {
        options,
        a: &OnRuntime::new(a, runtime),
        b: &OnRuntime::new(b, runtime),
        settings: MatchSettings {
            games: args.games,
            threads: args.threads.unwrap_or_else(default_threads),
            opening_moves: args.openings,
            sprt,
            seed: args.seed,
        },
    };
    let bar = progress_bar(u64::from(args.games));
    bar.set_message(format!("{a} vs {b}"));
    let mut write_error = None;
    let result = game_match.run(&mut |record| {
        warn_forfeit(&bar, record);
        if let Some(writer) = &writer
            && let Err(error) = writer.write_game(record)
        {
            write_error.get_or_insert(error);
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    let result = result.map_err(input_error)?;
    if let Some(error) = write_error {
        return Err(error).context("cannot write a game record");
    }
    if let Some(writer) = &writer {
        let summary = writer
            .write_summary(&result)
            .context("cannot write match.json")?;
        println!(
            "records: {}",
            summary.parent().unwrap_or(&summary).display()
        );
    }
    print_result(&result, sprt.as_ref(), G::COLOURS);
    if G::CHANCE {
        println!(
            "chance: both games of each colour-swapped pair had the same chance outcomes, so \
             luck cancels over a pair"
        );
    }
    Ok(())
}

/// A bar of `games` games with the pairing as its message.
pub fn progress_bar(games: u64) -> ProgressBar {
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} games, {elapsed} (eta {eta})")
            .expect("a valid progress template")
            .progress_chars("=> "),
    );
    bar
}

/// Says above the bar which player forfeited a game and why (an engine's crash or illegal
/// move), since the result alone would hide it.
pub fn warn_forfeit(bar: &ProgressBar, record: &GameRecord) {
    if let Some(why) = &record.ending.forfeit {
        let loser = record.loser().unwrap_or("a player");
        // `suspend` rather than `println`: a hidden bar (output not a terminal) drops the latter.
        bar.suspend(|| eprintln!("warning: game {}: {loser} forfeits: {why}", record.index));
    }
}

fn print_result(result: &MatchResult, sprt: Option<&SprtParams>, colours: [&str; 2]) {
    let wdl = result.wdl;
    println!(
        "{} vs {}: {} wins, {} draws, {} losses for {}",
        result.a, result.b, wdl.wins, wdl.draws, wdl.losses, result.a
    );
    println!("{}", result.stats());
    let by_colour = result.by_colour().map(|wdl| {
        let score = 100.0 * wdl.points() / f64::from(wdl.games().max(1));
        format!("{}-{}-{} ({score:.1}%)", wdl.wins, wdl.draws, wdl.losses)
    });
    println!(
        "{} by colour (wins-draws-losses): as {} {}, as {} {}",
        result.a, colours[0], by_colour[0], colours[1], by_colour[1]
    );
    if let (Some(params), Some(status)) = (sprt, result.sprt) {
        println!("{}", sprt_line(params, &status, wdl.games()));
    }
}

fn sprt_line(params: &SprtParams, status: &SprtStatus, games: u32) -> String {
    let test = format!("SPRT elo0={} elo1={}", params.elo0, params.elo1);
    let bounds = format!(
        "llr {:.2} in [{:.2}, {:.2}]",
        status.llr, status.lower_bound, status.upper_bound
    );
    match status.decision {
        SprtDecision::AcceptH1 => {
            format!(
                "{test}: H1 accepted (A is stronger by elo1 or more) after {games} games, {bounds}"
            )
        }
        SprtDecision::AcceptH0 => {
            format!(
                "{test}: H0 accepted (A is not stronger than elo0) after {games} games, {bounds}"
            )
        }
        SprtDecision::Continue => format!("{test}: undecided after {games} games, {bounds}"),
    }
}

/// One thread per core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn input_error(error: impl ToString) -> anyhow::Error {
    anyhow::Error::new(InputError(error.to_string()))
}
