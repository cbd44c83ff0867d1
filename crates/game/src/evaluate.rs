//! What search asks of a network (or any heuristic): the contract between `mcts` and `nn`,
//! here so that neither depends on the other.

use crate::Game;

/// A network's (or any heuristic's) opinion of one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Prior probabilities over all `num_actions` dense actions. Only legal entries are read;
    /// they sum to one over the legal actions.
    pub policy: Vec<f32>,
    /// Expected outcome in [-1, 1] from the point of view of the player to move.
    pub value: f32,
    /// Expected final score lead of the player to move, in the game's score units (0 from an
    /// evaluator that does not predict it).
    pub lead: f32,
}

/// Evaluates positions in batches: the search collects leaves from many trees and asks once.
///
/// `out` has one entry per position; implementations resize `policy` as needed and should
/// reuse its allocation.
pub trait Evaluator<G: Game> {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]);
}
