//! Speed of the rules: random games on the standard board.

use crate::bits::Bits;
use crate::fakerghast::{Fakerghast, FakerghastOptions};
use crate::options::GhastOptions;
use crate::state::State;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Counts from [`random_games`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RulesSpeed {
    pub placements: u64,
    pub games: u64,
    pub elapsed: Duration,
}

impl RulesSpeed {
    pub fn placements_per_sec(&self) -> f64 {
        self.placements as f64 / self.elapsed.as_secs_f64()
    }

    pub fn games_per_sec(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64()
    }
}

/// Plays whole random games on the standard board on this thread for about `duration`:
/// each move a uniformly random legal placement, a pass only when none is legal, with the
/// full rules (removal, end checks, Zobrist keys) on every move.
pub fn random_games(duration: Duration, seed: u64) -> RulesSpeed {
    let options = GhastOptions::default();
    let start_state = State::<u128>::new(&options);
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut placements, mut games) = (0, 0);
    let start = Instant::now();
    while start.elapsed() < duration {
        let mut state = start_state.clone();
        while state.result().is_none() {
            let placeable = state.placeable();
            let count = placeable.count();
            if count == 0 {
                state.pass();
                continue;
            }
            let random: u64 = rng.random();
            let k = ((random & 0xffff_ffff) * u64::from(count)) >> 32;
            let orientation = ((random >> 32) * 6) >> 32;
            state.place(placeable.select(k as u32), orientation as usize);
            placements += 1;
        }
        games += 1;
    }
    RulesSpeed {
        placements,
        games,
        elapsed: start.elapsed(),
    }
}

/// Counts from [`random_fakerghast_games`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DecisionSpeed {
    pub decisions: u64,
    pub games: u64,
    pub elapsed: Duration,
}

impl DecisionSpeed {
    pub fn decisions_per_sec(&self) -> f64 {
        self.decisions as f64 / self.elapsed.as_secs_f64()
    }

    pub fn games_per_sec(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64()
    }
}

/// Plays whole random Fakerghast games (D = 2, the standard board) on this thread for about
/// `duration`, through the `game::Game` interface that search uses: every decision (a real
/// tile, a fake, a pass) uniformly from the full list of legal ones.
pub fn random_fakerghast_games(duration: Duration, seed: u64) -> DecisionSpeed {
    use game::Game;
    let start_state = Fakerghast::new(&FakerghastOptions::default());
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut decisions, mut games, mut legal) = (0, 0, Vec::new());
    let start = Instant::now();
    while start.elapsed() < duration {
        let mut state = start_state.clone();
        while state.outcome().is_none() {
            state.legal_actions(&mut legal);
            state.apply(legal[rng.random_range(0..legal.len())]);
            decisions += 1;
        }
        games += 1;
    }
    DecisionSpeed {
        decisions,
        games,
        elapsed: start.elapsed(),
    }
}
