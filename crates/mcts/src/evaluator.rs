use game::Game;

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

/// Every legal action equally likely and a value of zero: search without a network, for tests
/// and for measuring the search itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) {
        let mut legal = Vec::new();
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            position.legal_actions(&mut legal);
            evaluation.policy.clear();
            evaluation.policy.resize(position.num_actions(), 0.0);
            let prior = 1.0 / legal.len().max(1) as f32;
            for &action in &legal {
                evaluation.policy[action] = prior;
            }
            evaluation.value = 0.0;
            evaluation.lead = 0.0;
        }
    }
}
