//! Vastuz, as `../shared/VASTUZ.md` fixes it: stones on the points of a hexagon, groups that
//! never merge, and cascades of steals between groups of one shape, decided one stone at a
//! time; the pie rule; a score by the sizes of one's groups.
//!
//! The board is a set of bit sets over the hex lattice ([`hexgrid`]): placements, reach and
//! targets are a few shifts, shapes are compared by a canonical key over the 12 symmetries,
//! and `apply` leaves the next decision's legal choices ready.

mod board_view;
mod game_impl;
mod gtp_impl;
mod options;
mod planes;
mod position;
mod state;
mod tables;
mod vastuz;

pub use board_view::{Board, Point};
pub use options::{OptionsError, RawOptions, VastuzOptions};
pub use planes::CHANNELS;
pub use position::PositionError;
pub use state::Decision;
pub use vastuz::{TurnMarks, Vastuz};
