//! Players for matches: the fixed baselines every generation is rated against, and the
//! network-guided search.

mod greedy;
mod mcts;
mod random;
mod uct;

pub use greedy::GreedyPlayer;
pub use mcts::MctsPlayer;
pub use random::RandomPlayer;
pub use uct::UctPlayer;

use game::Game;

/// Something that picks moves. The arena calls [`Player::observe`] with every action played,
/// by either side, so that searching players can keep their tree.
pub trait Player<G: Game> {
    /// A short label for tables and ratings, e.g. `uct-200`.
    fn name(&self) -> String;

    /// A legal action for `game`, which is not over.
    fn choose(&mut self, game: &G) -> usize;

    fn observe(&mut self, _action: usize) {}

    /// A new game starts.
    fn reset(&mut self) {}
}
