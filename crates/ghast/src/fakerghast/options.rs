//! The options of Fakerghast (RULES.md 9.1): Ghast's, without vetoes, plus how tiles are
//! hidden.

use crate::options::{GhastOptions, OptionsError, RawOptions, counts};
use crate::tile::Tile;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// How RULES.md 9.1 hides tiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hiding {
    /// `fakerghast = D`: every placement is a pair, revealed `delay` of its owner's turns
    /// later.
    EveryTurn { delay: u8 },
    /// `fakes = (orange, blue)`: each side may place that many pairs in a game instead of
    /// single tiles, each revealed at the end of its owner's next turn.
    Fakes { pairs: [u8; 2] },
}

impl Hiding {
    /// Owner's turns from a pair's placement to its reveal.
    pub fn delay(self) -> u8 {
        match self {
            Hiding::EveryTurn { delay } => delay,
            Hiding::Fakes { .. } => 1,
        }
    }

    /// Pairs each side may place, `None` when every placement is one.
    pub fn fakes(self) -> Option<[u8; 2]> {
        match self {
            Hiding::EveryTurn { .. } => None,
            Hiding::Fakes { pairs } => Some(pairs),
        }
    }
}

/// One line on each of [`RawFakerghastOptions`]' fields: Ghast's rules, then the two of hiding.
pub(crate) const RULES_HELP: [(&str, &str); 8] = {
    let ghast = crate::options::RULES_HELP;
    [
        ghast[0],
        ghast[1],
        ghast[2],
        ghast[3],
        ghast[4],
        ghast[5],
        (
            "fakerghast",
            "turns of its owner before a pair is revealed, 1..=3 (default 2; 0 with fakes)",
        ),
        (
            "fakes",
            "the few-fakes variant: pairs Orange and Blue may place, as O,B, each revealed at its owner's next turn",
        ),
    ]
};

/// Fakerghast options as a user writes them: Ghast's, `fakerghast` and `fakes`. Vetoes are
/// here only so that setting them gets the rules' own error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawFakerghastOptions {
    pub size: i64,
    pub tile: Tile,
    pub win_margin: i64,
    pub komi: f64,
    pub vetoes: [i64; 2],
    pub max_turns: Option<i64>,
    /// Turns of its owner before a pair is revealed, 1..=3; 0 when `fakes` is used instead.
    /// Left out: 2, or 0 when `fakes` is set, so that either option alone chooses its variant.
    pub fakerghast: Option<i64>,
    /// Pairs of Orange and of Blue under the "a few fake moves" variant.
    pub fakes: [i64; 2],
}

impl Default for RawFakerghastOptions {
    /// The game of the original text on the standard board: size 6, margin 9, D = 2.
    fn default() -> Self {
        let ghast = RawOptions::default();
        RawFakerghastOptions {
            size: ghast.size,
            tile: ghast.tile,
            win_margin: ghast.win_margin,
            komi: ghast.komi,
            vetoes: ghast.vetoes,
            max_turns: ghast.max_turns,
            fakerghast: None,
            fakes: [0, 0],
        }
    }
}

impl RawFakerghastOptions {
    pub fn validate(self) -> Result<FakerghastOptions, OptionsError> {
        let ghast = RawOptions {
            size: self.size,
            tile: self.tile.clone(),
            win_margin: self.win_margin,
            komi: self.komi,
            vetoes: self.vetoes,
            max_turns: self.max_turns,
        }
        .validate()?;
        let fakerghast = match self.fakerghast {
            Some(delay) => delay,
            None if self.fakes == [0, 0] => 2,
            None => 0,
        };
        let delay = u8::try_from(fakerghast)
            .ok()
            .filter(|&d| d <= 3)
            .ok_or(OptionsError::Fakerghast(fakerghast))?;
        let pairs = counts(self.fakes, |side, count| OptionsError::Fakes {
            side,
            count,
        })?;
        let hiding = match (delay, pairs) {
            (0, [0, 0]) => return Err(OptionsError::NoHiding),
            (0, pairs) => Hiding::Fakes { pairs },
            (delay, [0, 0]) => Hiding::EveryTurn { delay },
            _ => return Err(OptionsError::BothHidings),
        };
        if ghast.vetoes() != [0, 0] {
            return Err(OptionsError::HidingWithVetoes);
        }
        Ok(FakerghastOptions {
            raw: self,
            ghast,
            hiding,
        })
    }
}

/// Validated options of one game of Fakerghast. Serialises as its [`RawFakerghastOptions`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawFakerghastOptions", into = "RawFakerghastOptions")]
pub struct FakerghastOptions {
    raw: RawFakerghastOptions,
    ghast: GhastOptions,
    hiding: Hiding,
}

impl Default for FakerghastOptions {
    fn default() -> Self {
        RawFakerghastOptions::default()
            .validate()
            .expect("the default options are valid")
    }
}

impl TryFrom<RawFakerghastOptions> for FakerghastOptions {
    type Error = OptionsError;
    fn try_from(raw: RawFakerghastOptions) -> Result<Self, OptionsError> {
        raw.validate()
    }
}

impl From<FakerghastOptions> for RawFakerghastOptions {
    fn from(options: FakerghastOptions) -> Self {
        options.raw
    }
}

impl FakerghastOptions {
    pub fn raw(&self) -> &RawFakerghastOptions {
        &self.raw
    }

    /// The rules of sections 1-8 that hold under this variant (no vetoes).
    pub fn ghast(&self) -> &GhastOptions {
        &self.ghast
    }

    pub fn hiding(&self) -> Hiding {
        self.hiding
    }
}

/// The same options for the life of the process, so that a game state holds a plain
/// reference: the tile pattern owns a vector, which search, copying states constantly, must
/// not clone. A process sees a handful of option sets.
pub(crate) fn intern(options: &FakerghastOptions) -> &'static FakerghastOptions {
    static INTERNED: Mutex<Vec<&'static FakerghastOptions>> = Mutex::new(Vec::new());
    let mut interned = INTERNED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&found) = interned.iter().find(|&&known| known == options) {
        return found;
    }
    let leaked: &'static FakerghastOptions = Box::leak(Box::new(options.clone()));
    interned.push(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(raw: RawFakerghastOptions) -> String {
        raw.validate().unwrap_err().to_string()
    }

    #[test]
    fn each_variant_validates_and_bad_combinations_say_why() {
        let base = RawFakerghastOptions::default;
        assert_eq!(
            FakerghastOptions::default().hiding(),
            Hiding::EveryTurn { delay: 2 }
        );
        let fakes = RawFakerghastOptions {
            fakes: [3, 2],
            ..base()
        };
        assert_eq!(
            fakes.validate().unwrap().hiding(),
            Hiding::Fakes { pairs: [3, 2] }
        );
        assert_eq!(
            error(RawFakerghastOptions {
                fakerghast: Some(4),
                ..base()
            }),
            "fakerghast must be 0..=3 (turns before a pair is revealed; 0: off), got 4"
        );
        assert_eq!(
            error(RawFakerghastOptions {
                fakerghast: Some(2),
                fakes: [1, 0],
                ..base()
            }),
            "fakerghast and fakes cannot both be set: choose one variant"
        );
        assert!(
            error(RawFakerghastOptions {
                fakerghast: Some(0),
                ..base()
            })
            .starts_with("neither fakerghast nor fakes is set")
        );
        assert_eq!(
            error(RawFakerghastOptions {
                vetoes: [1, 0],
                ..base()
            }),
            "vetoes cannot be combined with fakerghast or fakes"
        );
        assert_eq!(
            error(RawFakerghastOptions {
                fakes: [0, 300],
                ..base()
            }),
            "fakes for blue must be 0..=255, got 300"
        );
        assert_eq!(
            error(RawFakerghastOptions { size: 9, ..base() }),
            "size must be 2..=7, got 9"
        );
    }
}
