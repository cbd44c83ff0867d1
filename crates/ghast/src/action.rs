//! Moves: their dense indices (the `game::PolicyLayout` contract), their text notation and
//! the reasons a move can be refused.

use hexgrid::{Bits, Geometry, HexError};
use thiserror::Error;

/// A move in one of its four kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Place { cell: usize, orientation: usize },
    Pass,
    Accept,
    Veto,
}

impl Action {
    /// Placements are `o * W*W + cell`; pass, accept and veto follow the six spatial planes.
    pub fn index(self, geometry: Geometry) -> usize {
        let cells = geometry.cells();
        match self {
            Action::Place { cell, orientation } => orientation * cells + cell,
            Action::Pass => 6 * cells,
            Action::Accept => 6 * cells + 1,
            Action::Veto => 6 * cells + 2,
        }
    }

    /// The action with dense index `index`, if that index exists for this geometry (the cell
    /// may still be padding).
    pub fn from_index(index: usize, geometry: Geometry) -> Option<Action> {
        let cells = geometry.cells();
        match index.checked_sub(6 * cells) {
            None => Some(Action::Place {
                cell: index % cells,
                orientation: index / cells,
            }),
            Some(0) => Some(Action::Pass),
            Some(1) => Some(Action::Accept),
            Some(2) => Some(Action::Veto),
            Some(_) => None,
        }
    }

    pub fn to_text(self, geometry: Geometry) -> String {
        match self {
            Action::Place { cell, orientation } => {
                format!("{}:{orientation}", geometry.hex_name(cell))
            }
            Action::Pass => "pass".into(),
            Action::Accept => "accept".into(),
            Action::Veto => "veto".into(),
        }
    }

    /// Reads `<hex>:<o>`, `pass`, `accept` or `veto` (any case). Checks that the hex is on the
    /// board, not that the move is legal now.
    pub fn parse(text: &str, geometry: Geometry) -> Result<Action, MoveError> {
        let error = |reason| MoveError {
            text: text.to_string(),
            reason,
        };
        match text.to_ascii_lowercase().as_str() {
            "pass" => return Ok(Action::Pass),
            "accept" => return Ok(Action::Accept),
            "veto" => return Ok(Action::Veto),
            _ => {}
        }
        let (hex, orientation) = text
            .split_once(':')
            .ok_or_else(|| error(MoveProblem::Syntax))?;
        let cell = geometry
            .parse_hex(hex)
            .map_err(|e| error(MoveProblem::Hex(e)))?;
        let orientation = match orientation.parse::<usize>() {
            Ok(o) if o < 6 && orientation.len() == 1 => o,
            _ => return Err(error(MoveProblem::Orientation(orientation.to_string()))),
        };
        Ok(Action::Place { cell, orientation })
    }
}

/// A move that was refused, with the text as given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move \"{text}\": {reason}")]
pub struct MoveError {
    pub text: String,
    pub reason: MoveProblem,
}

/// Why a move is malformed or illegal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveProblem {
    #[error("expected <hex>:<orientation>, pass, accept or veto")]
    Syntax,
    #[error(transparent)]
    Hex(HexError),
    #[error("orientation `{0}` is not one of 0..5")]
    Orientation(String),
    #[error("{hex} is occupied")]
    Occupied { hex: String },
    #[error("{hex} is not open yet on turn {turn} (depth {depth}, allowed up to {allowed})")]
    NotOpen {
        hex: String,
        turn: u16,
        depth: i32,
        allowed: i32,
    },
    #[error("{hex} was vetoed this turn")]
    Vetoed { hex: String },
    #[error("{answerer} must first answer the pending placement with accept or veto")]
    AnswerAwaited { answerer: &'static str },
    #[error("no placement is awaiting an answer")]
    NothingToAnswer,
    #[error("the game is over")]
    GameOver,
    #[error("action index {0} does not exist on this board")]
    NoSuchIndex(usize),
    #[error("expected <hex>:<orientation>, a pair <real>+<fake> such as f6:3+g7:1, or pass")]
    PairSyntax,
    #[error("every placement under fakerghast is a pair: write <real>+<fake>, such as f6:3+g7:1")]
    PairNeeded,
    #[error("{side} has no fakes left: place a single tile")]
    NoFakesLeft { side: &'static str },
    #[error("both tiles of the pair are on {hex}: a pair needs two hexes")]
    PairSameHex { hex: String },
    #[error("`single` answers a real tile that awaits its fake, and none does")]
    NothingToKeepSingle,
    #[error("the real tile {real} awaits its fake (a placement) or `single`")]
    FakeAwaited { real: String },
    #[error("no pair of {side} with a tile on {hex} is revealed this turn")]
    NoRevealDue { side: &'static str, hex: String },
}

/// Appends to `out` a placement on every hex of `hexes` in every orientation, orientation by
/// orientation, each as its dense index ([`Action::index`]): the legal placements of Ghast and
/// Fakerghast. The hexes are listed once, then copied shifted five times: search asks for the
/// legal moves of every position it evaluates, twice (the network's mask and the node's edges).
pub(crate) fn push_placements<B: Bits>(hexes: B, cells: usize, out: &mut Vec<usize>) {
    let start = out.len();
    out.extend(hexes.ones());
    let count = out.len() - start;
    out.resize(start + 6 * count, 0);
    let (first, rest) = out[start..].split_at_mut(count);
    for orientation in 1..6 {
        let copy = &mut rest[(orientation - 1) * count..orientation * count];
        for (action, &cell) in copy.iter_mut().zip(first.iter()) {
            *action = cell + orientation * cells;
        }
    }
}

/// The `k`-th of the placements [`push_placements`] lists for `hexes`, found from the bit set
/// without listing them: `count` is their number (the caller has it, to draw `k` below six
/// times it, and a 128-bit count is not free on baseline x86-64).
pub(crate) fn nth_placement<B: Bits>(hexes: B, count: usize, k: usize, cells: usize) -> usize {
    hexes.select((k % count) as u32) + (k / count) * cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_policy_layout() {
        let g = Geometry::new(6);
        let f6 = g.parse_hex("f6").unwrap();
        let place = Action::Place {
            cell: f6,
            orientation: 3,
        };
        assert_eq!(place.index(g), 3 * 121 + 5 * 11 + 5);
        assert_eq!(Action::Pass.index(g), 726);
        assert_eq!(Action::Veto.index(g), 728);
        for action in [place, Action::Pass, Action::Accept, Action::Veto] {
            assert_eq!(Action::from_index(action.index(g), g), Some(action));
            assert_eq!(Action::parse(&action.to_text(g), g), Ok(action));
        }
        assert_eq!(Action::from_index(729, g), None);
    }

    #[test]
    fn malformed_moves_say_why() {
        let g = Geometry::new(6);
        let message = |text| Action::parse(text, g).unwrap_err().to_string();
        assert_eq!(
            message("z9:1"),
            "move \"z9:1\": hex z9 is off the 6-sided board"
        );
        assert_eq!(
            message("f6:6"),
            "move \"f6:6\": orientation `6` is not one of 0..5"
        );
        assert_eq!(
            message("hello"),
            "move \"hello\": expected <hex>:<orientation>, pass, accept or veto"
        );
        assert_eq!(Action::parse("F6:2", g), Action::parse("f6:2", g));
    }
}
