//! Players for matches: the fixed baselines every generation is rated against, and the
//! network-guided search.

mod expectimax;
mod greedy;
mod mcts;
mod random;
mod uct;

pub use expectimax::ExpectimaxPlayer;
pub use greedy::GreedyPlayer;
pub use mcts::MctsPlayer;
pub use random::RandomPlayer;
pub use uct::UctPlayer;

use game::{Agent, AgentFailure, Choice, Game, Side};

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

impl<G: Game, P: Player<G> + ?Sized> Player<G> for &mut P {
    fn name(&self) -> String {
        (**self).name()
    }

    fn choose(&mut self, game: &G) -> usize {
        (**self).choose(game)
    }

    fn observe(&mut self, action: usize) {
        (**self).observe(action);
    }

    fn reset(&mut self) {
        (**self).reset();
    }
}

/// An in-process [`Player`] as the referee's [`Agent`]: it never fails, and follows the game
/// action by action.
pub struct Local<P>(pub P);

impl<G: Game, P: Player<G>> Agent<G> for Local<P> {
    fn new_game(&mut self, _options: &G::Options, _side: Side) -> Result<(), AgentFailure> {
        self.0.reset();
        Ok(())
    }

    fn choose(&mut self, game: &G) -> Result<Choice, AgentFailure> {
        Ok(Choice::Play(self.0.choose(game)))
    }

    fn observe_action(&mut self, action: usize) -> Result<(), AgentFailure> {
        self.0.observe(action);
        Ok(())
    }
}
