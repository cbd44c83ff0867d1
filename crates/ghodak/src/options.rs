//! The parameters of a game (GHODAK.md sections 1 and 3): board size, komi and the move limit.

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Error)]
pub enum OptionsError {
    #[error("size must be 5..=19, got {0}")]
    Size(i64),
    #[error("komi must be a finite multiple of 0.5, got {0}")]
    Komi(f64),
    #[error("max_moves must be 1..=65535, got {0}")]
    MaxMoves(i64),
}

/// Options as a user writes them (config files, the command line): wide types, so that an
/// out-of-range value reaches [`RawOptions::validate`] and gets its message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawOptions {
    pub size: i64,
    pub komi: f64,
    /// Moves (passes included) after which the game is scored; default 3 x size x size.
    pub max_moves: Option<i64>,
}

impl Default for RawOptions {
    fn default() -> Self {
        RawOptions {
            size: 9,
            komi: 7.5,
            max_moves: None,
        }
    }
}

impl RawOptions {
    pub fn validate(self) -> Result<GhodakOptions, OptionsError> {
        let size = u8::try_from(self.size)
            .ok()
            .filter(|s| (5..=19).contains(s))
            .ok_or(OptionsError::Size(self.size))?;
        let half_komi = self.komi * 2.0;
        if !half_komi.is_finite() || half_komi.fract() != 0.0 || half_komi.abs() > 1e6 {
            return Err(OptionsError::Komi(self.komi));
        }
        let max_moves = match self.max_moves {
            None => 3 * u16::from(size) * u16::from(size),
            Some(m) => u16::try_from(m)
                .ok()
                .filter(|&m| m >= 1)
                .ok_or(OptionsError::MaxMoves(m))?,
        };
        Ok(GhodakOptions {
            raw: self,
            size,
            half_komi: half_komi as i32,
            max_moves,
        })
    }
}

/// Validated options. Serialized as [`RawOptions`], so that checkpoints and records hold what
/// the user wrote, and checked again when read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawOptions", into = "RawOptions")]
pub struct GhodakOptions {
    raw: RawOptions,
    size: u8,
    half_komi: i32,
    max_moves: u16,
}

impl Default for GhodakOptions {
    fn default() -> Self {
        RawOptions::default()
            .validate()
            .expect("the default options are valid")
    }
}

impl TryFrom<RawOptions> for GhodakOptions {
    type Error = OptionsError;
    fn try_from(raw: RawOptions) -> Result<Self, OptionsError> {
        raw.validate()
    }
}

impl From<GhodakOptions> for RawOptions {
    fn from(options: GhodakOptions) -> Self {
        options.raw
    }
}

impl GhodakOptions {
    pub fn raw(&self) -> &RawOptions {
        &self.raw
    }

    /// Intersections per side.
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// Intersections on the board.
    pub fn points(&self) -> usize {
        self.size() * self.size()
    }

    /// Twice the komi, so that scores stay integers.
    pub fn half_komi(&self) -> i32 {
        self.half_komi
    }

    pub fn komi(&self) -> f32 {
        self.half_komi as f32 / 2.0
    }

    pub fn max_moves(&self) -> u16 {
        self.max_moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(raw: RawOptions) -> Result<GhodakOptions, String> {
        raw.validate().map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_follow_the_rules_page() {
        let options = GhodakOptions::default();
        assert_eq!((options.size(), options.komi()), (9, 7.5));
        assert_eq!(options.max_moves(), 243);
    }

    #[test]
    fn out_of_range_values_are_named() {
        let bad = |raw: RawOptions| check(raw).unwrap_err();
        let base = RawOptions::default();
        assert_eq!(
            bad(RawOptions {
                size: 4,
                ..base.clone()
            }),
            "size must be 5..=19, got 4"
        );
        assert_eq!(
            bad(RawOptions {
                size: 20,
                ..base.clone()
            }),
            "size must be 5..=19, got 20"
        );
        assert_eq!(
            bad(RawOptions {
                komi: 0.3,
                ..base.clone()
            }),
            "komi must be a finite multiple of 0.5, got 0.3"
        );
        assert_eq!(
            bad(RawOptions {
                max_moves: Some(0),
                ..base
            }),
            "max_moves must be 1..=65535, got 0"
        );
    }

    #[test]
    fn serialized_options_are_validated_when_read() {
        let json = serde_json::to_string(&GhodakOptions::default()).unwrap();
        let back: GhodakOptions = serde_json::from_str(&json).unwrap();
        assert_eq!(back, GhodakOptions::default());
        let bad = r#"{"size": 3, "komi": 7.5, "max_moves": null}"#;
        assert!(serde_json::from_str::<GhodakOptions>(bad).is_err());
    }
}
