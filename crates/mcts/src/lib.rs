//! PUCT Monte Carlo tree search over any [`game::Game`], with batched leaf evaluation.

mod evaluator;

pub use evaluator::{Evaluation, Evaluator, UniformEvaluator};
