use crate::evaluator::UniformEvaluator;
use game::playout::RandomPlayout;
use game::{DeviceError, Evaluation, Evaluator, Game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Uniform priors and, as the value, the result of one uniformly random playout: the
/// evaluator of classic UCT, needing no knowledge of the game.
#[derive(Clone, Debug)]
pub struct RolloutEvaluator {
    rng: ChaCha8Rng,
    playout: RandomPlayout,
}

impl RolloutEvaluator {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            playout: RandomPlayout::default(),
        }
    }
}

impl<G: Game> Evaluator<G> for RolloutEvaluator {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        UniformEvaluator.evaluate(positions, out)?;
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            let mut game = (*position).clone();
            let outcome = self.playout.play(&mut game, &mut self.rng, |_| {});
            evaluation.value = outcome.value_for(position.to_move());
        }
        Ok(())
    }
}
