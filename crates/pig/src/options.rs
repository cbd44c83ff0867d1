//! The options of a game of Pig: the target, the die and the turn limit.

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Error)]
pub enum OptionsError {
    #[error("target must be 2..=1000, got {0}")]
    Target(i64),
    #[error("faces must be 2..=20, got {0}")]
    Faces(i64),
    #[error("max_turns must be 2..=10000, got {0}")]
    MaxTurns(i64),
}

/// Options as a user writes them (a config's `[game]` table, `--rule key=value`): wide types,
/// so that an out-of-range value reaches [`RawOptions::validate`] and gets its message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawOptions {
    /// Banked points that win.
    pub target: i64,
    /// Faces of the die, numbered 1 to `faces`; a 1 loses the turn total.
    pub faces: i64,
    /// Turns after which the higher banked score wins (equal scores draw).
    pub max_turns: i64,
}

impl Default for RawOptions {
    fn default() -> Self {
        RawOptions {
            target: 30,
            faces: 6,
            max_turns: 100,
        }
    }
}

impl RawOptions {
    pub fn validate(self) -> Result<PigOptions, OptionsError> {
        let in_range = |value: i64, low: i64, high: i64| (low..=high).contains(&value);
        if !in_range(self.target, 2, 1000) {
            return Err(OptionsError::Target(self.target));
        }
        if !in_range(self.faces, 2, 20) {
            return Err(OptionsError::Faces(self.faces));
        }
        if !in_range(self.max_turns, 2, 10_000) {
            return Err(OptionsError::MaxTurns(self.max_turns));
        }
        Ok(PigOptions { raw: self })
    }
}

/// Validated options; serialized as [`RawOptions`] and checked again when read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawOptions", into = "RawOptions")]
pub struct PigOptions {
    raw: RawOptions,
}

impl Default for PigOptions {
    fn default() -> Self {
        RawOptions::default()
            .validate()
            .expect("the default options are valid")
    }
}

impl TryFrom<RawOptions> for PigOptions {
    type Error = OptionsError;
    fn try_from(raw: RawOptions) -> Result<Self, OptionsError> {
        raw.validate()
    }
}

impl From<PigOptions> for RawOptions {
    fn from(options: PigOptions) -> Self {
        options.raw
    }
}

impl PigOptions {
    pub fn target(&self) -> u32 {
        self.raw.target as u32
    }

    pub fn faces(&self) -> u32 {
        self.raw.faces as u32
    }

    pub fn max_turns(&self) -> u32 {
        self.raw.max_turns as u32
    }
}
