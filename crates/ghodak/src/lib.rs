//! Ghodak: Go with area scoring, as `../shared/GHODAK.md` fixes it.
//!
//! Sizes 5 to 19, captures, no suicide, simple ko, passes, area scoring with komi and a move
//! limit; GTP coordinates and position strings. The board is a fixed padded array, so that
//! `apply` and the legality checks never allocate whatever the size.

mod board_view;
mod game_impl;
mod ghodak;
mod gtp_impl;
mod options;
mod planes;
mod point;
mod result;
mod sgf_impl;
mod zobrist;

pub use ghodak::{Ghodak, MoveError, MoveFault, PositionError};
pub use options::{GhodakOptions, OptionsError, RawOptions};
pub use planes::CHANNELS;
pub use result::{EndReason, GameResult};
