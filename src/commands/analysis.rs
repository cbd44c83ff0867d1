use super::backend::Backend;
use super::registry::{GameWork, for_game};
use crate::InputError;
use analysis::{AnalysisEngine, KataGoConfig, Perspective, SearchSettings, Settings};
use anyhow::Context;
use clap::Args as ClapArgs;
use game::Planes;
use mcts::SearchConfig;
use nn::NetEvaluator;
use play::Bundle;
use std::ffi::OsString;
use std::io::{BufReader, BufWriter, stdin, stdout};
use std::path::PathBuf;

/// Positions searched at once unless the config says otherwise: enough for the network's
/// batches to be large, as self-play's are.
const DEFAULT_POSITIONS_IN_FLIGHT: usize = 64;
/// Leaves one position adds to a batch unless the config's numSearchThreadsPerAnalysisThread
/// says otherwise: fewer than a bot playing alone uses (its `leaves_per_tree`), since many
/// positions in flight fill the batches, and fewer leaves in flight per tree search more
/// sharply per visit (KataGo gives the same advice for bulk analysis). Raise it to analyse one
/// position at a time faster.
const DEFAULT_LEAVES_PER_POSITION: u32 = 2;
/// Positions the evaluation cache holds unless the config's nnCacheSizePowerOfTwo says
/// otherwise: 2^16, about 40 MB for 9x9 Go with ownership.
const DEFAULT_CACHE_ENTRIES: usize = 1 << 16;
/// Moves of a principal variation unless the config says otherwise (KataGo's default).
const DEFAULT_PV_LEN: usize = 15;

/// An analysis engine for programs, for every game: one JSON query a line on standard input,
/// one JSON result a line on standard output for every turn it asks about, as each finishes
/// (so possibly out of order; each carries its query's `id`). The positions of every query in
/// flight share the network's batches. Logs go to standard error only.
///
/// It speaks KataGo's analysis protocol (KataGo's docs/Analysis_Engine.md), field for field
/// where the meaning is the same, so that tools written for KataGo can use a Go bot in its
/// place: `ghast analysis -config analysis.cfg -model models/ghodak9` is read as KataGo's
/// command line, its config as KataGo reads it (maxVisits, maxTime, numAnalysisThreads,
/// numSearchThreadsPerAnalysisThread, nnMaxBatchSize, nnCacheSizePowerOfTwo,
/// reportAnalysisWinratesAs, analysisPVLen and KataGo's search settings; other keys are
/// ignored with a warning), and "Started, ready to begin handling requests" on standard
/// error says it is ready.
#[derive(ClapArgs)]
#[command(after_long_help = "\
Query fields: id (required), moves ([[player, move], ...], each move as the game writes it \
whole; a chance outcome such as a roll is written as the game writes it, its player ignored), \
analyzeTurns (default: the last), maxVisits, analysisPVLen, overrideSettings (KataGo's search \
settings: maxVisits, maxTime, reportAnalysisWinratesAs, analysisPVLen, cpuctExploration, ...; \
one it lacks gets a warning), includePolicy, includeOwnership, includeMovesOwnership, \
includePVVisits, avoidMoves and allowMoves ([{\"player\", \"moves\", \"untilDepth\"}]), \
reportDuringSearchEvery (seconds), priority or priorities, rules (an object of the game's \
rules, as `ghast games` lists them), and for Go KataGo's rules string, komi, boardXSize, \
boardYSize, initialStones and initialPlayer. Players are the game's colours, or B/W \
(first/second) as in GTP; in Go a move out of turn hands the turn over, as in KataGo.

Actions: {\"id\", \"action\": \"query_version\" | \"clear_cache\" | \"terminate\" (with \
terminateId, and turnNumbers if only some) | \"terminate_all\"}; each is answered by echoing it.

Results: id, turnNumber, isDuringSearch, moveInfos (move, visits, winrate, scoreLead, \
scoreMean, prior, lcb, utility, utilityLcb, order, pv, pvVisits, ownership), rootInfo \
(winrate, lcb, scoreLead, utility, visits, currentPlayer, thisHash), policy (one value per \
action, -1 where illegal; for Go the points from the top left, then pass), ownership \
(averaged over the search, one value a cell of the board's grid from the top left, +1 owned \
by the side the results are seen from). A turn where the game is over is \
answered with its exact result and gameOver; a turn where chance decides (a roll to come) is \
refused with an error line: analyse the turn after the roll. In a game with hidden \
information the moves are given in full and the search sees only what the side to move may.

Bad input gets one line, {\"error\", \"field\", \"id\"}, and the engine goes on; a field it does \
not know gets a {\"warning\"} line and the query is still answered. When standard input ends, \
the queries queued are still answered unless --quit-without-waiting.

Examples:
  echo '{\"id\":\"a\",\"moves\":[[\"B\",\"E5\"],[\"W\",\"C3\"]],\"analyzeTurns\":[0,1,2],\"maxVisits\":200}' \\
    | ghast analysis --bot models/ghodak9
  ghast analysis -config analysis.cfg -model models/ghodak9      # as KataGo's command line
  echo '{\"id\":\"h\",\"moves\":[[\"orange\",\"c2:3\"]],\"maxVisits\":100}' | ghast analysis --bot models/ghast-size4")]
pub struct Args {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// When standard input ends, stop at once instead of answering the queries queued.
    #[arg(long)]
    quit_without_waiting: bool,
}

/// The bot and how it searches: shared by `ghast analysis` and `ghast bench analysis`.
#[derive(ClapArgs)]
pub struct EngineArgs {
    /// The bot: a bundle folder written by `ghast export`, or a checkpoint `.safetensors`
    /// file (with its sidecar beside it). KataGo's `-model` is read as this.
    #[arg(long, alias = "model", value_name = "DIR|FILE")]
    pub bot: PathBuf,
    /// A KataGo analysis config file (`key = value` lines). KataGo's `-config`.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Settings that override the config's, as `key=value,key=value` (KataGo's
    /// `-override-config`).
    #[arg(long, value_name = "K=V,...")]
    override_config: Option<String>,
    /// Visits of a query without maxVisits [default: the config's maxVisits, else the bot's].
    #[arg(long)]
    pub visits: Option<u32>,
    /// Positions searched at once, sharing the network's batches [default: the config's
    /// numAnalysisThreads, else 64].
    #[arg(long)]
    positions_in_flight: Option<usize>,
    /// Where the network runs: `auto` (the first CUDA device if there is one, else the CPU),
    /// `cpu`, `cuda` or `cuda:N`.
    #[arg(long, default_value = "auto")]
    device: nn::DeviceChoice,
    /// What runs the network: `torch` (libtorch, on --device) or `onnx` (the bundle's
    /// model.onnx on tract, on the CPU). A build without libtorch has `onnx` only.
    #[arg(long, value_enum, default_value_t = Backend::DEFAULT)]
    backend: Backend,
    /// Seed of the searches' tie-breaking [default: the config's nnRandSeed, else 0].
    #[arg(long)]
    seed: Option<u64>,
}

/// KataGo's single-dash flags, read as this command's.
const KATAGO_FLAGS: &[(&str, &str)] = &[
    ("-config", "--config"),
    ("-model", "--model"),
    ("-override-config", "--override-config"),
    ("-quit-without-waiting", "--quit-without-waiting"),
];

/// Rewrites KataGo's single-dash flags after `ghast analysis` (`-config FILE -model FILE`)
/// into this command's, so that a tool that starts KataGo's analysis engine starts this one.
pub fn katago_flags(mut args: Vec<OsString>) -> Vec<OsString> {
    if args.get(1).is_some_and(|command| command == "analysis") {
        for arg in &mut args[2..] {
            if let Some(&(_, ours)) = KATAGO_FLAGS.iter().find(|(theirs, _)| arg == theirs) {
                *arg = OsString::from(ours);
            }
        }
    }
    args
}

pub fn run(args: Args) -> anyhow::Result<()> {
    args.engine
        .for_bots_game(Analyse(args.quit_without_waiting))
}

impl EngineArgs {
    /// Runs `work` for the game the bot plays.
    pub fn for_bots_game<W: EngineWork>(&self, work: W) -> anyhow::Result<()> {
        let game = play::game_of(&self.bot).map_err(|e| InputError(e.to_string()))?;
        let source = format!("bot {}", self.bot.display());
        for_game(&game, &source, "game", WithEngine { args: self, work })
    }
}

/// Work with an analysis engine, whatever the game.
pub trait EngineWork {
    fn run<G: Planes>(self, engine: AnalysisEngine<G, NetEvaluator<G>>) -> anyhow::Result<()>;
}

struct WithEngine<'a, W> {
    args: &'a EngineArgs,
    work: W,
}

impl<W: EngineWork> GameWork for WithEngine<'_, W> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        self.work.run(engine::<G>(self.args)?)
    }
}

/// The engine the flags describe: the bot's network and search, the config's settings, the
/// flags' over them.
fn engine<G: Planes>(args: &EngineArgs) -> anyhow::Result<AnalysisEngine<G, NetEvaluator<G>>> {
    let input_error = |message: String| anyhow::Error::new(InputError(message));
    let bundle = Bundle::<G>::open(&args.bot)
        .map_err(|error| input_error(format!("bot {}: {error}", args.bot.display())))?;
    let mut search = SearchSettings {
        visits: bundle.settings.visits,
        max_time: None,
        perspective: Perspective::SideToMove,
        pv_len: DEFAULT_PV_LEN,
        search: SearchConfig {
            root_noise: false,
            leaves_per_tree: DEFAULT_LEAVES_PER_POSITION,
            ..bundle.settings.search.clone()
        },
    };
    let text = match &args.config {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|error| input_error(format!("config {}: {error}", path.display())))?,
        None => String::new(),
    };
    let source = args
        .config
        .as_ref()
        .map_or_else(|| "config".to_owned(), |path| path.display().to_string());
    let config = KataGoConfig::parse::<G>(
        &text,
        args.override_config.as_deref().unwrap_or_default(),
        &source,
        &mut search,
    )
    .map_err(input_error)?;
    for warning in &config.warnings {
        tracing::warn!("{warning}");
    }
    let positions_in_flight = args
        .positions_in_flight
        .or(config.positions_in_flight)
        .unwrap_or(DEFAULT_POSITIONS_IN_FLIGHT);
    if positions_in_flight == 0 {
        return Err(input_error(
            "--positions-in-flight 0: expected at least 1".into(),
        ));
    }
    if let Some(visits) = args.visits {
        if visits == 0 {
            return Err(input_error("--visits 0: expected at least 1".into()));
        }
        search.visits = visits;
    }
    // The policy of a query's `includePolicy` is one position more.
    let max_batch = config
        .max_batch
        .unwrap_or(positions_in_flight * search.search.leaves_per_tree.max(1) as usize + 1);
    let options = bundle.settings.game_options.clone();
    let runtime = args.backend.runtime(args.device)?;
    let evaluator = bundle
        .evaluator(runtime, max_batch)
        .map_err(|error| input_error(format!("bot {}: {error}", args.bot.display())))?;
    tracing::info!(
        bot = %args.bot.display(),
        game = G::NAME,
        visits = search.visits,
        positions_in_flight,
        device = %evaluator.device_name(),
        "analysis engine ready"
    );
    let settings = Settings {
        positions_in_flight,
        search,
        cache_entries: config.cache_entries.unwrap_or(DEFAULT_CACHE_ENTRIES),
        seed: args.seed.or(config.seed).unwrap_or(0),
    };
    Ok(AnalysisEngine::new(options, evaluator, settings))
}

/// Answers queries on standard input and output.
struct Analyse(bool);

impl EngineWork for Analyse {
    fn run<G: Planes>(self, mut engine: AnalysisEngine<G, NetEvaluator<G>>) -> anyhow::Result<()> {
        // KataGo's words: tools wait for this line before they send queries.
        eprintln!("Started, ready to begin handling requests");
        engine
            .serve(
                BufReader::new(stdin()),
                &mut BufWriter::new(stdout().lock()),
                self.0,
            )
            .context("analysis")
    }
}
