//! Random playouts: games played to their end by uniformly random decisions, the evaluator of
//! classic UCT and the workload of `ghast bench rules`.

use crate::{Game, Outcome, draw_outcome};
use rand::{Rng, SeedableRng};

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
            let action = self.next_action(game, rng);
            game.apply(action);
            each(action);
        }
    }

    /// The action a random playout takes in `game`, which has not ended: a decision uniform
    /// over the legal actions, or one of chance's outcomes by its probability.
    pub fn next_action<G: Game>(&mut self, game: &G, rng: &mut impl Rng) -> usize {
        if game.is_chance() {
            draw_outcome(game, rng.random(), &mut self.outcomes)
        } else {
            game.random_legal_action(rng, &mut self.legal)
        }
    }
}

/// `count` positions where a side decides (not chance, not ended), each reached from the
/// start by up to `max_plies` random decisions and chance's draws, hidden information drawn
/// at random: the positions that checks of a network and its benchmarks feed it. The same
/// `seed` gives the same positions.
pub fn random_decision_positions<G: Game>(
    options: &G::Options,
    count: usize,
    max_plies: usize,
    seed: u64,
) -> Vec<G> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut playout = RandomPlayout::default();
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut game = G::new(options);
        game.sample_hidden(rng.random());
        let plies = rng.random_range(0..=max_plies);
        for _ in 0..plies {
            if game.outcome().is_some() {
                break;
            }
            let action = playout.next_action(&game, &mut rng);
            game.apply(action);
        }
        while game.outcome().is_none() && game.is_chance() {
            let action = playout.next_action(&game, &mut rng);
            game.apply(action);
        }
        if game.outcome().is_none() {
            positions.push(game);
        }
    }
    positions
}
