use crate::ResignConfig;
use game::Side;

/// Tracks, per side, how many of its moves in a row its root value was hopeless.
#[derive(Clone, Debug, Default)]
pub struct ResignWatch {
    hopeless_moves: [u32; 2],
}

impl ResignWatch {
    /// Records `side`'s root value before its move; true when that side should now resign.
    pub fn observe(&mut self, config: &ResignConfig, side: Side, root_value: f32) -> bool {
        let streak = &mut self.hopeless_moves[side.index()];
        if root_value < config.threshold {
            *streak += 1;
        } else {
            *streak = 0;
        }
        config.consecutive_moves > 0 && *streak >= config.consecutive_moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigns_only_after_a_streak_of_hopeless_moves() {
        let config = ResignConfig {
            threshold: -0.9,
            consecutive_moves: 2,
            playthrough_fraction: 0.0,
        };
        let mut watch = ResignWatch::default();
        assert!(!watch.observe(&config, Side::First, -0.95));
        assert!(
            !watch.observe(&config, Side::Second, -0.95),
            "streaks are per side"
        );
        assert!(
            !watch.observe(&config, Side::First, -0.5),
            "a hopeful move breaks the streak"
        );
        assert!(!watch.observe(&config, Side::First, -0.95));
        assert!(watch.observe(&config, Side::First, -0.99));
    }

    #[test]
    fn zero_consecutive_moves_turns_resignation_off() {
        let config = ResignConfig {
            threshold: 0.5,
            consecutive_moves: 0,
            playthrough_fraction: 0.0,
        };
        let mut watch = ResignWatch::default();
        assert!(!(0..10).any(|_| watch.observe(&config, Side::First, -1.0)));
    }
}
