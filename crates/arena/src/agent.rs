//! What the match runner talks to: in-process players and external engines alike.
//!
//! [`mcts::players::Player`] cannot fail, but an external engine can crash, answer nonsense or
//! play an illegal move; [`Agent`] lets every call fail, and the runner turns a failure into a
//! lost game for that agent instead of aborting the match.

use game::{Game, Side};
use mcts::players::Player;
use thiserror::Error;

/// What an agent decided on its turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Play(usize),
    Resign,
}

/// Why an agent could not go on with a game; the game is lost by that agent.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct AgentFailure(pub String);

/// One side of a game.
pub trait Agent<G: Game> {
    /// A new game with `options` starts, the agent playing `side`.
    fn new_game(&mut self, options: &G::Options, side: Side) -> Result<(), AgentFailure>;

    /// The agent's move in `game`, which is not over and has the agent to move.
    fn choose(&mut self, game: &G) -> Result<Choice, AgentFailure>;

    /// `action` was played in `before` (by either side, openings included).
    fn observe(&mut self, before: &G, action: usize) -> Result<(), AgentFailure>;
}

/// An in-process [`Player`] as an [`Agent`] that never fails.
pub struct Local<P>(pub P);

impl<G: Game, P: Player<G>> Agent<G> for Local<P> {
    fn new_game(&mut self, _options: &G::Options, _side: Side) -> Result<(), AgentFailure> {
        self.0.reset();
        Ok(())
    }

    fn choose(&mut self, game: &G) -> Result<Choice, AgentFailure> {
        Ok(Choice::Play(self.0.choose(game)))
    }

    fn observe(&mut self, _before: &G, action: usize) -> Result<(), AgentFailure> {
        self.0.observe(action);
        Ok(())
    }
}

/// Something that can field agents for a match: one per worker thread, reused game after game.
pub trait Entrant<G: Game>: Sync {
    /// The label in tables and records.
    fn name(&self) -> String;

    /// A fresh agent for games with `options`; `seed` varies its random choices.
    fn agent(&self, options: &G::Options, seed: u64) -> Result<Box<dyn Agent<G>>, AgentFailure>;
}
