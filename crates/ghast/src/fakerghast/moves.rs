//! Fakerghast's moves and decisions (RULES.md 9.4): a turn's move as its owner writes it
//! (`f6:3+g7:1`, `f6:3`, `pass`), and the decisions search makes of it, one at a time, so
//! that the policy stays hex x orientation.

use crate::action::{Action, MoveError, MoveProblem};
use hexgrid::Geometry;

/// A tile as placed: its hex (cell index) and orientation, packed small because the state
/// keeps several and search copies states constantly.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub cell: u8,
    pub orientation: u8,
}

impl Placement {
    pub(crate) const NONE: Placement = Placement {
        cell: 0,
        orientation: 0,
    };

    pub fn new(cell: usize, orientation: usize) -> Self {
        Placement {
            cell: cell as u8,
            orientation: orientation as u8,
        }
    }

    pub(crate) fn unpack(self) -> (usize, usize) {
        (usize::from(self.cell), usize::from(self.orientation))
    }

    pub(crate) fn action(self) -> Action {
        let (cell, orientation) = self.unpack();
        Action::Place { cell, orientation }
    }

    pub fn to_text(self, geometry: Geometry) -> String {
        self.action().to_text(geometry)
    }

    fn parse(text: &str, geometry: Geometry) -> Result<Placement, MoveProblem> {
        match Action::parse(text, geometry) {
            Ok(Action::Place { cell, orientation }) => Ok(Placement::new(cell, orientation)),
            Ok(_) => Err(MoveProblem::PairSyntax),
            Err(MoveError { reason, .. }) => Err(match reason {
                MoveProblem::Syntax => MoveProblem::PairSyntax,
                other => other,
            }),
        }
    }
}

/// One turn's move, in full: what its owner plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    /// A single face-up tile (only under `fakes`).
    Single(Placement),
    /// Two face-down tiles, the real one first.
    Pair {
        real: Placement,
        fake: Placement,
    },
}

impl Move {
    /// The full form: `f6:3+g7:1` (real first), `f6:3` or `pass`.
    pub fn to_text(self, geometry: Geometry) -> String {
        match self {
            Move::Pass => "pass".into(),
            Move::Single(tile) => tile.to_text(geometry),
            Move::Pair { real, fake } => {
                format!("{}+{}", real.to_text(geometry), fake.to_text(geometry))
            }
        }
    }

    /// The form the opponent sees, without reveals: a pair's tiles in board order (row, then
    /// column), so nothing tells which is real.
    pub fn public_text(self, geometry: Geometry) -> String {
        match self {
            Move::Pair { real, fake } => {
                let (first, second) = if real.cell < fake.cell {
                    (real, fake)
                } else {
                    (fake, real)
                };
                format!("{},{}", first.to_text(geometry), second.to_text(geometry))
            }
            other => other.to_text(geometry),
        }
    }

    /// Reads the full form (any case); checks the hexes are on the board, not that the move
    /// is legal now.
    pub fn parse(text: &str, geometry: Geometry) -> Result<Move, MoveError> {
        let error = |reason| MoveError {
            text: text.to_string(),
            reason,
        };
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        match text.split_once('+') {
            None => Placement::parse(text, geometry).map(Move::Single),
            Some((real, fake)) => Ok(Move::Pair {
                real: Placement::parse(real, geometry).map_err(error)?,
                fake: Placement::parse(fake, geometry).map_err(error)?,
            }),
        }
        .map_err(|e: MoveProblem| error(e))
    }

    /// Reads the public form (`f6:3,g7:1/c2`, `e3:1`, `pass/c2`): the move, with the first
    /// tile of a pair taken as real for want of knowing, and the hexes of the real tiles that
    /// the turn reveals.
    pub fn parse_public(text: &str, geometry: Geometry) -> Result<(Move, Vec<usize>), MoveError> {
        let error = |reason| MoveError {
            text: text.to_string(),
            reason,
        };
        let mut parts = text.split('/');
        let tiles = parts.next().unwrap_or_default();
        let played = match tiles.split_once(',') {
            Some((first, second)) => Move::Pair {
                real: Placement::parse(first, geometry).map_err(error)?,
                fake: Placement::parse(second, geometry).map_err(error)?,
            },
            None if tiles.eq_ignore_ascii_case("pass") => Move::Pass,
            None => Move::Single(Placement::parse(tiles, geometry).map_err(error)?),
        };
        let reveals = parts
            .map(|hex| {
                geometry
                    .parse_hex(hex)
                    .map_err(|e| error(MoveProblem::Hex(e)))
            })
            .collect::<Result<_, _>>()?;
        Ok((played, reveals))
    }

    /// The decisions this move is made of, in order, given whether its first placement
    /// awaits a second decision (`pairs_possible`): a pair is its real tile then its fake; a
    /// single tile under `fakes` with pairs left is the tile then `single`.
    pub fn decisions(self, pairs_possible: bool) -> Vec<Decision> {
        match self {
            Move::Pass => vec![Decision::Pass],
            Move::Single(tile) if pairs_possible => vec![Decision::Place(tile), Decision::Single],
            Move::Single(tile) => vec![Decision::Place(tile)],
            Move::Pair { real, fake } => vec![Decision::Place(real), Decision::Place(fake)],
        }
    }
}

/// One decision: what a dense action index stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// A tile: the turn's real tile (or its only one), or the fake once the real one is chosen.
    Place(Placement),
    Pass,
    /// Under `fakes`: the real tile chosen stays a single tile, with no fake.
    Single,
}

impl Decision {
    /// Placements are `o * W*W + cell`, as in Ghast; pass and single follow the six spatial
    /// planes.
    pub fn index(self, geometry: Geometry) -> usize {
        let cells = geometry.cells();
        match self {
            Decision::Place(tile) => tile.action().index(geometry),
            Decision::Pass => 6 * cells,
            Decision::Single => 6 * cells + 1,
        }
    }

    pub fn from_index(index: usize, geometry: Geometry) -> Option<Decision> {
        let cells = geometry.cells();
        match index.checked_sub(6 * cells) {
            None => Some(Decision::Place(Placement::new(
                index % cells,
                index / cells,
            ))),
            Some(0) => Some(Decision::Pass),
            Some(1) => Some(Decision::Single),
            Some(_) => None,
        }
    }

    /// `f6:3` for a real or single tile, `+g7:1` for a fake (so a pair's decisions read as its
    /// full form), `pass`, `single`.
    pub fn to_text(self, geometry: Geometry, is_fake: bool) -> String {
        match self {
            Decision::Place(tile) if is_fake => format!("+{}", tile.to_text(geometry)),
            Decision::Place(tile) => tile.to_text(geometry),
            Decision::Pass => "pass".into(),
            Decision::Single => "single".into(),
        }
    }

    /// Reads what [`Decision::to_text`] writes (a fake's `+` is optional).
    pub fn parse(text: &str, geometry: Geometry) -> Result<Decision, MoveError> {
        if text.eq_ignore_ascii_case("single") {
            return Ok(Decision::Single);
        }
        match Move::parse(text.strip_prefix('+').unwrap_or(text), geometry)? {
            Move::Pass => Ok(Decision::Pass),
            Move::Single(tile) => Ok(Decision::Place(tile)),
            Move::Pair { .. } => Err(MoveError {
                text: text.to_string(),
                reason: MoveProblem::PairSyntax,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_and_write_in_full_and_public_form() {
        let g = Geometry::new(6);
        let pair = Move::parse("G7:1+f6:3", g).unwrap();
        assert_eq!(pair.to_text(g), "g7:1+f6:3");
        assert_eq!(pair.public_text(g), "f6:3,g7:1");
        assert_eq!(Move::parse("pass", g), Ok(Move::Pass));
        assert_eq!(Move::parse("e3:1", g).unwrap().public_text(g), "e3:1");
        let message = |text| Move::parse(text, g).unwrap_err().to_string();
        assert_eq!(
            message("f6:3+"),
            "move \"f6:3+\": expected <hex>:<orientation>, a pair <real>+<fake> such as \
             f6:3+g7:1, or pass"
        );
        assert_eq!(
            message("f6:3+z9:1"),
            "move \"f6:3+z9:1\": hex z9 is off the 6-sided board"
        );
        for decision in [
            Decision::Place(Placement::new(60, 3)),
            Decision::Pass,
            Decision::Single,
        ] {
            assert_eq!(Decision::from_index(decision.index(g), g), Some(decision));
            for fake in [false, true] {
                assert_eq!(Decision::parse(&decision.to_text(g, fake), g), Ok(decision));
            }
        }
    }
}
