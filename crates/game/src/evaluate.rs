//! What search asks of a network (or any heuristic): the contract between `mcts` and `nn`,
//! here so that neither depends on the other.

use crate::Game;
use std::collections::VecDeque;
use std::fmt;

/// An evaluator that could not answer: the device its network runs on failed (a CUDA error,
/// out of memory), or the inference server it asks stopped after such a failure. Nothing
/// that asks again will be answered, so whoever meets it stops and says so (KataGo ends the
/// process with the message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceError {
    /// Where the network ran: `cpu`, `cuda:N` or a simulated device.
    pub device: String,
    /// What failed, in one line.
    pub message: String,
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the network on {} failed: {}", self.device, self.message)
    }
}

impl std::error::Error for DeviceError {}

/// Why a loop that answers a protocol (GTP, the analysis engine) stopped before its input
/// ended: its input or output failed, or the device of its network did, after the request
/// under way was answered with the device's error.
#[derive(Debug)]
pub enum ServeError {
    Io(std::io::Error),
    Device(DeviceError),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Io(error) => write!(f, "standard input or output: {error}"),
            ServeError::Device(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ServeError {}

impl From<std::io::Error> for ServeError {
    fn from(error: std::io::Error) -> Self {
        ServeError::Io(error)
    }
}

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
    /// Who the evaluator expects to own each cell of the position's grid when the game ends,
    /// from the view of its side to move (+1 its own, -1 the opponent's, cells row by row):
    /// where it was asked for ([`Evaluator::want_ownership`]) and predicts it; else empty.
    pub ownership: Vec<f32>,
}

/// Evaluates positions in batches: the search collects leaves from many trees and asks once.
///
/// `out` has one entry per position; implementations resize `policy` as needed and should
/// reuse its allocation. An evaluator of a network fails only with its device, and then for
/// good: the caller stops searching.
pub trait Evaluator<G: Game> {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError>;

    /// Asks the evaluator to fill each [`Evaluation::ownership`] from now on (`wanted`), or
    /// to stop; returns whether it predicts ownership at all (a network's ownership head:
    /// what analysis reports). It costs copies, not passes: the head runs anyway. The
    /// default predicts none.
    fn want_ownership(&mut self, wanted: bool) -> bool {
        let _ = wanted;
        false
    }
}

/// An evaluator that can hold several batches in flight: `submit` hands a batch over and,
/// where the evaluation runs elsewhere (an inference server on a device), returns before it
/// is done, so that the caller can walk other trees meanwhile; `receive` writes the
/// evaluations of the oldest batch not yet received, waiting for them if need be. This is how
/// a self-play worker keeps a device busy while it searches. A failed device fails the
/// `submit` or `receive` that meets it, and every one after it.
pub trait PipelinedEvaluator<G: Game> {
    fn submit(&mut self, positions: &[&G]) -> Result<(), DeviceError>;
    /// `out` has one entry per position of that batch.
    fn receive(&mut self, out: &mut [Evaluation]) -> Result<(), DeviceError>;
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
    fn submit(&mut self, positions: &[&G]) -> Result<(), DeviceError> {
        let mut out = self.spare.pop().unwrap_or_default();
        out.resize_with(positions.len(), Evaluation::default);
        self.inner.evaluate(positions, &mut out)?;
        self.done.push_back(out);
        Ok(())
    }

    fn receive(&mut self, out: &mut [Evaluation]) -> Result<(), DeviceError> {
        let mut done = self.done.pop_front().expect("receive follows a submit");
        assert_eq!(done.len(), out.len(), "one evaluation per position");
        for (out, done) in out.iter_mut().zip(done.iter_mut()) {
            std::mem::swap(out, done);
        }
        self.spare.push(done);
        Ok(())
    }
}
