//! Ghast's symmetries: the lattice's (`hexgrid`'s 6 rotations, and for a mirror-symmetric
//! tile its 6 reflections too; RULES.md section 3), and what they do to a tile's
//! orientation.

use crate::action::Action;
use crate::options::GhastOptions;
use hexgrid::map_cell;

/// How many symmetries a game under `options` has: 12 with a mirror-symmetric tile, else the
/// 6 rotations.
pub fn symmetry_count(options: &GhastOptions) -> usize {
    if options.tile().mirror_shift().is_some() {
        12
    } else {
        6
    }
}

/// Where the dense action `action` goes under symmetry `sym`: a placement moves with the
/// board, the global actions (pass, and the variants' own) stay.
pub fn transform_action(options: &GhastOptions, sym: usize, action: usize) -> usize {
    let geometry = options.geometry();
    let mirror_shift = usize::from(options.tile().mirror_shift().unwrap_or(0));
    match Action::from_index(action, geometry) {
        Some(Action::Place { cell, orientation }) => Action::Place {
            cell: map_cell(geometry, sym, cell),
            orientation: map_orientation(sym, orientation, mirror_shift),
        }
        .index(geometry),
        _ => action,
    }
}

/// The orientation a tile of orientation `o` has after symmetry `sym`. `mirror_shift` is the
/// tile's [`crate::Tile::mirror_shift`]: a mirrored tile of orientation o matches the tile of
/// orientation `shift - o`.
pub fn map_orientation(sym: usize, o: usize, mirror_shift: usize) -> usize {
    let k = sym % 6;
    if sym < 6 {
        (o + k) % 6
    } else {
        (mirror_shift + 12 - o + k) % 6
    }
}
