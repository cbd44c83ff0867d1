//! How and why a game ended.

use crate::history::History;
use crate::options::GhastOptions;
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

/// The end checks of section 6 after a turn, in the rules' order: margin, passes, repetition,
/// limit. `lead` is the face-up lead of the player who did not just move. The position `key`
/// goes into `history` only when the checks before repetition passed, so that a position is
/// recorded once per turn that reaches it.
#[inline]
pub(crate) fn end_check(
    options: &GhastOptions,
    lead: i32,
    passes: u8,
    turn: u16,
    history: &mut History,
    key: u64,
) -> Option<EndReason> {
    if lead >= i32::from(options.win_margin()) {
        Some(EndReason::Margin)
    } else if passes >= 2 {
        Some(EndReason::Passes)
    } else if history.record(key) >= 3 {
        Some(EndReason::Repetition)
    } else if turn > options.max_turns() {
        Some(EndReason::Limit)
    } else {
        None
    }
}

/// The outcome of a game scored on the board: the higher score wins.
pub(crate) fn outcome_by_score(orange_half_points: i32, blue_half_points: i32) -> Outcome {
    match orange_half_points.cmp(&blue_half_points) {
        std::cmp::Ordering::Greater => Outcome::Win(Side::First),
        std::cmp::Ordering::Less => Outcome::Win(Side::Second),
        std::cmp::Ordering::Equal => Outcome::Draw,
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
