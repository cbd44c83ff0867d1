//! Speed of the rules: random games on the 9 x 9 board.

use crate::ghodak::Ghodak;
use crate::options::GhodakOptions;
use game::Game;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Counts from [`random_games`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RulesSpeed {
    pub moves: u64,
    pub games: u64,
    pub elapsed: Duration,
}

impl RulesSpeed {
    pub fn moves_per_sec(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64()
    }

    pub fn games_per_sec(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64()
    }
}

/// Plays whole random games on the default 9 x 9 board on this thread for about `duration`:
/// each move a uniformly random legal stone (found as search finds them, through the full
/// list of legal actions), a pass only when there is none, until the move limit or two passes.
pub fn random_games(duration: Duration, seed: u64) -> RulesSpeed {
    let options = GhodakOptions::default();
    let start_state = Ghodak::new(&options);
    let pass = options.points();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut legal = Vec::with_capacity(pass + 1);
    let (mut moves, mut games) = (0, 0);
    let start = Instant::now();
    while start.elapsed() < duration {
        let mut state = start_state.clone();
        while !state.is_over() {
            state.legal_actions(&mut legal);
            let stones = legal.len() - 1;
            let action = if stones == 0 {
                pass
            } else {
                legal[rng.random_range(0..stones)]
            };
            state.apply(action);
            moves += 1;
        }
        games += 1;
    }
    RulesSpeed {
        moves,
        games,
        elapsed: start.elapsed(),
    }
}
