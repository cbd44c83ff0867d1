//! The speed of a game's rules: random games through the same `Game` calls search makes.

use crate::{Game, draw_outcome};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Counts from [`random_games`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RulesSpeed {
    /// Actions played, chance's outcomes included.
    pub actions: u64,
    pub games: u64,
    pub elapsed: Duration,
}

impl RulesSpeed {
    pub fn actions_per_sec(&self) -> f64 {
        self.actions as f64 / self.elapsed.as_secs_f64()
    }

    pub fn games_per_sec(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64()
    }
}

/// Plays whole random games with `options` on this thread for about `duration`: every action
/// drawn uniformly from the full list of legal ones ([`Game::legal_actions`], then
/// [`Game::apply`]), chance's outcomes with their probabilities.
pub fn random_games<G: Game>(options: &G::Options, duration: Duration, seed: u64) -> RulesSpeed {
    let start_position = G::new(options);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut playout = RandomPlayout::default();
    let (mut actions, mut games) = (0, 0);
    let start = Instant::now();
    while start.elapsed() < duration {
        playout.play(&mut start_position.clone(), &mut rng, |_| actions += 1);
        games += 1;
    }
    RulesSpeed {
        actions,
        games,
        elapsed: start.elapsed(),
    }
}

/// Plays games to their end at random: each decision uniform over the legal actions, each of
/// chance's outcomes by its probability. Keeps its scratch lists from one game to the next.
#[derive(Default)]
pub struct RandomPlayout {
    legal: Vec<usize>,
    outcomes: Vec<(usize, f64)>,
}

impl RandomPlayout {
    /// Plays `game` to its end with `rng`, calling `each` with every action played.
    pub fn play<G: Game>(&mut self, game: &mut G, rng: &mut impl Rng, mut each: impl FnMut(usize)) {
        while game.outcome().is_none() {
            let action = if game.is_chance() {
                draw_outcome(game, rng.random(), &mut self.outcomes)
            } else {
                game.legal_actions(&mut self.legal);
                *self
                    .legal
                    .choose(rng)
                    .expect("a game that goes on has moves")
            };
            game.apply(action);
            each(action);
        }
    }
}
