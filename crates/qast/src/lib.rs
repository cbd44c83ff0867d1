//! Qast, as `../shared/QAST.md` fixes it: a race of four discs a side round a ring track to
//! the three gold circles, moved by three-sided dice sticks assigned before they move; laps
//! earn a bonus (gold, a kick, a return); the roll is an explicit chance token.
//!
//! A state is a few fixed arrays: one token is one action, applied in place; the roll's 243
//! outcomes are the contract's chance outcomes.

mod board_view;
mod game_impl;
mod gtp_impl;
mod notation;
mod options;
mod planes;
mod position;
mod qast;

pub use board_view::{Board, Destination, DiscView, Roll, Space};
pub use notation::{Token, parse_token, roll_action};
pub use options::{OptionsError, QastOptions, RawOptions};
pub use planes::CHANNELS;
pub use position::PositionError;
pub use qast::{Disc, Ending, GLOBAL_ACTIONS, Next, Qast, ROLLS};
