//! The tile's coupler pattern, a parameter of the rules (RULES.md section 3).

use serde::{Deserialize, Serialize};

/// Offsets, relative to the tile's orientation, of its regular couplers, its ranged coupler
/// and its receiver.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tile {
    pub couplers: Vec<u8>,
    pub ranged: u8,
    pub receiver: u8,
}

impl Default for Tile {
    /// The standard tile: couplers {2, 3, 4}, ranged 0, receiver 3.
    fn default() -> Self {
        Tile {
            couplers: vec![2, 3, 4],
            ranged: 0,
            receiver: 3,
        }
    }
}

impl Tile {
    /// Why the tile is not one, in words (the options' error names the option).
    pub(crate) fn validate(&self) -> Result<(), String> {
        let bad = |reason: String| Err(reason);
        if let Some(offset) = self.couplers.iter().find(|&&k| k >= 6) {
            return bad(format!("coupler offset {offset} is not a direction 0..5"));
        }
        if self.coupler_mask().count_ones() as usize != self.couplers.len() {
            return bad(format!(
                "coupler offsets {:?} repeat a direction",
                self.couplers
            ));
        }
        if self.ranged >= 6 {
            return bad(format!(
                "ranged offset {} is not a direction 0..5",
                self.ranged
            ));
        }
        if self.receiver >= 6 {
            return bad(format!(
                "receiver offset {} is not a direction 0..5",
                self.receiver
            ));
        }
        Ok(())
    }

    /// Bit k set when the tile has a regular coupler at offset k.
    pub fn coupler_mask(&self) -> u8 {
        self.couplers.iter().fold(0, |mask, &k| mask | 1 << k)
    }

    /// `Some(s)` when the mirror image of the tile is the tile itself turned round: offset k
    /// of the mirror image is offset `-k - s` of the tile, for couplers, ranged and receiver
    /// alike. Such a tile gives the board 12 symmetries instead of 6.
    pub fn mirror_shift(&self) -> Option<u8> {
        let mirror = |k: u8, s: u8| (12 - k - s) % 6;
        (0..6).find(|&s| {
            let mirrored = self
                .couplers
                .iter()
                .fold(0u8, |mask, &k| mask | 1 << mirror(k, s));
            mirrored == self.coupler_mask()
                && mirror(self.ranged, s) == self.ranged
                && mirror(self.receiver, s) == self.receiver
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_tile_is_mirror_symmetric() {
        assert_eq!(Tile::default().mirror_shift(), Some(0));
    }

    #[test]
    fn lopsided_tile_is_not() {
        let tile = Tile {
            couplers: vec![1, 2],
            ranged: 0,
            receiver: 3,
        };
        assert_eq!(tile.mirror_shift(), None);
        let bent = Tile {
            couplers: vec![2, 3, 4],
            ranged: 0,
            receiver: 2,
        };
        assert_eq!(bent.mirror_shift(), None);
    }

    #[test]
    fn bad_tiles_are_rejected() {
        let tile = Tile {
            couplers: vec![2, 2],
            ranged: 0,
            receiver: 3,
        };
        assert!(tile.validate().unwrap_err().contains("repeat"));
        let tile = Tile {
            couplers: vec![6],
            ranged: 0,
            receiver: 3,
        };
        assert!(tile.validate().is_err());
    }
}
