//! What a match needs of its players: something that fields a fresh agent per worker thread.
//! The agents themselves, and the referee between them, are the game crate's
//! ([`game::Agent`], [`game::Referee`]).

use game::{Agent, AgentFailure, Game};

/// Something that can field agents for a match: one per worker thread, reused game after game.
pub trait Entrant<G: Game>: Sync {
    /// The label in tables and records.
    fn name(&self) -> String;

    /// A fresh agent for games with `options`; `seed` varies its random choices.
    fn agent(&self, options: &G::Options, seed: u64) -> Result<Box<dyn Agent<G>>, AgentFailure>;
}
