//! The options of a game of Ghost Chess: the turn limit (GHOST-CHESS.md section 8).

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Error)]
pub enum OptionsError {
    #[error("max_moves must be 1..=100000 turns, got {0}")]
    MaxMoves(i64),
}

/// Options as a user writes them (a config's `[game]` table, `--rule key=value`): wide types,
/// so that an out-of-range value reaches [`RawOptions::validate`] and gets its message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawOptions {
    /// Turns (both players' counted) after which White wins, if nothing ended the game.
    pub max_moves: i64,
}

impl Default for RawOptions {
    fn default() -> Self {
        RawOptions { max_moves: 200 }
    }
}

impl RawOptions {
    pub fn validate(self) -> Result<GhostChessOptions, OptionsError> {
        if !(1..=100_000).contains(&self.max_moves) {
            return Err(OptionsError::MaxMoves(self.max_moves));
        }
        Ok(GhostChessOptions { raw: self })
    }
}

/// Validated options; serialized as [`RawOptions`] and checked again when read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawOptions", into = "RawOptions")]
pub struct GhostChessOptions {
    raw: RawOptions,
}

impl Default for GhostChessOptions {
    fn default() -> Self {
        RawOptions::default()
            .validate()
            .expect("the default options are valid")
    }
}

impl TryFrom<RawOptions> for GhostChessOptions {
    type Error = OptionsError;
    fn try_from(raw: RawOptions) -> Result<Self, OptionsError> {
        raw.validate()
    }
}

impl From<GhostChessOptions> for RawOptions {
    fn from(options: GhostChessOptions) -> Self {
        options.raw
    }
}

impl GhostChessOptions {
    /// The last turn: when it ends and nothing else has ended the game, White wins.
    pub fn max_moves(&self) -> u32 {
        self.raw.max_moves as u32
    }
}
