use crate::evaluator::UniformEvaluator;
use game::{Evaluation, Evaluator};
use game::{Game, Outcome};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Uniform priors and, as the value, the result of one uniformly random playout: the
/// evaluator of classic UCT, needing no knowledge of the game.
#[derive(Clone, Debug)]
pub struct RolloutEvaluator {
    rng: ChaCha8Rng,
    legal: Vec<usize>,
}

impl RolloutEvaluator {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            legal: Vec::new(),
        }
    }
}

impl<G: Game> Evaluator<G> for RolloutEvaluator {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) {
        UniformEvaluator.evaluate(positions, out);
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            let mut game = (*position).clone();
            let outcome = random_playout(&mut game, &mut self.rng, &mut self.legal);
            evaluation.value = outcome.value_for(position.to_move());
        }
    }
}

/// Plays uniformly random legal actions until the game ends, chance's outcomes drawn with
/// their probabilities (`legal` is scratch).
pub fn random_playout<G: Game>(
    game: &mut G,
    rng: &mut impl Rng,
    legal: &mut Vec<usize>,
) -> Outcome {
    // Allocates only in a game with chance, once per playout.
    let mut outcomes = Vec::new();
    loop {
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        let action = if game.is_chance() {
            game::draw_outcome(game, rng.random(), &mut outcomes)
        } else {
            game.legal_actions(legal);
            *legal
                .choose(rng)
                .expect("an unfinished game has legal actions")
        };
        game.apply(action);
    }
}
