//! A bundle's network searching with mcts: moves for GTP, the arena and the web page, and
//! analysis.

use crate::bundle::Bundle;
use crate::error::PlayError;
use game::{Agent, AgentFailure, Choice, Game, Planes, Side};
use mcts::{Evaluator, ResignRule, ResignWatch, Search, SearchConfig};
use nn::{EvaluatorSettings, NetEvaluator};
use tch::Device;

/// A network-guided search with a visit budget per move. It keeps its tree between moves
/// when told what was played ([`Agent::observe_action`]), as the arena and GTP do, and between
/// an analysis and the move that follows it. As an [`Agent`] it resigns by its
/// [`ResignRule`] (never, unless its settings say so). The evaluator is a bundle's network
/// unless a test plugs in another ([`Bot::with_evaluator`]).
#[derive(Debug)]
pub struct Bot<G: Game, E = NetEvaluator<G>> {
    name: String,
    search: Search<G>,
    evaluator: E,
    visits: u32,
    resign: ResignRule,
    watch: ResignWatch,
}

/// One root move of an analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    pub action: usize,
    /// The move in the game's notation.
    pub text: String,
    pub visits: u32,
    pub prior: f32,
    /// Mean game value after the move (win minus loss probability, no score term), for the
    /// side to move, in [-1, 1]; `None` if unvisited.
    pub value: Option<f32>,
}

/// What a search of one position found.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The move the bot would play.
    pub best: usize,
    /// The root's game value for the side to move, in [-1, 1] (win minus loss probability,
    /// without the score term the search may weigh in: what win rates and resignation read).
    pub value: f32,
    pub total_visits: u32,
    /// Every legal move, the most visited (then the highest prior) first.
    pub moves: Vec<MoveStats>,
}

impl Analysis {
    /// The side to move's expected score in [0, 1], a draw counting half: what GUIs show as
    /// the win rate.
    pub fn win_probability(&self) -> f32 {
        (self.value + 1.0) / 2.0
    }
}

/// What runs a bot's network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Runtime {
    /// libtorch, on a device (CUDA in bf16, else the CPU).
    Torch(Device),
    /// The bundle's `model.onnx` (`ghast export --onnx`) on tract, on the CPU.
    Onnx,
}

impl From<Device> for Runtime {
    fn from(device: Device) -> Runtime {
        Runtime::Torch(device)
    }
}

impl<G: Planes> Bot<G> {
    /// Readies the bundle's network on `runtime` (a libtorch device, or its `model.onnx` on
    /// tract) and sets up its search; `seed` makes the search's tie-breaking reproducible.
    pub fn new(
        bundle: Bundle<G>,
        runtime: impl Into<Runtime>,
        seed: u64,
    ) -> Result<Self, PlayError> {
        let settings = bundle.settings;
        // One game fills a batch with at most `leaves_per_tree` leaves; larger buckets would
        // only cost warm-up time.
        let max_batch = settings.search.leaves_per_tree.max(1) as usize;
        let evaluator = match runtime.into() {
            Runtime::Torch(device) => NetEvaluator::new(
                bundle.checkpoint.network,
                &settings.game_options,
                EvaluatorSettings {
                    max_batch,
                    ..EvaluatorSettings::on(device)
                },
            )?,
            Runtime::Onnx => {
                if !bundle.source.is_dir() {
                    return Err(PlayError::MissingFile {
                        dir: bundle.source.clone(),
                        file: crate::bundle::ONNX_FILE.into(),
                    });
                }
                let model = crate::bundle::onnx_of(&bundle.source)?;
                NetEvaluator::onnx(&model, &settings.game_options, max_batch)?
            }
        };
        let name = bundle.source.file_stem().map_or_else(
            || "bot".to_owned(),
            |stem| stem.to_string_lossy().into_owned(),
        );
        Ok(
            Bot::with_evaluator(name, evaluator, settings.search, settings.visits, seed)?
                .with_resignation(settings.resign),
        )
    }
}

impl<G: Game, E: Evaluator<G>> Bot<G, E> {
    /// A bot searching with `evaluator` and `search`, `visits` (at least 1) per move.
    pub fn with_evaluator(
        name: impl Into<String>,
        evaluator: E,
        search: SearchConfig,
        visits: u32,
        seed: u64,
    ) -> Result<Self, PlayError> {
        if visits == 0 {
            return Err(PlayError::Visits(visits));
        }
        Ok(Bot {
            name: name.into(),
            search: Search::new(search, seed),
            evaluator,
            visits,
            resign: ResignRule::NEVER,
            watch: ResignWatch::default(),
        })
    }

    /// The bot resigns a game by `rule` when it plays as an [`Agent`].
    pub fn with_resignation(self, rule: ResignRule) -> Self {
        Bot {
            resign: rule,
            ..self
        }
    }

    /// Renames the bot (the name tables and ratings show).
    pub fn with_name(self, name: impl Into<String>) -> Self {
        Bot {
            name: name.into(),
            ..self
        }
    }

    pub fn visits(&self) -> u32 {
        self.visits
    }

    pub fn set_visits(&mut self, visits: u32) -> Result<(), PlayError> {
        if visits == 0 {
            return Err(PlayError::Visits(visits));
        }
        self.visits = visits;
        Ok(())
    }

    /// Searches `game` with `visits` (the bot's own budget if `None`). A failed device fails
    /// the search ([`PlayError::Device`]), and the tree is forgotten.
    pub fn analyze(&mut self, game: &G, visits: Option<u32>) -> Result<Analysis, PlayError> {
        if game.outcome().is_some() {
            return Err(PlayError::GameOver);
        }
        let visits = visits.unwrap_or(self.visits);
        if visits == 0 {
            return Err(PlayError::Visits(visits));
        }
        let result = match self.search.run(game, &mut self.evaluator, visits) {
            Ok(result) => result,
            Err(error) => {
                // The tree was left mid-step.
                self.forget();
                return Err(PlayError::Device(error));
            }
        };
        let tree = self.search.tree().expect("a search that ran has a tree");
        let mut moves: Vec<MoveStats> = tree
            .root_children()
            .map(|child| MoveStats {
                action: child.action,
                text: game.action_to_string(child.action),
                visits: child.visits,
                prior: child.prior,
                value: child.game_value,
            })
            .collect();
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
        Ok(Analysis {
            best: result.action,
            value: result.value,
            total_visits: result.total_visits,
            moves,
        })
    }

    /// Forgets the search tree and how long it has seen its game as lost (the position
    /// changed other than by a move).
    pub fn forget(&mut self) {
        self.search.clear();
        self.watch.clear();
    }

    /// `action` was played: the search keeps the subtree below it.
    pub fn observe(&mut self, action: usize) {
        self.search.advance(action);
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for Bot<G, E> {
    fn new_game(&mut self, _options: &G::Options, _side: Side) -> Result<(), AgentFailure> {
        self.forget();
        Ok(())
    }

    /// The searched move, or a resignation once the search has found the game lost for as
    /// many decisions in a row as the bot's rule asks.
    fn choose(&mut self, game: &G) -> Result<Choice, AgentFailure> {
        let analysis = self.analyze(game, None).map_err(|error| match error {
            PlayError::Device(error) => AgentFailure::Device(error),
            error => AgentFailure::Lost(format!("bot {}: {error}", self.name)),
        })?;
        if self
            .watch
            .observe(&self.resign, game.to_move(), analysis.value)
        {
            return Ok(Choice::Resign);
        }
        Ok(Choice::Play(analysis.best))
    }

    fn observe_action(&mut self, action: usize) -> Result<(), AgentFailure> {
        self.observe(action);
        Ok(())
    }
}
