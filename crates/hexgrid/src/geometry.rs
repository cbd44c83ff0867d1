//! A hexagon of hexes (or of points on the triangular lattice, the same thing read another
//! way) with `size` cells per side: where its cells are, their depth, their neighbours and
//! their names (RULES.md sections 1 and 2, VASTUZ.md section 1).
//!
//! Cells are indexed `y * W + x` in the (2R+1) x (2R+1) square, the same layout as the
//! network's planes and the dense action indices, so no translation is ever needed.

use thiserror::Error;

/// Axial (q, r) steps of directions 0..5: E, NE, NW, W, SW, SE. In the square layout a step
/// (dq, dr) moves x by dq and y by dr.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Why a hex name was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HexError {
    #[error("`{0}` is not a hex name (expected a column letter and a row number, like f6)")]
    Malformed(String),
    #[error("hex {name} is off the {size}-sided board")]
    OffBoard { name: String, size: u8 },
}

/// The shape of a board of a given size: where hexes are, their depth and their names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    size: u8,
}

impl Geometry {
    /// The board of `size` cells per side, which a game's options have checked: 1 to 13
    /// (the width 2R + 1 is then at most 25 columns, named `a` to `y`).
    ///
    /// # Panics
    /// On a size outside 1..=13.
    pub fn new(size: u8) -> Self {
        assert!((1..=13).contains(&size), "a hex board of size {size}");
        Geometry { size }
    }

    pub fn size(self) -> u8 {
        self.size
    }

    pub fn radius(self) -> i32 {
        i32::from(self.size) - 1
    }

    /// Side of the square the board sits in: 2R + 1.
    pub fn width(self) -> usize {
        2 * self.radius() as usize + 1
    }

    /// Cells of the square, padding included.
    pub fn cells(self) -> usize {
        self.width() * self.width()
    }

    /// Hexes on the board: 3S(S-1) + 1.
    pub fn hexes(self) -> usize {
        let s = usize::from(self.size);
        3 * s * (s - 1) + 1
    }

    pub fn is_on_board(self, x: i32, y: i32) -> bool {
        let r = self.radius();
        (0..=2 * r).contains(&x) && (0..=2 * r).contains(&y) && (r..=3 * r).contains(&(x + y))
    }

    pub fn cell(self, x: i32, y: i32) -> usize {
        y as usize * self.width() + x as usize
    }

    pub fn xy(self, cell: usize) -> (i32, i32) {
        let w = self.width();
        ((cell % w) as i32, (cell / w) as i32)
    }

    /// The columns of row `y` that are on the board.
    pub fn row(self, y: i32) -> std::ops::RangeInclusive<i32> {
        let r = self.radius();
        (r - y).max(0)..=(3 * r - y).min(2 * r)
    }

    /// Every on-board cell, row by row.
    pub fn on_board_cells(self) -> impl Iterator<Item = usize> {
        (0..self.width() as i32).flat_map(move |y| self.row(y).map(move |x| self.cell(x, y)))
    }

    /// R minus the hex's distance from the centre: 0 on the edge, R at the centre.
    pub fn depth(self, cell: usize) -> i32 {
        let r = self.radius();
        let (x, y) = self.xy(cell);
        let (q, rr) = (x - r, y - r);
        r - q.abs().max(rr.abs()).max((q + rr).abs())
    }

    /// The on-board hex `steps` steps from `cell` in direction `d`.
    pub fn neighbour(self, cell: usize, d: usize, steps: i32) -> Option<usize> {
        let (x, y) = self.xy(cell);
        let (dx, dy) = DIRECTIONS[d];
        let (nx, ny) = (x + steps * dx, y + steps * dy);
        self.is_on_board(nx, ny).then(|| self.cell(nx, ny))
    }

    pub fn hex_name(self, cell: usize) -> String {
        let (x, y) = self.xy(cell);
        format!("{}{}", char::from(b'a' + x as u8), y + 1)
    }

    /// Parses a hex name such as `f6` (any case) into an on-board cell.
    pub fn parse_hex(self, text: &str) -> Result<usize, HexError> {
        let malformed = || HexError::Malformed(text.to_string());
        let mut chars = text.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(malformed)?;
        let digits = chars.as_str();
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(malformed());
        }
        let number: i32 = digits.parse().map_err(|_| malformed())?;
        let x = i32::from(letter.to_ascii_lowercase() as u8 - b'a');
        let y = number - 1;
        if !self.is_on_board(x, y) {
            return Err(HexError::OffBoard {
                name: text.to_ascii_lowercase(),
                size: self.size,
            });
        }
        Ok(self.cell(x, y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_has_91_hexes_named_as_in_the_rules() {
        let g = Geometry::new(6);
        assert_eq!(g.on_board_cells().count(), 91);
        assert_eq!(g.hexes(), 91);
        let centre = g.parse_hex("F6").unwrap();
        assert_eq!(g.depth(centre), 5);
        assert_eq!(g.hex_name(centre), "f6");
        assert_eq!(g.depth(g.parse_hex("k1").unwrap()), 0);
        assert_eq!(g.depth(g.parse_hex("a11").unwrap()), 0);
    }

    #[test]
    fn bad_hex_names_say_why() {
        let g = Geometry::new(6);
        assert_eq!(
            g.parse_hex("z9").unwrap_err().to_string(),
            "hex z9 is off the 6-sided board"
        );
        assert_eq!(
            g.parse_hex("a1").unwrap_err().to_string(),
            "hex a1 is off the 6-sided board"
        );
        for text in ["", "f", "6f", "f06", "f-1", "ff6"] {
            assert!(
                matches!(g.parse_hex(text), Err(HexError::Malformed(_))),
                "{text}"
            );
        }
    }
}
