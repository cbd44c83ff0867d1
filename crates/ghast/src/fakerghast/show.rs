//! How Fakerghast shows itself: `game::GtpGame` (colours, `final_score`, `showboard`) and
//! `game::BoardView` (what the page draws), both from the view of the side to move, which
//! knows its own pairs and only the public form of the other's.

use super::moves::{Decision, Move};
use super::options::Hiding;
use super::{Fakerghast, with_hidden};
use crate::board_view::PlacedTile;
use crate::diagram::{colour_letter, colour_name, picture};
use crate::state::side;
use crate::tile::Tile;
use game::{BoardView, Effect, Game, GtpGame, Side, final_score_text};
use hexgrid::Bits;
use serde::Serialize;
use std::fmt::Write;

/// A face-down tile as the side to move sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hidden {
    owner: Side,
    orientation: usize,
    /// Its owner's turns left until the reveal.
    left: u8,
    /// Whether it is the real tile of its pair: known only to its owner.
    real: Option<bool>,
}

impl Fakerghast {
    /// The face-down tile on `cell`, as `viewer` sees it.
    fn hidden_on(&self, cell: usize, viewer: Side) -> Option<Hidden> {
        with_hidden!(self, s => s.face_down_on(cell).map(|(pair, tile, real)| {
            let owner = side(usize::from(pair.owner));
            Hidden {
                owner,
                orientation: usize::from(tile.orientation),
                left: pair.left,
                real: (owner == viewer).then_some(real),
            }
        }))
    }

    fn face_up_on(&self, cell: usize) -> Option<(Side, usize)> {
        with_hidden!(self, s => s.board.piece(cell).map(|(colour, o)| (side(colour), o)))
    }

    fn tile_count(&self, colour: Side) -> u32 {
        with_hidden!(self, s => s.board.count(colour.index()))
    }
}

impl GtpGame for Fakerghast {
    const SCORE_LETTERS: [char; 2] = ['O', 'B'];

    /// As in Ghast: face-up tiles, plus komi for Blue; face-down tiles count for no one. An
    /// engine's game is its own view, in which the opponent's pairs still hidden at the end
    /// are a guess (the final reveal is not part of any move's public form), so after a game
    /// scored on the board this is its estimate; the referee's record has the true score.
    fn final_score(&self) -> String {
        let lead = self.score(Side::First) - self.score(Side::Second);
        final_score_text::<Self>(self.outcome(), f64::from(lead))
    }

    /// Ghast's picture with face-down tiles: `O3` a face-up Orange tile of orientation 3,
    /// `o3` a face-down Orange tile, and `r3` (Orange) or `R3` (Blue) the real tile of a pair
    /// of the side to move, the one thing it knows that its opponent does not.
    fn diagram(&self) -> String {
        let geometry = self.options().ghast().geometry();
        let mut out = picture(geometry, |cell| {
            if let Some((colour, orientation)) = self.face_up_on(cell) {
                return format!("{}{orientation}", colour_letter(colour));
            }
            match self.hidden_on(cell, Game::to_move(self)) {
                None => ".".to_owned(),
                Some(hidden) => {
                    let letter = match (hidden.owner, hidden.real) {
                        (Side::First, Some(true)) => 'r',
                        (Side::Second, Some(true)) => 'R',
                        (owner, _) => colour_letter(owner).to_ascii_lowercase(),
                    };
                    format!("{letter}{}", hidden.orientation)
                }
            }
        });
        let fakes = match self.options().hiding() {
            Hiding::Fakes { .. } => {
                let [orange, blue] = self.fakes_left();
                format!("; fakes left {orange},{blue}")
            }
            Hiding::EveryTurn { delay } => format!("; pairs revealed after {delay} own turns"),
        };
        writeln!(
            out,
            "O orange {} tiles, B blue {} tiles (komi {}); face down: o orange, b blue, \
             r/R the real tile of the side to move{fakes}",
            self.tile_count(Side::First),
            self.tile_count(Side::Second),
            self.options().ghast().komi(),
        )
        .expect("writing to a String");
        out.push_str(
            "orientation: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE (where the ranged coupler points)\n",
        );
        let mover = colour_name(Game::to_move(self));
        match (self.result(), self.pending()) {
            (Some(result), _) => writeln!(out, "result {result}"),
            (None, Some(real)) => writeln!(
                out,
                "{mover} to place the fake beside {}",
                real.to_text(geometry)
            ),
            (None, None) => writeln!(out, "{mover} to move"),
        }
        .expect("writing to a String");
        write!(out, "position {}", self.view_text(Game::to_move(self)))
            .expect("writing to a String");
        out
    }

    fn turn_task(&self) -> &'static str {
        if self.pending().is_some() {
            "to place the fake"
        } else {
            "to move"
        }
    }

    fn position_size(_text: &str) -> Result<i64, String> {
        Err(NO_POSITIONS.to_owned())
    }
}

/// Why a Fakerghast game cannot start from a position string: the string says which tile of
/// each pair is real, which no side may be told about its opponent.
const NO_POSITIONS: &str = "a Fakerghast game cannot start from a position string (it would \
                            tell each side the other's real tiles); start from the empty board";

/// What the page draws of a Fakerghast game: Ghast's board with face-down tiles, as the side
/// to move sees it.
#[derive(Debug, Serialize)]
pub struct Board {
    pub turn: u16,
    pub tile: Tile,
    pub cells: Vec<Cell>,
    /// The real tile chosen this turn, awaiting its fake: shown to its owner only.
    pub pending_real: Option<PendingReal>,
    /// `single` is legal now: under `fakes`, the real tile chosen may stay a single tile.
    pub can_single: bool,
    /// Pairs left to the first and the second side under `fakes` (0 under `fakerghast`).
    pub fakes_left: [u8; 2],
    /// Face-up tiles of the first and the second side.
    pub tiles: [u32; 2],
    pub win_margin: u16,
}

#[derive(Debug, Serialize)]
pub struct Cell {
    pub name: String,
    pub x: i32,
    pub y: i32,
    pub tile: Option<PlacedTile>,
    pub face_down: Option<FaceDown>,
    /// A tile may go here now.
    pub open: bool,
}

/// The tile chosen as this turn's real one, before its fake is placed.
#[derive(Debug, Serialize)]
pub struct PendingReal {
    pub hex: String,
    pub orientation: usize,
}

/// A face-down tile: its owner and orientation are public, whether it is real is known to its
/// owner only (`null` for the other side).
#[derive(Debug, Serialize)]
pub struct FaceDown {
    pub colour: &'static str,
    pub orientation: usize,
    pub turns_left: u8,
    pub real: Option<bool>,
}

impl BoardView for Fakerghast {
    type Board = Board;

    const PAGE_MODULE: &'static str = include_str!("../../page/hex.js");

    fn board(&self, viewer: Side) -> Board {
        let options = self.options().ghast();
        let geometry = options.geometry();
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        let open = |cell: usize| {
            legal.iter().any(|&action| {
                matches!(Decision::from_index(action, geometry),
                    Some(Decision::Place(tile)) if usize::from(tile.cell) == cell)
            })
        };
        let cells = geometry
            .on_board_cells()
            .map(|cell| {
                let (x, y) = geometry.xy(cell);
                Cell {
                    name: geometry.hex_name(cell),
                    x,
                    y,
                    tile: self
                        .face_up_on(cell)
                        .map(|(colour, orientation)| PlacedTile {
                            colour: colour_name(colour),
                            orientation,
                        }),
                    face_down: self.hidden_on(cell, viewer).map(|hidden| FaceDown {
                        colour: colour_name(hidden.owner),
                        orientation: hidden.orientation,
                        turns_left: hidden.left,
                        real: hidden.real,
                    }),
                    open: open(cell),
                }
            })
            .collect();
        Board {
            turn: with_hidden!(self, s => s.turn),
            tile: options.tile().clone(),
            cells,
            pending_real: self
                .pending()
                .filter(|_| Game::to_move(self) == viewer)
                .map(|real| PendingReal {
                    hex: geometry.hex_name(usize::from(real.cell)),
                    orientation: usize::from(real.orientation),
                }),
            can_single: self.parse_action("single").is_ok(),
            fakes_left: self.fakes_left(),
            tiles: Side::BOTH.map(|colour| self.tile_count(colour)),
            win_margin: options.win_margin(),
        }
    }

    fn target_name(&self, action: usize) -> Option<String> {
        let geometry = self.options().ghast().geometry();
        match Decision::from_index(action, geometry)? {
            Decision::Place(tile) => Some(geometry.hex_name(usize::from(tile.cell))),
            _ => None,
        }
    }

    /// A single tile lands on its hex; a pair names no hex, since which of its two tiles
    /// came last would tell which is the fake. Removed are the hexes whose face-up or
    /// face-down tile went away (a fake at its reveal among them).
    fn effect(before: &Fakerghast, action: usize, after: &Fakerghast) -> Effect {
        let geometry = before.options().ghast().geometry();
        let placed = match (Decision::from_index(action, geometry), after.last_move()) {
            (Some(Decision::Place(_) | Decision::Single), Some(Move::Single(tile)))
                if after.pending().is_none() =>
            {
                Some(tile.cell)
            }
            _ => None,
        };
        let taken = |game: &Fakerghast, cell: usize| {
            game.face_up_on(cell).is_some()
                || with_hidden!(game, s => s.board.face_down().contains(cell))
        };
        let removed = geometry
            .on_board_cells()
            .filter(|&cell| taken(before, cell) && !taken(after, cell))
            .map(|cell| geometry.hex_name(cell))
            .collect();
        Effect {
            placed: placed.map(|cell| geometry.hex_name(usize::from(cell))),
            removed,
            ..Effect::default()
        }
    }
}
