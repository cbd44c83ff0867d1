//! `game::BoardView` for [`Vastuz`]: the points of the hexagon with their stones, the
//! choices of the decision at hand, and where the turn's cascade stands.

use crate::state::Decision;
use crate::vastuz::{COLOUR_NAMES, Vastuz};
use game::{BoardView, Effect, Side};
use serde::Serialize;

/// What the page draws of a Vastuz game besides what every game has.
#[derive(Debug, Serialize)]
pub struct Board {
    /// Points per side minus one: the hexagon's radius in lattice steps.
    pub radius: i32,
    /// `place`, `take`, `put` or `over`: what the side to move decides now.
    pub decision: &'static str,
    pub move_number: u16,
    /// Every point, with axial coordinates about the centre.
    pub points: Vec<Point>,
    /// The stones of the mover's groups that must still steal.
    pub pending: Vec<String>,
    /// The group stealing now, and the enemy groups it has yet to steal from.
    pub thief: Vec<String>,
    pub targets: Vec<String>,
    /// The stone taken and not yet put (off the board meanwhile).
    pub taken: Option<String>,
    /// Whether `swap` is legal now.
    pub swap: bool,
    /// Each colour's group sizes, largest first: what the score counts.
    pub sizes: [Vec<u16>; 2],
}

/// One point, at axial `q` (east) and `r` (south-east) from the centre.
#[derive(Debug, Serialize)]
pub struct Point {
    pub name: String,
    pub q: i32,
    pub r: i32,
    pub stone: Option<&'static str>,
    /// A choice of the decision at hand: a placement, a stone to take, a destination.
    pub open: bool,
}

impl BoardView for Vastuz {
    type Board = Board;

    const PAGE_MODULE: &'static str = include_str!("../page/points.js");

    fn board(&self, _viewer: Side) -> Board {
        let geometry = self.geometry();
        let radius = geometry.radius();
        let names = |cells: Vec<usize>| cells.into_iter().map(|c| geometry.hex_name(c)).collect();
        let points = geometry
            .on_board_cells()
            .map(|cell| {
                let (x, y) = geometry.xy(cell);
                Point {
                    name: geometry.hex_name(cell),
                    q: x - radius,
                    r: y - radius,
                    stone: self.colour_at(cell).map(|colour| COLOUR_NAMES[colour]),
                    open: self.is_point_choice(cell),
                }
            })
            .collect();
        let marks = self.turn_marks();
        Board {
            radius,
            decision: match self.decision() {
                Decision::Place => "place",
                Decision::Take => "take",
                Decision::Put => "put",
                Decision::Over => "over",
            },
            move_number: self.move_number(),
            points,
            pending: names(marks.pending),
            thief: names(marks.thief),
            targets: names(marks.targets),
            taken: marks.taken.map(|cell| geometry.hex_name(cell)),
            swap: self.swap_legal(),
            sizes: self.sizes(),
        }
    }

    fn target_name(&self, action: usize) -> Option<String> {
        (action < self.geometry().cells()).then(|| self.geometry().hex_name(action))
    }

    /// A placement or a put lands a stone; a take removes one; `swap` turns Black's stone.
    fn effect(before: &Vastuz, action: usize, after: &Vastuz) -> Effect {
        let geometry = before.geometry();
        let removed = geometry
            .on_board_cells()
            .filter(|&c| before.colour_at(c).is_some() && after.colour_at(c).is_none())
            .map(|c| geometry.hex_name(c))
            .collect();
        let lands = matches!(before.decision(), Decision::Place | Decision::Put);
        Effect {
            placed: before.target_name(action).filter(|_| lands),
            removed,
            ..Effect::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::RawOptions;
    use game::Game;

    #[test]
    fn the_board_marks_each_decision_of_a_cascade() {
        let options = RawOptions { size: 4, pie: 0 }.validate().unwrap();
        let mut game = Vastuz::from_position(&options, "2x1/2o2/3o2/3x3/1o4/o4/4 b 9").unwrap();
        let board = game.board(Side::First);
        assert_eq!(board.decision, "place");
        assert_eq!(board.points.len(), 37);
        let action = game.parse_action("c4").unwrap();
        game.apply(action);
        let board = game.board(Side::First);
        assert_eq!(board.decision, "take");
        assert_eq!(board.pending, ["c4", "d4"]);
        let open: Vec<&str> = board
            .points
            .iter()
            .filter(|p| p.open)
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(
            open,
            ["e2", "e3", "b5", "a6"],
            "the stones of both White pairs"
        );
        let before = game.clone();
        let take = game.parse_action("+e3").unwrap();
        game.apply(take);
        let board = game.board(Side::First);
        assert_eq!(
            (board.decision, board.taken.as_deref()),
            ("put", Some("e3"))
        );
        assert_eq!(Vastuz::effect(&before, take, &game).removed, ["e3"]);
        let put = game.parse_action("-e3").unwrap();
        game.apply(put);
        let board = game.board(Side::First);
        assert_eq!(board.thief, ["e3", "c4", "d4"]);
        assert_eq!(board.targets, ["b5", "a6"]);
        assert_eq!(board.pending, ["f1"], "f1 answers the pair's piece e2");
    }
}
