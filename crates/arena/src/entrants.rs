//! Turns a [`PlayerSpec`] into agents for matches of any game: external engines for games
//! that speak GTP.

use crate::agent::Entrant;
use crate::gtp::{GtpAgent, GtpProcess};
use crate::spec::PlayerSpec;
use game::{Agent, AgentFailure, Game, GtpGame, GtpWork, Planes};
use mcts::SearchConfig;
use mcts::players::{ExpectimaxPlayer, GreedyPlayer, Local, RandomPlayer, UctPlayer};
use play::{Bundle, Runtime};
use std::path::Path;

/// Largest inference batch of a network player: one game's leaves per step
/// ([`SearchConfig::play`]), so larger warm-up buckets would only cost time.
const MAX_BATCH: usize = 16;

/// A player whose networks run on the build's default runtime.
impl<G: Planes> Entrant<G> for PlayerSpec {
    fn name(&self) -> String {
        PlayerSpec::name(self)
    }

    fn agent(&self, options: &G::Options, seed: u64) -> Result<Box<dyn Agent<G>>, AgentFailure> {
        Entrant::<G>::agent(&OnRuntime::new(self, Runtime::default()), options, seed)
    }
}

/// A player whose networks (a checkpoint's or a bundle's) run on `runtime`: `ghast arena
/// --backend`.
pub struct OnRuntime<'a> {
    spec: &'a PlayerSpec,
    runtime: Runtime,
}

impl<'a> OnRuntime<'a> {
    pub fn new(spec: &'a PlayerSpec, runtime: Runtime) -> Self {
        OnRuntime { spec, runtime }
    }
}

impl<G: Planes> Entrant<G> for OnRuntime<'_> {
    fn name(&self) -> String {
        self.spec.name()
    }

    fn agent(&self, options: &G::Options, seed: u64) -> Result<Box<dyn Agent<G>>, AgentFailure> {
        Ok(match self.spec {
            PlayerSpec::Random => baseline_agent(Baseline::Random, seed),
            PlayerSpec::Greedy => baseline_agent(Baseline::Greedy, seed),
            PlayerSpec::Uct { playouts } => baseline_agent(Baseline::Uct(*playouts), seed),
            PlayerSpec::Expectimax { depth } => baseline_agent(Baseline::Expectimax(*depth), seed),
            PlayerSpec::Checkpoint { weights, visits } => network_agent::<G>(
                &self.spec.name(),
                weights,
                options,
                SearchConfig::play(),
                *visits,
                self.runtime,
                seed,
            )?,
            PlayerSpec::Bundle { dir, visits } => {
                bundle_agent::<G>(dir, *visits, self.runtime, seed)?
            }
            PlayerSpec::Gtp { command } => G::with_gtp(SpawnEngine {
                name: self.spec.name(),
                command,
            })
            .ok_or_else(|| AgentFailure::Lost(format!("{} does not speak GTP", G::NAME)))??,
        })
    }
}

/// Starts an external engine, for a game that speaks GTP.
struct SpawnEngine<'a> {
    name: String,
    command: &'a [String],
}

impl<G: Game> GtpWork<G> for SpawnEngine<'_> {
    type Output = Result<Box<dyn Agent<G>>, AgentFailure>;

    fn run(self) -> Self::Output
    where
        G: GtpGame,
    {
        let engine = GtpProcess::spawn(&self.name, self.command)?;
        Ok(Box::new(GtpAgent::<G>::new(engine)))
    }
}

/// The fixed opponents that need no files, for any game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Baseline {
    Random,
    Greedy,
    /// UCT with this many random-rollout playouts per move.
    Uct(u32),
    /// Expectimax this many decisions deep, judged by the score lead.
    Expectimax(u32),
}

/// A baseline player as an agent.
pub fn baseline_agent<G: Game>(baseline: Baseline, seed: u64) -> Box<dyn Agent<G>> {
    match baseline {
        Baseline::Random => Box::new(Local(RandomPlayer::new(seed))),
        Baseline::Greedy => Box::new(Local(GreedyPlayer::new(seed))),
        Baseline::Uct(playouts) => Box::new(Local(UctPlayer::<G>::uct(playouts, seed))),
        Baseline::Expectimax(depth) => Box::new(Local(ExpectimaxPlayer::new(depth, seed))),
    }
}

/// PUCT search with `visits` per move over the network in `weights`, on `runtime` (ONNX, or a
/// build without libtorch, cannot run a checkpoint, which has no `model.onnx`, and says so).
pub fn network_agent<G: Planes>(
    name: &str,
    weights: &Path,
    options: &G::Options,
    search: SearchConfig,
    visits: u32,
    runtime: Runtime,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, AgentFailure> {
    let fail = |e: play::PlayError| AgentFailure::Lost(format!("{}: {e}", weights.display()));
    let mut bundle = Bundle::<G>::from_checkpoint(weights, visits).map_err(fail)?;
    // The match's rules, whose planes the network must read (it is checked on them).
    bundle.settings.game_options = options.clone();
    let evaluator = bundle.evaluator(runtime, MAX_BATCH).map_err(fail)?;
    // A bot, not an `MctsPlayer`: it reports a failed device, which stops the match.
    let bot = play::Bot::with_evaluator(name, evaluator, search, visits, seed).map_err(fail)?;
    Ok(Box::new(bot))
}

/// The bot in bundle folder `dir` on `runtime`, with its own search settings; `visits`
/// overrides its budget.
fn bundle_agent<G: Planes>(
    dir: &Path,
    visits: Option<u32>,
    runtime: Runtime,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, AgentFailure> {
    let fail = |e: play::PlayError| AgentFailure::Lost(format!("{}: {e}", dir.display()));
    let bundle = Bundle::<G>::load(dir).map_err(fail)?;
    let mut bot = play::Bot::new(bundle, runtime, seed).map_err(fail)?;
    if let Some(visits) = visits {
        bot.set_visits(visits).map_err(fail)?;
    }
    Ok(Box::new(bot))
}
