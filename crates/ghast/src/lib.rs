//! The rules of Ghast (RULES.md), and of its hidden-information variant [`Fakerghast`]: bitboards, removal as a flood fill, notation, position
//! strings, Zobrist keys and the `game::Game` / `game::Planes` implementations.
//!
//! [`Ghast`] is the game state; [`GhastOptions`] its validated parameters.

mod action;
mod board;
mod board_view;
mod diagram;
pub mod fakerghast;
mod game_impl;
mod ghast;
mod gtp_impl;
mod history;
mod options;
mod planes;
mod position;
mod result;
mod state;
pub mod symmetry;
mod tables;
mod tile;

pub use action::{Action, MoveError, MoveProblem};
pub use diagram::{colour_name, diagram};
pub use fakerghast::{Fakerghast, FakerghastOptions, RawFakerghastOptions};
pub use ghast::Ghast;
pub use hexgrid::{Bits, DIRECTIONS, Geometry, HexError, U256};
pub use options::{GhastOptions, OptionsError, RawOptions, parse_fakes, parse_vetoes};
pub use planes::CHANNELS;
pub use position::{Piece, Position, PositionError, PositionProblem};
pub use result::{EndReason, GameResult};
pub use tile::Tile;
