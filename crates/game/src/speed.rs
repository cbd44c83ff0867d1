//! The speed of a game's rules: random games through the same `Game` calls search makes.

use crate::Game;
use crate::playout::RandomPlayout;
use rand::SeedableRng;
use rand::rngs::SmallRng;
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

/// Plays whole random games with `options` on this thread for about `duration`: every decision
/// uniform over the legal actions ([`Game::random_legal_action`], then [`Game::apply`]),
/// chance's outcomes with their probabilities.
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
