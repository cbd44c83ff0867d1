//! How and why a game ended.

use game::{Outcome, Side};
use std::fmt;

/// Which end check of RULES.md section 6 ended the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    Margin,
    Passes,
    Repetition,
    Limit,
}

impl EndReason {
    /// The word used in `result` lines and game records.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Margin => "margin",
            EndReason::Passes => "passes",
            EndReason::Repetition => "repetition",
            EndReason::Limit => "limit",
        }
    }
}

/// The winner (or a draw) and the reason, printed as in `result orange margin`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub outcome: Outcome,
    pub reason: EndReason,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let winner = match self.outcome {
            Outcome::Win(Side::First) => "orange",
            Outcome::Win(Side::Second) => "blue",
            Outcome::Draw => "draw",
        };
        write!(f, "{winner} {}", self.reason.name())
    }
}
