//! The state of the game as the page reads it: everything needed to draw the board and the
//! panel, so the page holds no rules of its own.

use crate::colour::{Colour, PerColour};
use crate::session::Session;
use game::{Game, Outcome};
use ghast::{Action, EndReason, Ghast, Tile};
use serde::Serialize;
use std::collections::BTreeSet;

#[derive(Debug, Serialize)]
pub struct State {
    pub size: u8,
    /// The position string (RULES.md section 8).
    pub position: String,
    pub turn: u16,
    pub to_move: Colour,
    pub human: Colour,
    pub visits: u32,
    /// The page asks the bot to move when this is set.
    pub bot_to_move: bool,
    /// The coupler pattern, so the page draws whatever tile the rules were given.
    pub tile: Tile,
    pub cells: Vec<Cell>,
    pub can_pass: bool,
    pub pending: Option<Pending>,
    pub vetoes_left: PerColour<u8>,
    pub last: Option<LastMove>,
    pub tiles: PerColour<u32>,
    /// Tiles plus komi for Blue.
    pub scores: PerColour<f32>,
    pub win_margin: u16,
    pub result: Option<GameEnd>,
    pub moves: Vec<String>,
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
    pub colour: Colour,
    pub orientation: usize,
}

/// A placement waiting for the other side's `accept` or `veto`.
#[derive(Debug, Serialize)]
pub struct Pending {
    #[serde(rename = "move")]
    pub placement: String,
    pub answerer: Colour,
}

#[derive(Debug, Serialize)]
pub struct LastMove {
    #[serde(rename = "move")]
    pub text: String,
    pub by: Colour,
    /// The hex the move put a tile on, if it did (a vetoed-away or pending one does not).
    pub placed: Option<String>,
    /// Hexes whose tile the move's removal took away (the placed tile's own hex included).
    pub removed: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct GameEnd {
    /// `None` for a draw.
    pub winner: Option<Colour>,
    pub reason: &'static str,
    /// As `ghast replay` prints it, e.g. `orange margin`.
    pub text: String,
}

impl State {
    pub fn of(session: &Session) -> State {
        let game = session.game();
        let options = game.options();
        let geometry = options.geometry();
        let position = game.position();
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let legal: Vec<Action> = legal
            .into_iter()
            .filter_map(|index| Action::from_index(index, geometry))
            .collect();
        let open: BTreeSet<usize> = legal
            .iter()
            .filter_map(|action| match action {
                Action::Place { cell, .. } => Some(*cell),
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
                        colour: piece.side.into(),
                        orientation: piece.orientation,
                    }),
                    open: open.contains(&cell),
                }
            })
            .collect();
        let to_move = game.to_move();
        let result = game.result();
        State {
            size: options.size(),
            position: position.to_string(),
            turn: position.turn,
            to_move: to_move.into(),
            human: session.human().into(),
            visits: session.visits(),
            bot_to_move: result.is_none() && to_move != session.human(),
            tile: options.tile().clone(),
            cells,
            can_pass: legal.contains(&Action::Pass),
            pending: game.pending().map(|placement| Pending {
                placement: placement.to_text(geometry),
                answerer: to_move.into(),
            }),
            vetoes_left: PerColour::from_fn(|side| game.vetoes_left()[side.index()]),
            last: session
                .last()
                .map(|(before, action, after)| last_move(before, action, after)),
            tiles: PerColour::from_fn(|side| game.tile_count(side)),
            scores: PerColour::from_fn(|side| game.score(side)),
            win_margin: options.win_margin(),
            result: result.map(|result| GameEnd {
                winner: match result.outcome {
                    Outcome::Win(side) => Some(side.into()),
                    Outcome::Draw => None,
                },
                reason: match result.reason {
                    EndReason::Margin => "margin",
                    EndReason::Passes => "passes",
                    EndReason::Repetition => "repetition",
                    EndReason::Limit => "limit",
                },
                text: result.to_string(),
            }),
            moves: session
                .moves()
                .iter()
                .map(|action| action.to_text(geometry))
                .collect(),
        }
    }
}

/// What `action` did between `before` and `after`: where its tile went and what it removed.
fn last_move(before: &Ghast, action: Action, after: &Ghast) -> LastMove {
    let geometry = before.options().geometry();
    let (was, now) = (before.position().cells, after.position().cells);
    // A placement lands at once unless it now awaits an answer; an accept lands the pending one.
    let target = match action {
        Action::Place { cell, .. } if after.pending().is_none() => Some(cell),
        Action::Accept => match before.pending() {
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
    LastMove {
        text: action.to_text(geometry),
        by: Colour::from(before.to_move()),
        placed: target.map(|cell| geometry.hex_name(cell)),
        removed,
    }
}
