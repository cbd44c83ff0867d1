//! The names the page and the API use for the two sides.

use game::Side;
use serde::{Deserialize, Serialize};

/// A side by its tile colour: Orange moves first (`Side::First`), Blue second.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Orange,
    Blue,
}

impl From<Side> for Colour {
    fn from(side: Side) -> Self {
        match side {
            Side::First => Colour::Orange,
            Side::Second => Colour::Blue,
        }
    }
}

impl From<Colour> for Side {
    fn from(colour: Colour) -> Self {
        match colour {
            Colour::Orange => Side::First,
            Colour::Blue => Side::Second,
        }
    }
}

/// A value for each side, serialised as `{"orange": .., "blue": ..}`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct PerColour<T> {
    pub orange: T,
    pub blue: T,
}

impl<T> PerColour<T> {
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> Self {
        PerColour {
            orange: f(Side::First),
            blue: f(Side::Second),
        }
    }
}
