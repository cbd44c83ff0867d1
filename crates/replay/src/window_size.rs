//! How many of the newest positions the trainer samples from (KataGo's power-law window).
//!
//! Early data comes from weak models and should leave the window quickly; later the window
//! grows so that the trainer does not overfit a narrow slice of recent games. KataGo grows
//! it sublinearly with the number of positions ever written.

use serde::{Deserialize, Serialize};

/// The parameters of `window(N) = c * (1 + beta * ((N / c)^alpha - 1) / alpha)` for `N > c`,
/// and `window(N) = N` below, so every position is used until there are `c` of them.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WindowConfig {
    /// The number of positions below which the window holds everything.
    pub c: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Default for WindowConfig {
    /// KataGo's values.
    fn default() -> Self {
        Self {
            c: 250_000.0,
            alpha: 0.75,
            beta: 0.4,
        }
    }
}

impl WindowConfig {
    /// The window size for `total` positions ever written, rounded down.
    pub fn size(&self, total: u64) -> u64 {
        let n = total as f64;
        if n <= self.c {
            return total;
        }
        let grown = (n / self.c).powf(self.alpha) - 1.0;
        let window = self.c * (1.0 + self.beta * grown / self.alpha);
        (window as u64).min(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(c: f64) -> WindowConfig {
        WindowConfig {
            c,
            ..WindowConfig::default()
        }
    }

    #[test]
    fn holds_everything_up_to_c() {
        for total in [0, 1, 99, 100] {
            assert_eq!(config(100.0).size(total), total);
        }
    }

    #[test]
    fn matches_hand_calculations() {
        // 16^0.75 = 8: 100 * (1 + 0.4 * 7 / 0.75) = 473.33
        assert_eq!(config(100.0).size(1_600), 473);
        // 81^0.75 = 27: 100 * (1 + 0.4 * 26 / 0.75) = 1486.67
        assert_eq!(config(100.0).size(8_100), 1_486);
        // 16^0.75 = 8 again at KataGo's c: 250000 * (1 + 0.4 * 7 / 0.75) = 1_183_333.33
        assert_eq!(WindowConfig::default().size(4_000_000), 1_183_333);
    }

    #[test]
    fn grows_continuously_and_monotonically_past_c() {
        let config = config(100.0);
        assert_eq!(config.size(101), 100);
        let sizes: Vec<u64> = (100..5_000).map(|total| config.size(total)).collect();
        assert!(sizes.windows(2).all(|pair| pair[0] <= pair[1]));
    }

    #[test]
    fn missing_fields_take_katago_defaults() {
        let config: WindowConfig = serde_json::from_str(r#"{"c": 1000.0}"#).unwrap();
        assert_eq!(
            config,
            WindowConfig {
                c: 1000.0,
                ..WindowConfig::default()
            }
        );
    }
}
