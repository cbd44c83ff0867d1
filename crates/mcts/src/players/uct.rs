use super::MctsPlayer;
use crate::config::{Formula, SearchConfig};
use crate::rollout::RolloutEvaluator;
use game::Game;

/// Classic UCT: a UCB1 tree over uniformly random playouts. A baseline that needs no network
/// and gets stronger with more playouts; built with [`MctsPlayer::uct`].
pub type UctPlayer<G> = MctsPlayer<G, RolloutEvaluator>;

impl<G: Game> UctPlayer<G> {
    /// The exploration constant of UCB1 for values in [-1, 1].
    pub const UCB1_EXPLORATION: f32 = 2.0;

    /// `playouts` random playouts per move, named `uct-<playouts>`.
    pub fn uct(playouts: u32, seed: u64) -> Self {
        let config = SearchConfig {
            formula: Formula::Ucb1,
            c_puct: Self::UCB1_EXPLORATION,
            root_noise: false,
            leaves_per_tree: 1,
            ..SearchConfig::default()
        };
        let evaluator = RolloutEvaluator::new(seed.wrapping_add(1));
        Self::new(format!("uct-{playouts}"), evaluator, config, playouts, seed)
    }
}
