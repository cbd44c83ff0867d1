use game::{DeviceError, Evaluation, Evaluator, Game};

/// Every legal action equally likely and a value of zero: search without a network, for tests
/// and for measuring the search itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError> {
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
        Ok(())
    }
}
