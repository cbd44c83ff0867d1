//! The hex lattice that Ghast, Fakerghast and Vastuz are played on: a hexagonal board's
//! geometry and cell names, bit sets over its cells, and its 12 symmetries. It knows no game.

mod bits;
mod geometry;
mod lattice;
mod symmetry;

pub use bits::{Bits, Ones, U256, Words};
pub use geometry::{DIRECTIONS, Geometry, HexError};
pub use lattice::Lattice;
pub use symmetry::{SYMMETRIES, map_cell, map_direction};
