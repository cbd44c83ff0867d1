//! Ghost Chess, as `../shared/GHOST-CHESS.md` fixes it: one black queen, the Ghost, against
//! White's army without king and queen, the Paradigm, each side with its special moves.
//!
//! The board is six bitboards. A turn is taken one decision at a time (section 10): a
//! from-square, a to-square, then the follow-ups the rules call for, some decided by the other
//! player; a whole turn is one token (section 9.2).
//!
//! - `board`: squares, bitboards and attack tables;
//! - `rules`: the game itself: the state, the decision machine, White's and Black's moves;
//! - `notation` (tokens, section 9.2) and `position` (position strings, 9.3): text in and out;
//! - `game_impl`, `gtp_impl`, `planes`, `board_view`: the `game` contract's parts.

mod board;
mod board_view;
mod game_impl;
mod gtp_impl;
mod notation;
mod options;
mod planes;
mod position;
mod rules;

pub use board::{Bits, parse_square, square_name, squares};
pub use board_view::{Board, Button, Square};
pub use notation::{Token, parse_token};
pub use options::{GhostChessOptions, OptionsError, RawOptions};
pub use planes::CHANNELS;
pub use position::PositionError;
pub use rules::{
    ACTIONS, ASSAULT, BLACK, COLOUR_NAMES, Capture, DECISIONS, Decision, EXCHANGE, Ending,
    GLOBAL_ACTIONS, GhostChess, NO, PASS, Piece, TRANSCEND, WHITE, colour_name,
};
