//! How and why a game ended, with both area scores.

use game::{Outcome, Side};
use std::fmt;

/// What ended the game (GHODAK.md section 3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Two passes in a row.
    Passes,
    /// The move limit.
    Limit,
}

impl EndReason {
    /// The word used in `result` lines and game records.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Passes => "passes",
            EndReason::Limit => "limit",
        }
    }
}

/// The winner, the reason and the area scores in half points (White's includes komi),
/// printed as in `result white passes 40 41.5`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub outcome: Outcome,
    pub reason: EndReason,
    pub half_scores: [i32; 2],
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let winner = match self.outcome {
            Outcome::Win(Side::First) => "black",
            Outcome::Win(Side::Second) => "white",
            Outcome::Draw => "draw",
        };
        let [black, white] = self.half_scores.map(|half| f64::from(half) / 2.0);
        write!(f, "{winner} {} {black} {white}", self.reason.name())
    }
}
