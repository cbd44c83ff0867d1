//! Random playouts: games played to their end by uniformly random decisions, the evaluator of
//! classic UCT and the workload of `ghast bench rules`.

use crate::{Game, Outcome, draw_outcome};
use rand::Rng;

/// Plays games to their end at random: each decision uniform over the legal actions
/// ([`Game::random_legal_action`]), each of chance's outcomes by its probability. Keeps its
/// scratch lists from one game to the next, so a playout allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct RandomPlayout {
    legal: Vec<usize>,
    outcomes: Vec<(usize, f64)>,
}

impl RandomPlayout {
    /// Plays `game` to its end with `rng`, calling `each` with every action played, and
    /// returns how it ended.
    pub fn play<G: Game>(
        &mut self,
        game: &mut G,
        rng: &mut impl Rng,
        mut each: impl FnMut(usize),
    ) -> Outcome {
        loop {
            if let Some(outcome) = game.outcome() {
                return outcome;
            }
            let action = if game.is_chance() {
                draw_outcome(game, rng.random(), &mut self.outcomes)
            } else {
                game.random_legal_action(rng, &mut self.legal)
            };
            game.apply(action);
            each(action);
        }
    }
}
