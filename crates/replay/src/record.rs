//! What one finished self-play game leaves behind.
//!
//! Records, not tensors: the trainer replays the moves with the fast rules to rebuild each
//! position, so a record stays small and independent of the network's input encoding.

use game::{Outcome, Side};
use serde::{Deserialize, Serialize};

/// The weights of a stored policy target sum to about this: probabilities quantised to
/// sixteen bits, small in the varint encoding and fine enough for any target.
pub const POLICY_WEIGHT_TOTAL: u32 = 65_535;

/// One move of a game, with the search statistics that become training targets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The dense action index that was played.
    pub action: u32,
    /// The search's policy target as sparse `(action, weight)` pairs (see
    /// [`quantise_policy`]; only the ratios of the weights matter); empty for cheap
    /// searches, whose statistics are too noisy to be a target.
    pub policy: Vec<(u32, u32)>,
    /// The root's value estimate from the mover's point of view, in [-1, 1].
    pub root_value: f32,
    /// Whether this move got a full search (playout cap randomisation); only full searches
    /// give policy targets.
    pub full_search: bool,
    /// How far the policy target is from the network's prior at the root (KL divergence, in
    /// nats; 0 without a target): the trainer samples surprising positions more often.
    pub surprise: f32,
    /// The action is chance's outcome, drawn by the referee, not a side's decision: no
    /// search, no target, and never a training sample.
    pub chance: bool,
}

impl MoveRecord {
    /// A move that no search chose: an opening move (`chance` false) or chance's outcome.
    pub fn unsearched(action: usize, chance: bool) -> Self {
        MoveRecord {
            action: action as u32,
            policy: Vec::new(),
            root_value: 0.0,
            full_search: false,
            surprise: 0.0,
            chance,
        }
    }

    /// Why this move cannot have been written by self-play, if it cannot: its floats feed the
    /// trainer's running statistics, where one NaN would poison every later sample.
    pub fn defect(&self) -> Option<String> {
        if !self.root_value.is_finite() {
            return Some(format!("root value {}", self.root_value));
        }
        if !(self.surprise.is_finite() && self.surprise >= 0.0) {
            return Some(format!("surprise {}", self.surprise));
        }
        if self.chance && (self.full_search || !self.policy.is_empty()) {
            return Some("a chance outcome with a search target".to_owned());
        }
        None
    }
}

/// A policy target as stored: probabilities as weights summing to about
/// [`POLICY_WEIGHT_TOTAL`], actions whose weight rounds to zero left out.
pub fn quantise_policy(target: &[(usize, f32)]) -> Vec<(u32, u32)> {
    target
        .iter()
        .filter_map(|&(action, probability)| {
            let weight = (probability.clamp(0.0, 1.0) * POLICY_WEIGHT_TOTAL as f32).round() as u32;
            (weight > 0).then_some((action as u32, weight))
        })
        .collect()
}

/// For a game that was played through instead of resigned: who would have resigned, and
/// before which move. Comparing it with the result measures how often resigning would have
/// thrown away a game that was not lost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignPlaythrough {
    /// The side whose value estimate first fell below the resignation threshold.
    pub side: Side,
    /// The index in [`GameRecord::moves`] of the move that side would have resigned instead
    /// of playing.
    pub move_index: u32,
}

/// For a handicap game of self-play: the side that replaced some of its searched decisions by
/// uniformly random ones, and the probability with which it did, so that statistics and
/// ratings can tell these games from games between equals.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Handicapped {
    pub side: Side,
    /// The probability, in [0, 1], that a decision of `side` was random.
    pub random_decisions: f32,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The generation of the model that played the game, so the trainer and evaluation can
    /// tell how stale a position is.
    pub generation: u32,
    pub moves: Vec<MoveRecord>,
    pub outcome: Outcome,
    /// Why the game ended, in the game's own words (e.g. "margin", "passes", "repetition",
    /// "limit", "resign").
    pub end_reason: String,
    /// The final position in the game's text notation, to check a replay against.
    pub final_position: String,
    /// Set when the game was played through although one side would have resigned.
    pub resign_playthrough: Option<ResignPlaythrough>,
    /// Set when one side played with a handicap.
    pub handicap: Option<Handicapped>,
}

impl GameRecord {
    /// Whether resigning would have been a mistake: `None` unless the game was played
    /// through, otherwise `Some(true)` when the would-be resigner did not lose.
    pub fn resign_false_positive(&self) -> Option<bool> {
        self.resign_playthrough
            .map(|playthrough| self.outcome != Outcome::Win(playthrough.side.other()))
    }

    /// Why this record cannot have been written by self-play, if it cannot (see
    /// [`MoveRecord::defect`]).
    pub fn defect(&self) -> Option<String> {
        if let Some(handicap) = self.handicap
            && !(0.0..=1.0).contains(&handicap.random_decisions)
        {
            return Some(format!(
                "a handicap's random decisions {}",
                handicap.random_decisions
            ));
        }
        self.moves.iter().enumerate().find_map(|(index, played)| {
            played
                .defect()
                .map(|defect| format!("move {index}: {defect}"))
        })
    }

    /// The number of positions (one per move) this game contributes to training.
    pub fn positions(&self) -> usize {
        self.moves.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantised_policies_keep_their_ratios_and_drop_vanishing_moves() {
        let stored = quantise_policy(&[(3, 0.5), (9, 0.25), (4, 0.25), (7, 1e-7)]);
        assert_eq!(stored, [(3, 32_768), (9, 16_384), (4, 16_384)]);
        let total: u32 = stored.iter().map(|&(_, w)| w).sum();
        assert!(total.abs_diff(POLICY_WEIGHT_TOTAL) <= 2);
    }

    fn record(outcome: Outcome, resigner: Option<Side>) -> GameRecord {
        GameRecord {
            generation: 0,
            moves: Vec::new(),
            outcome,
            end_reason: "margin".into(),
            final_position: String::new(),
            resign_playthrough: resigner.map(|side| ResignPlaythrough {
                side,
                move_index: 0,
            }),
            handicap: None,
        }
    }

    #[test]
    fn resign_false_positive_compares_the_resigner_with_the_result() {
        assert_eq!(record(Outcome::Draw, None).resign_false_positive(), None);
        let lost = record(Outcome::Win(Side::Second), Some(Side::First));
        assert_eq!(lost.resign_false_positive(), Some(false));
        let won = record(Outcome::Win(Side::First), Some(Side::First));
        assert_eq!(won.resign_false_positive(), Some(true));
        let drawn = record(Outcome::Draw, Some(Side::Second));
        assert_eq!(drawn.resign_false_positive(), Some(true));
    }
}
