//! When a searching player gives up: the same rule for self-play (which plays some games on to
//! measure how often giving up was wrong) and for a bot in play (KataGo's `resignThreshold`
//! and `resignConsecTurns`).

use game::Side;
use serde::{Deserialize, Serialize};

/// A side resigns when its search's root game value (win minus loss probability, without the
/// score term the search may add: a lead still to be lost is no lost game) stays below
/// `threshold` for `consecutive_moves` of its decisions in a row. The
/// threshold is an f64 so that `bot.toml` shows it as written (-0.9, not -0.8999999761581421).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResignRule {
    pub threshold: f64,
    /// 0: never resign.
    pub consecutive_moves: u32,
}

impl ResignRule {
    /// The rule that never resigns, what a bot plays by unless its settings say otherwise.
    pub const NEVER: ResignRule = ResignRule {
        threshold: -0.9,
        consecutive_moves: 0,
    };

    pub fn is_never(&self) -> bool {
        self.consecutive_moves == 0
    }
}

impl Default for ResignRule {
    fn default() -> Self {
        ResignRule::NEVER
    }
}

/// Tracks, per side, how many of its decisions in a row its root value was hopeless.
#[derive(Clone, Debug, Default)]
pub struct ResignWatch {
    hopeless_moves: [u32; 2],
}

impl ResignWatch {
    /// Records `side`'s root game value before its decision; true when that side should now
    /// resign.
    pub fn observe(&mut self, rule: &ResignRule, side: Side, game_value: f32) -> bool {
        let streak = &mut self.hopeless_moves[side.index()];
        if f64::from(game_value) < rule.threshold {
            *streak += 1;
        } else {
            *streak = 0;
        }
        !rule.is_never() && *streak >= rule.consecutive_moves
    }

    /// A new game: no streaks.
    pub fn clear(&mut self) {
        self.hopeless_moves = [0; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigns_only_after_a_streak_of_hopeless_moves() {
        let rule = ResignRule {
            threshold: -0.9,
            consecutive_moves: 2,
        };
        let mut watch = ResignWatch::default();
        assert!(!watch.observe(&rule, Side::First, -0.95));
        assert!(
            !watch.observe(&rule, Side::Second, -0.95),
            "streaks are per side"
        );
        assert!(
            !watch.observe(&rule, Side::First, -0.5),
            "a hopeful move breaks the streak"
        );
        assert!(!watch.observe(&rule, Side::First, -0.95));
        assert!(watch.observe(&rule, Side::First, -0.99));
        watch.clear();
        assert!(
            !watch.observe(&rule, Side::First, -0.99),
            "a new game starts without a streak"
        );
    }

    #[test]
    fn zero_consecutive_moves_turns_resignation_off() {
        let rule = ResignRule {
            threshold: 0.5,
            consecutive_moves: 0,
        };
        let mut watch = ResignWatch::default();
        assert!(!(0..10).any(|_| watch.observe(&rule, Side::First, -1.0)));
        assert_eq!(ResignRule::default(), ResignRule::NEVER);
    }
}
