//! Self-play's resignation threshold, calibrated from the games it plays through (AlphaGo
//! Zero's rule): the most eager threshold, up to the configured one, at which no more than a
//! target share of the would-be resignations gave up a game that was not lost.
//!
//! A fixed threshold fits no whole run: an untrained net's values say nothing, and a trained
//! one's may be overconfident. On the two-hour Ghodak run (BENCHMARKS.md), 18% of the
//! would-be resignations under a fixed -0.9 (of a value with the lead weighed in) were of
//! games the resigning side went on to win: each of those, resigned, is a wrong value target.

use std::collections::VecDeque;

use game::{Outcome, Side};

/// Sides of played-through games the calibration remembers: the newest ones, so that it
/// follows the net as it learns.
const REMEMBERED_SIDES: usize = 1000;

/// Would-be resignations it needs before self-play resigns at all: until then every game is
/// played through, so an untrained net never resigns.
const MIN_WOULD_BE_RESIGNATIONS: usize = 20;

/// One side of a played-through game: the highest threshold at which it would have resigned
/// (its trigger level) and whether it went on not to lose.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SideVerdict {
    pub trigger: f32,
    pub not_lost: bool,
}

/// Both sides' trigger levels in one game, as its decisions come: the lowest, over each run
/// of `consecutive_moves` of the side's decisions, of the highest game value in the run. A
/// side resigns under threshold `t` exactly when its trigger level is below `t`.
#[derive(Clone, Debug)]
pub struct TriggerLevels {
    recent: [VecDeque<f32>; 2],
    trigger: [f32; 2],
}

impl Default for TriggerLevels {
    fn default() -> Self {
        Self {
            recent: Default::default(),
            trigger: [f32::INFINITY; 2],
        }
    }
}

impl TriggerLevels {
    /// `side`'s searched game value before one of its decisions.
    pub fn observe(&mut self, side: Side, game_value: f32, consecutive_moves: u32) {
        let window = consecutive_moves.max(1) as usize;
        let recent = &mut self.recent[side.index()];
        if recent.len() == window {
            recent.pop_front();
        }
        recent.push_back(game_value);
        if recent.len() == window {
            let best = recent.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let trigger = &mut self.trigger[side.index()];
            *trigger = trigger.min(best);
        }
    }

    /// Both sides' verdicts once the game ended with `outcome` (a draw is lost by neither).
    pub fn verdicts(&self, outcome: Outcome) -> [SideVerdict; 2] {
        Side::BOTH.map(|side| SideVerdict {
            trigger: self.trigger[side.index()],
            not_lost: outcome != Outcome::Win(side.other()),
        })
    }
}

/// The threshold self-play resigns at, from the verdicts of the games it played through.
#[derive(Clone, Debug)]
pub struct ResignCalibration {
    /// Largest share of would-be resignations that may be of games not lost.
    false_positive_target: f64,
    /// The configured threshold: calibration never resigns more eagerly.
    ceiling: f64,
    verdicts: VecDeque<SideVerdict>,
    threshold: Option<f64>,
}

impl ResignCalibration {
    pub fn new(false_positive_target: f64, ceiling: f64) -> Self {
        Self {
            false_positive_target,
            ceiling,
            verdicts: VecDeque::with_capacity(REMEMBERED_SIDES),
            threshold: None,
        }
    }

    /// The threshold to resign at; `None` while the evidence is too thin to resign at all.
    pub fn threshold(&self) -> Option<f64> {
        self.threshold
    }

    /// Adds the verdicts of a game played to its end, and calibrates again.
    pub fn record(&mut self, verdicts: [SideVerdict; 2]) {
        for verdict in verdicts {
            if self.verdicts.len() == REMEMBERED_SIDES {
                self.verdicts.pop_front();
            }
            self.verdicts.push_back(verdict);
        }
        self.threshold = self.calibrate();
    }

    /// The highest threshold up to the ceiling at which the would-be resignations, those with
    /// a trigger level below it, hold at most the target share of games not lost; at worst
    /// the lowest trigger level seen, at which none of them would have resigned.
    fn calibrate(&self) -> Option<f64> {
        let mut would_resign: Vec<SideVerdict> = self
            .verdicts
            .iter()
            .filter(|verdict| f64::from(verdict.trigger) < self.ceiling)
            .copied()
            .collect();
        if would_resign.len() < MIN_WOULD_BE_RESIGNATIONS {
            return None;
        }
        would_resign.sort_by(|a, b| a.trigger.total_cmp(&b.trigger));
        let mut threshold = f64::from(would_resign[0].trigger);
        let mut false_positives = 0usize;
        for (index, verdict) in would_resign.iter().enumerate() {
            false_positives += usize::from(verdict.not_lost);
            let next = would_resign
                .get(index + 1)
                .map_or(self.ceiling, |next| f64::from(next.trigger));
            let resigned = (index + 1) as f64;
            if next > f64::from(verdict.trigger)
                && false_positives as f64 <= self.false_positive_target * resigned
            {
                threshold = next;
            }
        }
        Some(threshold)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(trigger: f32, not_lost: bool) -> [SideVerdict; 2] {
        let never = SideVerdict {
            trigger: f32::INFINITY,
            not_lost: !not_lost,
        };
        [SideVerdict { trigger, not_lost }, never]
    }

    #[test]
    fn a_trigger_level_is_the_lowest_best_value_of_a_run_of_decisions() {
        let mut levels = TriggerLevels::default();
        for value in [-0.2, -0.95, -0.97, -0.5, -0.99, -0.96] {
            levels.observe(Side::First, value, 2);
        }
        levels.observe(Side::Second, -1.0, 2);
        let [first, second] = levels.verdicts(Outcome::Win(Side::Second));
        // The best of each run of two: -0.2, -0.95, -0.5, -0.5, -0.96.
        assert_eq!(first.trigger, -0.96);
        assert!(!first.not_lost);
        assert_eq!(
            second.trigger,
            f32::INFINITY,
            "one decision is no run of two"
        );
        assert!(second.not_lost);
        let [drawn, _] = levels.verdicts(Outcome::Draw);
        assert!(drawn.not_lost, "a drawn game was not lost");
    }

    #[test]
    fn no_resignation_before_enough_would_be_resignations() {
        let mut calibration = ResignCalibration::new(0.05, -0.9);
        for _ in 0..MIN_WOULD_BE_RESIGNATIONS / 2 - 1 {
            calibration.record([
                SideVerdict {
                    trigger: -0.95,
                    not_lost: false,
                },
                SideVerdict {
                    trigger: -0.99,
                    not_lost: false,
                },
            ]);
            // Triggers at or above the ceiling are no would-be resignations.
            calibration.record(verdict(-0.5, true));
        }
        assert_eq!(calibration.threshold(), None);
        calibration.record(verdict(-0.97, false));
        calibration.record(verdict(-0.97, false));
        assert_eq!(
            calibration.threshold(),
            Some(-0.9),
            "no false one: the ceiling"
        );
    }

    #[test]
    fn the_threshold_falls_until_the_false_share_meets_the_target() {
        let mut calibration = ResignCalibration::new(0.1, -0.9);
        // 40 sides lost from -0.99; 10 more that reached -0.95, half of which won.
        for _ in 0..40 {
            calibration.record(verdict(-0.99, false));
        }
        for index in 0..10 {
            calibration.record(verdict(-0.95, index % 2 == 0));
        }
        // At -0.9 the 50 would-be resignations hold 5 wins (10%, on target)...
        assert_eq!(calibration.threshold(), Some(-0.9));
        calibration.record(verdict(-0.95, true));
        // ... one more makes 6 of 51: only the 40 below -0.95 stay resigned.
        assert_eq!(calibration.threshold(), Some(-0.95_f32 as f64));
        for _ in 0..5 {
            calibration.record(verdict(-0.995, true));
        }
        // Now even the lowest levels are too often wrong: resign below all of them.
        assert_eq!(calibration.threshold(), Some(-0.995_f32 as f64));
    }
}
