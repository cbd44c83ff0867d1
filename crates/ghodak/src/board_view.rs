//! `game::BoardView` for [`Ghodak`]: points with their stones, the ko point, the last stone.

use crate::ghodak::Ghodak;
use game::{BoardView, Effect, colour_name};
use serde::Serialize;

/// What the page draws of a Ghodak game besides what every game has.
#[derive(Debug, Serialize)]
pub struct Board {
    /// Moves played, passes included, and the limit after which the game is scored.
    pub moves_played: u16,
    pub max_moves: u16,
    pub komi: f32,
    /// Every point, row by row from the top (GTP's highest row) and left to right.
    pub points: Vec<Point>,
    /// The point the side to move may not take because of ko.
    pub ko: Option<String>,
}

/// One point, at column `x` from the left and row `y` from the top.
#[derive(Debug, Serialize)]
pub struct Point {
    pub name: String,
    pub x: usize,
    pub y: usize,
    pub stone: Option<&'static str>,
    /// A stone may be played here now.
    pub open: bool,
}

impl BoardView for Ghodak {
    type Board = Board;

    const PAGE_MODULE: &'static str = include_str!("../page/go.js");

    fn board(&self, _viewer: game::Side) -> Board {
        let options = self.options();
        let size = options.size();
        let playing = !self.is_over();
        let points = (0..options.points())
            .map(|point| Point {
                name: self.name(point),
                x: point % size,
                y: point / size,
                stone: self.stone_at(point).map(colour_name::<Ghodak>),
                open: playing && self.is_legal_placement(point),
            })
            .collect();
        Board {
            moves_played: self.moves_played(),
            max_moves: options.max_moves(),
            komi: options.komi(),
            points,
            ko: self.ko_point().map(|point| self.name(point)),
        }
    }

    fn target_name(&self, action: usize) -> Option<String> {
        (action < self.options().points()).then(|| self.name(action))
    }

    fn effect(before: &Ghodak, action: usize, after: &Ghodak) -> Effect {
        let removed = (0..before.options().points())
            .filter(|&point| before.stone_at(point).is_some() && after.stone_at(point).is_none())
            .map(|point| before.name(point))
            .collect();
        Effect {
            placed: before.target_name(action),
            removed,
            ..Effect::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::RawOptions;
    use game::{Game, Side};

    #[test]
    fn a_capture_names_the_stone_it_took() {
        let options = RawOptions {
            size: 5,
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        let mut before = Ghodak::new(&options);
        for text in ["A2", "A1"] {
            before.play(text).unwrap();
        }
        let mut after = before.clone();
        let action = after.play("B1").unwrap().unwrap();
        let effect = Ghodak::effect(&before, action, &after);
        assert_eq!(effect.placed.as_deref(), Some("B1"));
        assert_eq!(effect.removed, ["A1"]);
        let board = after.board(game::Side::First);
        let at = |name: &str| board.points.iter().find(|p| p.name == name).unwrap();
        assert_eq!(at("A1").stone, None);
        assert!(!at("A1").open, "White may not play the suicide at A1");
        assert_eq!(at("B1").stone, Some(colour_name::<Ghodak>(Side::First)));
        assert_eq!((at("B1").x, at("B1").y), (1, 4));
        assert!(at("C3").open);
        assert_eq!(board.points.len(), 25);
        assert_eq!(Game::to_move(&after), Side::Second);
    }
}
