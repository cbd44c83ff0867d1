//! The options of a game of Vastuz: the board's size and the pie rule (VASTUZ.md section 1).

use hexgrid::Geometry;
use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Error)]
pub enum OptionsError {
    #[error("size must be 2..=13 points per side, got {0}")]
    Size(i64),
    #[error("pie must be 0 (off) or 1 (on), got {0}")]
    Pie(i64),
}

/// Options as a user writes them (a config's `[game]` table, `--rule key=value`): wide types,
/// so that an out-of-range value reaches [`RawOptions::validate`] and gets its message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawOptions {
    /// Points per side of the hexagon.
    pub size: i64,
    /// 1: White may answer Black's first stone with `swap`.
    pub pie: i64,
}

impl Default for RawOptions {
    fn default() -> Self {
        RawOptions { size: 5, pie: 1 }
    }
}

impl RawOptions {
    pub fn validate(self) -> Result<VastuzOptions, OptionsError> {
        if !(2..=13).contains(&self.size) {
            return Err(OptionsError::Size(self.size));
        }
        if !(0..=1).contains(&self.pie) {
            return Err(OptionsError::Pie(self.pie));
        }
        Ok(VastuzOptions { raw: self })
    }
}

/// Validated options; serialized as [`RawOptions`] and checked again when read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawOptions", into = "RawOptions")]
pub struct VastuzOptions {
    raw: RawOptions,
}

impl Default for VastuzOptions {
    fn default() -> Self {
        RawOptions::default()
            .validate()
            .expect("the default options are valid")
    }
}

impl TryFrom<RawOptions> for VastuzOptions {
    type Error = OptionsError;
    fn try_from(raw: RawOptions) -> Result<Self, OptionsError> {
        raw.validate()
    }
}

impl From<VastuzOptions> for RawOptions {
    fn from(options: VastuzOptions) -> Self {
        options.raw
    }
}

impl VastuzOptions {
    pub fn size(&self) -> u8 {
        self.raw.size as u8
    }

    pub fn pie(&self) -> bool {
        self.raw.pie == 1
    }

    pub fn geometry(&self) -> Geometry {
        Geometry::new(self.size())
    }
}
