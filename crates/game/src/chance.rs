//! Drawing chance outcomes: reproducibly, and the same for both games of an arena pair.

use crate::Game;

/// SplitMix64: advances `state` and returns the next well-mixed 64-bit value. The games' Zobrist
/// keys, their hashes of rarely changing state and [`ChanceStream`] all draw from it, so the
/// numbers a seed gives never depend on a dependency's version.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    mix64(*state)
}

/// SplitMix64's finaliser: a bijection of 64-bit values that spreads every input bit over
/// the whole output.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A stream of uniform numbers in [0, 1) from a seed (SplitMix64), from which chance outcomes
/// are drawn one after another.
///
/// Two games that draw from streams of the same seed get the same uniforms in the same order,
/// so a match can give both games of a colour-swapped pair the same dice (duplicate
/// bridge's and backgammon's way of making luck cancel) and a record can name the seed that
/// made its chance outcomes. Written here rather than taken from `rand`: the stream is part of
/// what a seed means, and must not change with a dependency's version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChanceStream {
    state: u64,
}

impl ChanceStream {
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next uniform number in [0, 1), with 53 random bits.
    pub fn next_uniform(&mut self) -> f64 {
        (splitmix64(&mut self.state) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Draws the outcome of the chance event at `game` ([`Game::is_chance`] must hold) with
    /// the probabilities of [`Game::chance_outcomes`]; `outcomes` is scratch.
    pub fn draw<G: Game>(&mut self, game: &G, outcomes: &mut Vec<(usize, f64)>) -> usize {
        draw_outcome(game, self.next_uniform(), outcomes)
    }
}

/// The chance outcome at `game` that `uniform` (in [0, 1)) falls on when the outcomes'
/// probabilities are laid end to end in the game's order; `outcomes` is scratch.
///
/// # Panics
/// If `game` is not at a chance event (it lists no outcome).
pub fn draw_outcome<G: Game>(game: &G, uniform: f64, outcomes: &mut Vec<(usize, f64)>) -> usize {
    game.chance_outcomes(outcomes);
    let mut left = uniform;
    for &(action, probability) in outcomes.iter() {
        if left < probability {
            return action;
        }
        left -= probability;
    }
    // Rounding can leave a sliver past the last outcome's end.
    outcomes.last().expect("a chance event has outcomes").0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_of_one_seed_agree_and_stay_in_range() {
        let (mut a, mut b) = (ChanceStream::new(7), ChanceStream::new(7));
        let mut c = ChanceStream::new(8);
        let draws: Vec<f64> = (0..1000).map(|_| a.next_uniform()).collect();
        assert!(draws.iter().all(|u| (0.0..1.0).contains(u)));
        assert!(draws.iter().zip(0..).all(|(&u, _)| u == b.next_uniform()));
        assert_ne!(draws[0], c.next_uniform());
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        assert!((mean - 0.5).abs() < 0.05, "mean {mean}");
    }
}
