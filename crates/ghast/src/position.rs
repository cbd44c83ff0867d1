//! Position strings `<rows> <to-move> <turn>` (RULES.md section 8), as a plain cell-by-cell
//! value: the notation's own type, and an obviously-correct model for tests.

use crate::symmetry::map_orientation;
use game::Side;
use hexgrid::Geometry;
use hexgrid::map_cell;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A tile: its colour (Orange is `Side::First`) and orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub orientation: usize,
}

/// The board, the side to move and the number of the next turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub geometry: Geometry,
    /// Indexed by cell (`y * W + x`); padding cells are always `None`.
    pub cells: Vec<Option<Piece>>,
    pub to_move: Side,
    pub turn: u16,
}

/// A position string that was refused, with the text as given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("position \"{text}\": {reason}")]
pub struct PositionError {
    pub text: String,
    pub reason: PositionProblem,
}

/// Why a position string is malformed or does not fit the game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionProblem {
    #[error("expected three fields `<rows> <to-move> <turn>`, got {0}")]
    Fields(usize),
    #[error("{0} rows do not make a board (2S-1 rows for a size S of 2..=7)")]
    RowCount(usize),
    #[error("row {row} has {got} hexes, expected {expected}")]
    RowLength {
        row: usize,
        got: usize,
        expected: usize,
    },
    #[error("row {row} has `{found}`, which is neither a tile letter (a-f, A-F) nor a count")]
    Symbol { row: usize, found: char },
    #[error("to-move must be `o` or `b`, got `{0}`")]
    ToMove(String),
    #[error("turn must be a number from 1, got `{0}`")]
    Turn(String),
    #[error("it is a size-{got} board, but the game is size {expected}")]
    Size { got: u8, expected: u8 },
}

impl Position {
    pub fn empty(geometry: Geometry) -> Self {
        Position {
            geometry,
            cells: vec![None; geometry.cells()],
            to_move: Side::First,
            turn: 1,
        }
    }

    /// The same position seen through board symmetry `sym` (see [`crate::symmetry`]).
    pub fn transformed(&self, sym: usize, mirror_shift: usize) -> Position {
        let mut cells = vec![None; self.cells.len()];
        for cell in self.geometry.on_board_cells() {
            if let Some(piece) = self.cells[cell] {
                let orientation = map_orientation(sym, piece.orientation, mirror_shift);
                cells[map_cell(self.geometry, sym, cell)] = Some(Piece {
                    orientation,
                    ..piece
                });
            }
        }
        Position {
            cells,
            ..self.clone()
        }
    }

    fn parse_rows(rows: &str) -> Result<(Geometry, Vec<Option<Piece>>), PositionProblem> {
        let rows: Vec<&str> = rows.split('/').collect();
        let size = rows.len().div_ceil(2);
        if rows.len() != 2 * size - 1 || !(2..=7).contains(&size) {
            return Err(PositionProblem::RowCount(rows.len()));
        }
        let geometry = Geometry::new(size as u8);
        let mut cells = vec![None; geometry.cells()];
        for (y, row) in rows.iter().enumerate() {
            let columns: Vec<i32> = geometry.row(y as i32).collect();
            let mut hexes: Vec<Option<Piece>> = Vec::with_capacity(columns.len());
            let mut rest = *row;
            while let Some(first) = rest.chars().next() {
                let digits =
                    rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                if digits > 0 {
                    let run: usize = rest[..digits].parse().unwrap_or(usize::MAX);
                    hexes.extend(std::iter::repeat_n(None, run.min(geometry.cells())));
                    rest = &rest[digits..];
                    continue;
                }
                let side = match first {
                    'a'..='f' => Side::First,
                    'A'..='F' => Side::Second,
                    found => return Err(PositionProblem::Symbol { row: y + 1, found }),
                };
                let orientation = usize::from(first.to_ascii_lowercase() as u8 - b'a');
                hexes.push(Some(Piece { side, orientation }));
                rest = &rest[first.len_utf8()..];
            }
            if hexes.len() != columns.len() {
                return Err(PositionProblem::RowLength {
                    row: y + 1,
                    got: hexes.len(),
                    expected: columns.len(),
                });
            }
            for (x, hex) in columns.into_iter().zip(hexes) {
                cells[geometry.cell(x, y as i32)] = hex;
            }
        }
        Ok((geometry, cells))
    }

    fn parse_fields(text: &str) -> Result<Position, PositionProblem> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [rows, to_move, turn] = fields[..] else {
            return Err(PositionProblem::Fields(fields.len()));
        };
        let (geometry, cells) = Self::parse_rows(rows)?;
        let to_move = match to_move {
            "o" => Side::First,
            "b" => Side::Second,
            other => return Err(PositionProblem::ToMove(other.to_string())),
        };
        let turn = turn
            .parse()
            .ok()
            .filter(|&t| t >= 1)
            .ok_or_else(|| PositionProblem::Turn(turn.to_string()))?;
        Ok(Position {
            geometry,
            cells,
            to_move,
            turn,
        })
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Self, PositionError> {
        Self::parse_fields(text).map_err(|reason| PositionError {
            text: text.to_string(),
            reason,
        })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_rows(f, self.geometry, |cell| {
            self.cells[cell].map(|piece| tile_letter(piece.side, piece.orientation, false))
        })?;
        write!(f, " {} {}", to_move_letter(self.to_move), self.turn)
    }
}

/// The letter of a tile in position strings: `a`..`f` for Orange's orientations, `A`..`F`
/// for Blue's; face down (Fakerghast) `g`..`l` and `G`..`L`.
pub(crate) fn tile_letter(side: Side, orientation: usize, face_down: bool) -> char {
    let base = match (side, face_down) {
        (Side::First, false) => b'a',
        (Side::Second, false) => b'A',
        (Side::First, true) => b'g',
        (Side::Second, true) => b'G',
    };
    char::from(base + orientation as u8)
}

/// `o` or `b`, as position strings and Fakerghast's pair tokens name a side.
pub(crate) fn to_move_letter(side: Side) -> char {
    match side {
        Side::First => 'o',
        Side::Second => 'b',
    }
}

/// Writes the rows of a position string, `/`-separated, with runs of empty hexes as counts;
/// `letter` gives the letter of the tile on a cell, if there is one.
pub(crate) fn write_rows(
    f: &mut impl fmt::Write,
    geometry: Geometry,
    letter: impl Fn(usize) -> Option<char>,
) -> fmt::Result {
    for y in 0..geometry.width() as i32 {
        if y > 0 {
            f.write_str("/")?;
        }
        let mut run = 0;
        for x in geometry.row(y) {
            match letter(geometry.cell(x, y)) {
                None => run += 1,
                Some(letter) => {
                    if run > 0 {
                        write!(f, "{run}")?;
                        run = 0;
                    }
                    f.write_char(letter)?;
                }
            }
        }
        if run > 0 {
            write!(f, "{run}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_example_round_trips() {
        for text in [
            "6/7/8/9/10/11/10/9/8/7/6 o 1",
            "3/1A2/1Aa2/1A2/3 o 1",
            "2c/f2C/DBc2/3a/1F1 b 14",
        ] {
            assert_eq!(text.parse::<Position>().unwrap().to_string(), text);
        }
        let example: Position = "3/1A2/1Aa2/1A2/3 o 1".parse().unwrap();
        let c3 = example.geometry.parse_hex("c3").unwrap();
        assert_eq!(
            example.cells[c3],
            Some(Piece {
                side: Side::First,
                orientation: 0
            })
        );
    }

    #[test]
    fn malformed_positions_say_why() {
        let message = |text: &str| text.parse::<Position>().unwrap_err().to_string();
        assert_eq!(
            message("6/7/9/9/10/11/10/9/8/7/6 o 1"),
            "position \"6/7/9/9/10/11/10/9/8/7/6 o 1\": row 3 has 9 hexes, expected 8"
        );
        assert!(message("3/4/5/4 o 1").contains("4 rows do not make a board"));
        assert!(message("3/4/5/4/3 x 1").contains("to-move must be `o` or `b`, got `x`"));
        assert!(message("3/4/5/4/3 o 0").contains("turn must be a number from 1"));
        assert!(message("3/4/5/4/2g o 1").contains("row 5 has `g`"));
        assert!(message("3/4/5/4/3 o").contains("expected three fields"));
    }
}
