//! `game::BoardView` for [`Ghast`]: hexes with their tiles, the pending placement, vetoes.

use crate::action::Action;
use crate::ghast::Ghast;
use crate::tile::Tile;
use game::{BoardView, Effect, Game, colour_name};
use serde::Serialize;
use std::collections::BTreeSet;

/// What the page draws of a Ghast game besides what every game has.
#[derive(Debug, Serialize)]
pub struct Board {
    pub turn: u16,
    /// The coupler pattern, so the page draws whatever tile the rules were given.
    pub tile: Tile,
    pub cells: Vec<Cell>,
    /// A placement waiting for the other side's `accept` or `veto`.
    pub pending: Option<Pending>,
    /// Vetoes left to the first and the second side.
    pub vetoes_left: [u8; 2],
    /// Tiles on the board of the first and the second side.
    pub tiles: [u32; 2],
    pub win_margin: u16,
}

/// One on-board hex, at column `x` and row `y` of RULES.md section 2.
#[derive(Debug, Serialize)]
pub struct Cell {
    pub name: String,
    pub x: i32,
    pub y: i32,
    pub tile: Option<PlacedTile>,
    /// A placement here is legal now (empty and allowed by the opening rule).
    pub open: bool,
}

#[derive(Debug, Serialize)]
pub struct PlacedTile {
    pub colour: &'static str,
    pub orientation: usize,
}

#[derive(Debug, Serialize)]
pub struct Pending {
    #[serde(rename = "move")]
    pub placement: String,
    pub answerer: &'static str,
}

impl BoardView for Ghast {
    type Board = Board;

    const PAGE_MODULE: &'static str = include_str!("../page/hex.js");

    fn board(&self, _viewer: game::Side) -> Board {
        let options = self.options();
        let geometry = options.geometry();
        let position = self.position();
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        let open: BTreeSet<usize> = legal
            .into_iter()
            .filter_map(|index| match Action::from_index(index, geometry) {
                Some(Action::Place { cell, .. }) => Some(cell),
                _ => None,
            })
            .collect();
        let cells = geometry
            .on_board_cells()
            .map(|cell| {
                let (x, y) = geometry.xy(cell);
                Cell {
                    name: geometry.hex_name(cell),
                    x,
                    y,
                    tile: position.cells[cell].map(|piece| PlacedTile {
                        colour: colour_name::<Ghast>(piece.side),
                        orientation: piece.orientation,
                    }),
                    open: open.contains(&cell),
                }
            })
            .collect();
        Board {
            turn: position.turn,
            tile: options.tile().clone(),
            cells,
            pending: self.pending().map(|placement| Pending {
                placement: placement.to_text(geometry),
                answerer: colour_name::<Ghast>(Game::to_move(self)),
            }),
            vetoes_left: self.vetoes_left(),
            tiles: game::Side::BOTH.map(|side| self.tile_count(side)),
            win_margin: options.win_margin(),
        }
    }

    fn target_name(&self, action: usize) -> Option<String> {
        let geometry = self.options().geometry();
        match Action::from_index(action, geometry)? {
            Action::Place { cell, .. } => Some(geometry.hex_name(cell)),
            _ => None,
        }
    }

    /// A placement lands at once unless it now awaits an answer; an accept lands the pending
    /// one. Removed are the hexes that lost their tile, the landed tile's own included when
    /// it was removed at once.
    fn effect(before: &Ghast, action: usize, after: &Ghast) -> Effect {
        let geometry = before.options().geometry();
        let (was, now) = (before.position().cells, after.position().cells);
        let target = match Action::from_index(action, geometry) {
            Some(Action::Place { cell, .. }) if after.pending().is_none() => Some(cell),
            Some(Action::Accept) => match before.pending() {
                Some(Action::Place { cell, .. }) => Some(cell),
                _ => None,
            },
            _ => None,
        };
        let removed = geometry
            .on_board_cells()
            .filter(|&cell| now[cell].is_none() && (was[cell].is_some() || Some(cell) == target))
            .map(|cell| geometry.hex_name(cell))
            .collect();
        Effect {
            placed: target.map(|cell| geometry.hex_name(cell)),
            removed,
            ..Effect::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::RawOptions;

    #[test]
    fn the_board_marks_open_hexes_and_a_move_names_its_hex() {
        let options = RawOptions {
            size: 3,
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        let start = Ghast::new(&options);
        let board = start.board(game::Side::First);
        assert_eq!(board.cells.len(), 19);
        let open = board.cells.iter().find(|cell| cell.open).unwrap();
        assert!(
            board.cells.iter().any(|cell| !cell.open),
            "the opening rule closes some"
        );
        let mut after = start.clone();
        let action = after
            .play(&format!("{}:0", open.name))
            .unwrap()
            .index(options.geometry());
        assert_eq!(start.target_name(action), Some(open.name.clone()));
        let effect = Ghast::effect(&start, action, &after);
        assert_eq!(effect.placed, Some(open.name.clone()));
        assert!(effect.removed.is_empty());
        let placed = after.board(game::Side::First);
        let cell = placed.cells.iter().find(|c| c.name == open.name).unwrap();
        assert_eq!(cell.tile.as_ref().map(|tile| tile.colour), Some("orange"));
        assert!(!cell.open);
    }
}
