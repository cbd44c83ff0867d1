//! A bundle's network searching with mcts: moves for GTP, the arena and the web page, and
//! analysis.

use crate::bundle::Bundle;
use crate::error::PlayError;
use crate::settings::Level;
use game::{Agent, AgentFailure, Choice, Game, Planes, Side};
use mcts::{Evaluator, ResignRule, ResignWatch, Search, SearchConfig};
use nn::NetEvaluator;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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
    /// How moves are drawn from a search: the most visited at full strength; a weaker
    /// [`Level`] draws by visits and plays some moves at random.
    level: Level,
    /// The draws of a level's moves.
    rng: ChaCha8Rng,
    resign: ResignRule,
    watch: ResignWatch,
}

/// Mixed into a bot's seed for its level's draws, so that they do not repeat the search's.
const LEVEL_SEED: u64 = 0x1e7e_15ee_d000_0001;

/// One root move of an analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    pub action: usize,
    /// The move in the game's notation.
    pub text: String,
    pub visits: u32,
    pub prior: f32,
    /// The search's policy for the move, summing to 1 over the root: under Gumbel search
    /// the improved policy (the prior moved by the move's completed value), otherwise its
    /// share of the visits (the prior where no move was visited). What a level of play draws
    /// its moves from.
    pub policy: f32,
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
    /// libtorch, on the device `--device` chose (CUDA in bf16, the CPU, or the simulated
    /// accelerator, which leaves the network unused).
    #[cfg(feature = "torch")]
    Torch(nn::DeviceChoice),
    /// The bundle's `model.onnx` (`ghast export --onnx`) on tract, on the CPU.
    Onnx,
}

impl Default for Runtime {
    /// libtorch on the best device where this build links it, else the bundle's `model.onnx`.
    fn default() -> Runtime {
        #[cfg(feature = "torch")]
        return Runtime::Torch(nn::DeviceChoice::Best);
        #[cfg(not(feature = "torch"))]
        return Runtime::Onnx;
    }
}

#[cfg(feature = "torch")]
impl From<tch::Device> for Runtime {
    fn from(device: tch::Device) -> Runtime {
        Runtime::Torch(nn::DeviceChoice::Torch(device))
    }
}

impl<G: Planes> Bundle<G> {
    /// The bundle's network ready on `runtime`, in passes of up to `max_batch` positions.
    pub fn evaluator(
        self,
        runtime: Runtime,
        max_batch: usize,
    ) -> Result<NetEvaluator<G>, PlayError> {
        let options = &self.settings.game_options;
        Ok(match runtime {
            #[cfg(feature = "torch")]
            Runtime::Torch(device) => {
                let precision = nn::InferencePrecision::Auto;
                NetEvaluator::on_choice(device, self.network, options, max_batch, precision)?
            }
            Runtime::Onnx => {
                if !self.source.is_dir() {
                    return Err(PlayError::MissingFile {
                        dir: self.source.clone(),
                        file: crate::bundle::ONNX_FILE.into(),
                    });
                }
                let model = crate::bundle::onnx_of(&self.source)?;
                NetEvaluator::onnx(&model, options, max_batch)?
            }
        })
    }
}

impl Level {
    /// The move to play from `analysis`: the best at full strength; else, with probability
    /// `random_moves`, any legal move, otherwise one drawn by policy^(1/temperature) from the
    /// search's policy ([`MoveStats::policy`]). Under Gumbel search that is the improved
    /// policy, not the visits: sequential halving spreads a few visits nearly evenly over its
    /// candidates, so drawing by visits would play a small search's worst candidate as often
    /// as its best.
    pub fn choose(&self, analysis: &Analysis, rng: &mut impl Rng) -> usize {
        let moves = &analysis.moves;
        if self.random_moves > 0.0 && rng.random::<f32>() < self.random_moves {
            return moves[rng.random_range(0..moves.len())].action;
        }
        if self.temperature <= 0.0 {
            return analysis.best;
        }
        let weights: Vec<f64> = moves
            .iter()
            .map(|stats| f64::from(stats.policy).powf(1.0 / f64::from(self.temperature)))
            .collect();
        let total: f64 = weights.iter().sum();
        if !(total.is_finite() && total > 0.0) {
            return analysis.best;
        }
        let mut draw = rng.random::<f64>() * total;
        for (stats, weight) in moves.iter().zip(&weights) {
            draw -= weight;
            if draw < 0.0 {
                return stats.action;
            }
        }
        analysis.best
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
        let settings = bundle.settings.clone();
        let name = bundle.source.file_stem().map_or_else(
            || "bot".to_owned(),
            |stem| stem.to_string_lossy().into_owned(),
        );
        // One game fills a batch with at most `leaves_per_tree` leaves; larger buckets would
        // only cost warm-up time.
        let max_batch = settings.search.leaves_per_tree.max(1) as usize;
        let evaluator = bundle.evaluator(runtime.into(), max_batch)?;
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
            level: Level::full(visits),
            rng: ChaCha8Rng::seed_from_u64(seed ^ LEVEL_SEED),
            resign: ResignRule::NEVER,
            watch: ResignWatch::default(),
        })
    }

    /// Plays at `level`: its visits, and its move choice from then on.
    pub fn set_level(&mut self, level: &Level) -> Result<(), PlayError> {
        level
            .check()
            .map_err(|detail| PlayError::Level { detail })?;
        self.set_visits(level.visits)?;
        self.level = level.clone();
        Ok(())
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
        // A one-visit PUCT search visits no move: its policy is then the network's.
        let policy = tree.policy_target();
        let policy_of = |action: usize, prior: f32| {
            if policy.is_empty() {
                return prior;
            }
            policy
                .iter()
                .find(|&&(a, _)| a == action)
                .map_or(0.0, |&(_, p)| p)
        };
        let mut moves: Vec<MoveStats> = tree
            .root_children()
            .map(|child| MoveStats {
                action: child.action,
                text: game.action_to_string(child.action),
                visits: child.visits,
                prior: child.prior,
                policy: policy_of(child.action, child.prior),
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
        Ok(Choice::Play(self.level.choose(&analysis, &mut self.rng)))
    }

    fn observe_action(&mut self, action: usize) -> Result<(), AgentFailure> {
        self.observe(action);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ghast::{Ghast, RawOptions};
    use mcts::UniformEvaluator;
    use std::collections::BTreeSet;

    /// The start of a size-3 game.
    fn start() -> Ghast {
        let options = RawOptions {
            size: 3,
            win_margin: 3,
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        Ghast::new(&options)
    }

    /// The moves bots of seeds 0..20 choose from the start of a size-3 game at `level`.
    fn first_moves(level: &Level) -> BTreeSet<usize> {
        let game = start();
        (0..20)
            .map(|seed| {
                let mut bot =
                    Bot::with_evaluator("level", UniformEvaluator, SearchConfig::play(), 1, seed)
                        .unwrap();
                bot.set_level(level).unwrap();
                match bot.choose(&game).unwrap() {
                    Choice::Play(action) => action,
                    Choice::Resign => panic!("a bot at move 1 does not resign"),
                }
            })
            .collect()
    }

    #[test]
    fn a_level_plays_random_moves_and_draws_by_visits() {
        let random = first_moves(&Level {
            random_moves: 1.0,
            ..Level::full(16)
        });
        // Every one a legal move; 20 drawn from dozens are mostly different.
        let mut legal = Vec::new();
        start().legal_actions(&mut legal);
        assert!(legal.len() >= 30, "{} first moves", legal.len());
        assert!(random.iter().all(|action| legal.contains(action)));
        assert!(random.len() >= 10, "random moves: {random:?}");
        let drawn = first_moves(&Level {
            temperature: 1.0,
            ..Level::full(64)
        });
        assert!(drawn.len() > 1, "drawn by visits: {drawn:?}");
    }

    #[test]
    fn a_level_that_cannot_be_played_is_refused() {
        let mut bot =
            Bot::<Ghast, _>::with_evaluator("level", UniformEvaluator, SearchConfig::play(), 8, 0)
                .unwrap();
        for (level, words) in [
            (
                Level {
                    visits: 0,
                    ..Level::full(1)
                },
                "visits 0",
            ),
            (
                Level {
                    temperature: -1.0,
                    ..Level::full(8)
                },
                "temperature -1",
            ),
            (
                Level {
                    random_moves: 1.5,
                    ..Level::full(8)
                },
                "random_moves 1.5",
            ),
        ] {
            let error = bot.set_level(&level).unwrap_err().to_string();
            assert!(error.contains(words), "{error}");
        }
        assert_eq!(bot.visits(), 8, "a refused level changes nothing");
    }
}
