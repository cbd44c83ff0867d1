//! Points of the board and their GTP names (`D4`: columns `A`..`T` without `I`, rows from the
//! bottom).
//!
//! Three numberings meet here. A *point* is `row * size + column` with row 0 at the top, the
//! dense action index (and the row-major cell of the policy head and the planes). A *padded*
//! point indexes a board with a one-cell edge all round and a fixed stride, so that the
//! neighbours of every point are `±1` and `±STRIDE` with no bounds checks on the hot path.

use std::fmt;

/// Row length of the padded board: the largest size plus an edge on both sides.
pub const STRIDE: usize = 21;
/// Cells of the padded board.
pub const PADDED: usize = STRIDE * STRIDE;
/// Points of the largest board.
pub const MAX_POINTS: usize = 19 * 19;

const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

pub fn padded(point: usize, size: usize) -> usize {
    (point / size + 1) * STRIDE + point % size + 1
}

pub fn unpadded(padded: usize, size: usize) -> usize {
    (padded / STRIDE - 1) * size + padded % STRIDE - 1
}

/// The four neighbours of a padded point (edge cells included).
pub fn neighbours(padded: usize) -> [usize; 4] {
    [padded - STRIDE, padded - 1, padded + 1, padded + STRIDE]
}

/// A point with the board size, for printing its GTP name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub point: usize,
    pub size: usize,
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = char::from(COLUMNS[self.point % self.size]);
        write!(f, "{column}{}", self.size - self.point / self.size)
    }
}

/// Why a text is not a point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Not of the form letter-digits (or the letter `I`, which Go coordinates skip).
    Malformed,
    /// A well-formed name beyond the board's columns or rows.
    OffBoard,
}

/// Parses a GTP point name, case-insensitively.
pub fn parse_name(text: &str, size: usize) -> Result<usize, NameError> {
    let mut chars = text.chars();
    let letter = chars
        .next()
        .filter(char::is_ascii_alphabetic)
        .ok_or(NameError::Malformed)?
        .to_ascii_uppercase();
    let digits = chars.as_str();
    if letter == 'I' || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NameError::Malformed);
    }
    let column = COLUMNS
        .iter()
        .position(|&c| char::from(c) == letter)
        .filter(|&c| c < size)
        .ok_or(NameError::OffBoard)?;
    let row = digits
        .parse::<usize>()
        .ok()
        .filter(|row| (1..=size).contains(row))
        .ok_or(NameError::OffBoard)?;
    Ok((size - row) * size + column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_every_size() {
        for size in 5..=19 {
            for point in 0..size * size {
                let name = Name { point, size }.to_string();
                assert_eq!(parse_name(&name, size), Ok(point), "{name}");
                assert_eq!(parse_name(&name.to_lowercase(), size), Ok(point), "{name}");
                assert_eq!(unpadded(padded(point, size), size), point);
            }
        }
    }

    #[test]
    fn corners_follow_gtp() {
        assert_eq!(Name { point: 0, size: 9 }.to_string(), "A9");
        assert_eq!(Name { point: 80, size: 9 }.to_string(), "J1");
        assert_eq!(
            Name {
                point: 360,
                size: 19
            }
            .to_string(),
            "T1"
        );
    }

    #[test]
    fn bad_names_say_which_kind_of_bad() {
        for text in ["I9", "E", "2E", "E_4", "J8.", "D11D", "", "pas", "é4"] {
            assert_eq!(parse_name(text, 9), Err(NameError::Malformed), "{text}");
        }
        for text in ["K9", "A10", "A0", "Z1", "J99"] {
            assert_eq!(parse_name(text, 9), Err(NameError::OffBoard), "{text}");
        }
    }
}
