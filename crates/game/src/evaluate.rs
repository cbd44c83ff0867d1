//! What search asks of a network (or any heuristic): the contract between `mcts` and `nn`,
//! here so that neither depends on the other.

use crate::Game;
use std::collections::VecDeque;

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

    /// Who the evaluator expects to own each cell of `position`'s grid when the game ends,
    /// from the view of its side to move (+1 its own, -1 the opponent's, cells row by row),
    /// where it predicts that (a network's ownership head): what analysis reports as
    /// ownership. `None`, the default, from an evaluator that does not.
    fn ownership(&mut self, position: &G) -> Option<Vec<f32>> {
        let _ = position;
        None
    }
}

/// An evaluator that can hold several batches in flight: `submit` hands a batch over and,
/// where the evaluation runs elsewhere (an inference server on a device), returns before it
/// is done, so that the caller can walk other trees meanwhile; `receive` writes the
/// evaluations of the oldest batch not yet received, waiting for them if need be. This is how
/// a self-play worker keeps a device busy while it searches.
pub trait PipelinedEvaluator<G: Game> {
    fn submit(&mut self, positions: &[&G]);
    /// `out` has one entry per position of that batch.
    fn receive(&mut self, out: &mut [Evaluation]);
}

/// Any [`Evaluator`] as a [`PipelinedEvaluator`] that evaluates each batch as it is
/// submitted: nothing runs in the background (a network on the caller's own thread).
#[derive(Debug, Default)]
pub struct Inline<E> {
    inner: E,
    /// Evaluations of the batches submitted and not yet received, oldest first.
    done: VecDeque<Vec<Evaluation>>,
    /// Emptied buffers, whose policies keep their allocations.
    spare: Vec<Vec<Evaluation>>,
}

impl<E> Inline<E> {
    pub fn new(inner: E) -> Self {
        Inline {
            inner,
            done: VecDeque::new(),
            spare: Vec::new(),
        }
    }

    pub fn inner(&self) -> &E {
        &self.inner
    }
}

impl<G: Game, E: Evaluator<G>> PipelinedEvaluator<G> for Inline<E> {
    fn submit(&mut self, positions: &[&G]) {
        let mut out = self.spare.pop().unwrap_or_default();
        out.resize_with(positions.len(), Evaluation::default);
        self.inner.evaluate(positions, &mut out);
        self.done.push_back(out);
    }

    fn receive(&mut self, out: &mut [Evaluation]) {
        let mut done = self.done.pop_front().expect("receive follows a submit");
        assert_eq!(done.len(), out.len(), "one evaluation per position");
        for (out, done) in out.iter_mut().zip(done.iter_mut()) {
            std::mem::swap(out, done);
        }
        self.spare.push(done);
    }
}
