//! The parameters of a game and their validation.
//!
//! [`GhastOptions`] can only hold valid values: it is built from [`RawOptions`] by
//! [`RawOptions::validate`] (deserialisation goes through it too), so a game can always be
//! started from it without a check that could fail.

use crate::tile::Tile;
use hexgrid::Geometry;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Why a set of options was rejected: each message names the option and the reason.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum OptionsError {
    #[error("size must be 2..=7, got {0}")]
    Size(i64),
    #[error("win_margin must be at least 1, got {0}")]
    WinMargin(i64),
    #[error("komi must be a finite multiple of 0.5, got {0}")]
    Komi(f64),
    #[error("vetoes for {side} must be 0..=255, got {count}")]
    Vetoes { side: &'static str, count: i64 },
    #[error("vetoes must be two counts `orange,blue` such as 1,2, got `{0}`")]
    VetoesSyntax(String),
    #[error("max_turns must be 1..=65535, got {0}")]
    MaxTurns(i64),
    #[error("tile: {0}")]
    Tile(String),
    #[error("fakerghast must be 0..=3 (turns before a pair is revealed; 0: off), got {0}")]
    Fakerghast(i64),
    #[error("fakes for {side} must be 0..=255, got {count}")]
    Fakes { side: &'static str, count: i64 },
    #[error("fakes must be two counts `orange,blue` such as 1,2, got `{0}`")]
    FakesSyntax(String),
    #[error("vetoes cannot be combined with fakerghast or fakes")]
    HidingWithVetoes,
    #[error("fakerghast and fakes cannot both be set: choose one variant")]
    BothHidings,
    #[error(
        "neither fakerghast nor fakes is set: that is standard Ghast (set fakerghast = 1..3, or fakes)"
    )]
    NoHiding,
}

/// One line on each of [`RawOptions`]' fields, in their order: the rules `ghast games` lists.
pub(crate) const RULES_HELP: [(&str, &str); 6] = [
    (
        "size",
        "hexes per side of the board, 2..=7 (6 is the standard board)",
    ),
    (
        "tile",
        "the tile: its couplers, ranged coupler and receiver",
    ),
    ("win_margin", "the tile lead that wins at once, at least 1"),
    ("komi", "points added to Blue's score, a multiple of 0.5"),
    ("vetoes", "vetoes of Orange and of Blue, as O,B"),
    (
        "max_turns",
        "turns after which the game ends as at passes (default: 4 times the hexes)",
    ),
];

/// Options as a user writes them, before validation; wide signed types so that a negative or
/// oversized value reaches [`RawOptions::validate`] and gets a message naming it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawOptions {
    pub size: i64,
    pub tile: Tile,
    pub win_margin: i64,
    pub komi: f64,
    /// Vetoes of Orange and of Blue.
    pub vetoes: [i64; 2],
    /// `None`: four times the number of hexes.
    pub max_turns: Option<i64>,
}

impl Default for RawOptions {
    fn default() -> Self {
        RawOptions {
            size: 6,
            tile: Tile::default(),
            win_margin: 9,
            komi: 0.0,
            vetoes: [0, 0],
            max_turns: None,
        }
    }
}

impl RawOptions {
    pub fn validate(self) -> Result<GhastOptions, OptionsError> {
        let size = u8::try_from(self.size)
            .ok()
            .filter(|s| (2..=7).contains(s))
            .ok_or(OptionsError::Size(self.size))?;
        let win_margin = u16::try_from(self.win_margin)
            .ok()
            .filter(|&m| m >= 1)
            .ok_or(OptionsError::WinMargin(self.win_margin))?;
        let half_komi = self.komi * 2.0;
        if !half_komi.is_finite() || half_komi.fract() != 0.0 || half_komi.abs() > 1e6 {
            return Err(OptionsError::Komi(self.komi));
        }
        let vetoes = counts(self.vetoes, |side, count| OptionsError::Vetoes {
            side,
            count,
        })?;
        let max_turns = match self.max_turns {
            None => 4 * Geometry::new(size).hexes() as u16,
            Some(t) => u16::try_from(t)
                .ok()
                .filter(|&t| t >= 1)
                .ok_or(OptionsError::MaxTurns(t))?,
        };
        self.tile.validate().map_err(OptionsError::Tile)?;
        Ok(GhastOptions {
            raw: self,
            size,
            win_margin,
            half_komi: half_komi as i32,
            vetoes,
            max_turns,
        })
    }
}

/// Parses the `O,B` form of the vetoes option (Orange's count, then Blue's).
pub fn parse_vetoes(text: &str) -> Result<[i64; 2], OptionsError> {
    parse_counts(text).ok_or_else(|| OptionsError::VetoesSyntax(text.to_string()))
}

/// Parses the `O,B` form of the fakes option (Orange's pairs, then Blue's).
pub fn parse_fakes(text: &str) -> Result<[i64; 2], OptionsError> {
    parse_counts(text).ok_or_else(|| OptionsError::FakesSyntax(text.to_string()))
}

fn parse_counts(text: &str) -> Option<[i64; 2]> {
    let (orange, blue) = text.split_once(',')?;
    let count = |part: &str| part.trim().parse::<i64>().ok();
    Some([count(orange)?, count(blue)?])
}

/// Two counts, Orange's then Blue's, each 0..=255.
pub(crate) fn counts(
    counts: [i64; 2],
    error: impl Fn(&'static str, i64) -> OptionsError,
) -> Result<[u8; 2], OptionsError> {
    let mut out = [0u8; 2];
    for ((slot, count), side) in out.iter_mut().zip(counts).zip(["orange", "blue"]) {
        *slot = u8::try_from(count).map_err(|_| error(side, count))?;
    }
    Ok(out)
}

/// Validated options of one game of Ghast. Serialises as its [`RawOptions`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawOptions", into = "RawOptions")]
pub struct GhastOptions {
    raw: RawOptions,
    size: u8,
    win_margin: u16,
    half_komi: i32,
    vetoes: [u8; 2],
    max_turns: u16,
}

impl Default for GhastOptions {
    /// The standard game: size 6, win margin 9, no komi, no vetoes, 364 turns.
    fn default() -> Self {
        RawOptions::default()
            .validate()
            .expect("the default options are valid")
    }
}

impl TryFrom<RawOptions> for GhastOptions {
    type Error = OptionsError;
    fn try_from(raw: RawOptions) -> Result<Self, OptionsError> {
        raw.validate()
    }
}

impl From<GhastOptions> for RawOptions {
    fn from(options: GhastOptions) -> Self {
        options.raw
    }
}

impl GhastOptions {
    pub fn raw(&self) -> &RawOptions {
        &self.raw
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    pub fn geometry(&self) -> Geometry {
        Geometry::new(self.size)
    }

    pub fn tile(&self) -> &Tile {
        &self.raw.tile
    }

    pub fn win_margin(&self) -> u16 {
        self.win_margin
    }

    /// Komi in half points, so that scores compare exactly.
    pub fn half_komi(&self) -> i32 {
        self.half_komi
    }

    pub fn komi(&self) -> f32 {
        self.half_komi as f32 / 2.0
    }

    /// Vetoes of Orange and of Blue at the start.
    pub fn vetoes(&self) -> [u8; 2] {
        self.vetoes
    }

    pub fn max_turns(&self) -> u16 {
        self.max_turns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(raw: RawOptions) -> String {
        raw.validate().unwrap_err().to_string()
    }

    #[test]
    fn defaults_are_the_standard_game() {
        let options = GhastOptions::default();
        assert_eq!(
            (options.size(), options.win_margin(), options.max_turns()),
            (6, 9, 364)
        );
        assert_eq!(options.vetoes(), [0, 0]);
    }

    #[test]
    fn bad_values_name_the_option() {
        let base = RawOptions::default;
        assert_eq!(
            error(RawOptions { size: 1, ..base() }),
            "size must be 2..=7, got 1"
        );
        assert_eq!(
            error(RawOptions { size: 8, ..base() }),
            "size must be 2..=7, got 8"
        );
        assert_eq!(
            error(RawOptions {
                win_margin: -3,
                ..base()
            }),
            "win_margin must be at least 1, got -3"
        );
        assert_eq!(
            error(RawOptions {
                komi: 0.3,
                ..base()
            }),
            "komi must be a finite multiple of 0.5, got 0.3"
        );
        assert_eq!(
            error(RawOptions {
                vetoes: [1, -1],
                ..base()
            }),
            "vetoes for blue must be 0..=255, got -1"
        );
        assert_eq!(
            error(RawOptions {
                max_turns: Some(0),
                ..base()
            }),
            "max_turns must be 1..=65535, got 0"
        );
        assert!(
            RawOptions {
                komi: -1.5,
                ..base()
            }
            .validate()
            .is_ok()
        );
    }

    #[test]
    fn vetoes_parse_as_orange_then_blue() {
        assert_eq!(parse_vetoes("2,3"), Ok([2, 3]));
        assert_eq!(parse_vetoes("1,-2"), Ok([1, -2]));
        assert!(matches!(
            parse_vetoes("2"),
            Err(OptionsError::VetoesSyntax(_))
        ));
    }

    #[test]
    fn deserialising_validates() {
        let json = serde_json::to_string(&RawOptions {
            size: 9,
            ..RawOptions::default()
        })
        .unwrap();
        let error = serde_json::from_str::<GhastOptions>(&json).unwrap_err();
        assert!(
            error.to_string().contains("size must be 2..=7, got 9"),
            "{error}"
        );
        let options = GhastOptions::default();
        let back: GhastOptions =
            serde_json::from_str(&serde_json::to_string(&options).unwrap()).unwrap();
        assert_eq!(back, options);
    }
}
