//! The options of a game of Qast: the plank's length, Black's set-up disc on gold, and the
//! round limit (QAST.md section 1).

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Error)]
pub enum OptionsError {
    #[error("side must be odd and 19..=39 spaces, got {0}")]
    Side(i64),
    #[error("black_gold must be 0 (off) or 1 (on), got {0}")]
    BlackGold(i64),
    #[error("max_rounds must be 1..=100000, got {0}")]
    MaxRounds(i64),
}

/// Options as a user writes them (a config's `[game]` table, `--rule key=value`): wide types,
/// so that an out-of-range value reaches [`RawOptions::validate`] and gets its message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawOptions {
    /// Spaces on each long side of the track, corners included; the ring has 2 side + 2.
    pub side: i64,
    /// 1: Black's third set-up placement may go straight to a gold circle.
    pub black_gold: i64,
    /// Rounds after which the count of the race decides the game.
    pub max_rounds: i64,
}

impl Default for RawOptions {
    fn default() -> Self {
        RawOptions {
            side: 19,
            black_gold: 1,
            max_rounds: 200,
        }
    }
}

impl RawOptions {
    pub fn validate(self) -> Result<QastOptions, OptionsError> {
        if !(19..=39).contains(&self.side) || self.side % 2 == 0 {
            return Err(OptionsError::Side(self.side));
        }
        if !(0..=1).contains(&self.black_gold) {
            return Err(OptionsError::BlackGold(self.black_gold));
        }
        if !(1..=100_000).contains(&self.max_rounds) {
            return Err(OptionsError::MaxRounds(self.max_rounds));
        }
        Ok(QastOptions { raw: self })
    }
}

/// Validated options; serialized as [`RawOptions`] and checked again when read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawOptions", into = "RawOptions")]
pub struct QastOptions {
    raw: RawOptions,
}

impl Default for QastOptions {
    fn default() -> Self {
        RawOptions::default()
            .validate()
            .expect("the default options are valid")
    }
}

impl TryFrom<RawOptions> for QastOptions {
    type Error = OptionsError;
    fn try_from(raw: RawOptions) -> Result<Self, OptionsError> {
        raw.validate()
    }
}

impl From<QastOptions> for RawOptions {
    fn from(options: QastOptions) -> Self {
        options.raw
    }
}

impl QastOptions {
    pub fn side(&self) -> usize {
        self.raw.side as usize
    }

    /// Spaces on the ring: 2 side + 2.
    pub fn track(&self) -> usize {
        2 * self.side() + 2
    }

    pub fn black_gold(&self) -> bool {
        self.raw.black_gold == 1
    }

    pub fn max_rounds(&self) -> u32 {
        self.raw.max_rounds as u32
    }
}
