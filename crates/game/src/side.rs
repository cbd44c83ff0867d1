use serde::{Deserialize, Serialize};

/// One of the two sides. `First` moves first (Orange in Ghast).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first side, 1 for the second: an index into per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}
