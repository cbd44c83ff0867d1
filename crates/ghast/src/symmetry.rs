//! The board's symmetries: rotations by 60 degrees and, for a mirror-symmetric tile,
//! reflections (RULES.md section 3).
//!
//! Symmetry `k` in 0..6 rotates by k * 60 degrees counter-clockwise; symmetry 6 + k first
//! mirrors the board in the E-W axis through the centre, then rotates by k * 60 degrees.

use crate::action::Action;
use crate::hex::Geometry;
use crate::options::GhastOptions;

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

/// Where direction `d` points after symmetry `sym`.
pub fn map_direction(sym: usize, d: usize) -> usize {
    let k = sym % 6;
    if sym < 6 {
        (d + k) % 6
    } else {
        (12 - d + k) % 6
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

/// Where cell `cell` goes under symmetry `sym`, in axial coordinates about the centre:
/// the mirror is (q, r) -> (q + r, -r) and the 60-degree rotation (q, r) -> (q + r, -q).
pub fn map_cell(geometry: Geometry, sym: usize, cell: usize) -> usize {
    let r = geometry.radius();
    let (x, y) = geometry.xy(cell);
    let (mut q, mut rr) = (x - r, y - r);
    if sym >= 6 {
        (q, rr) = (q + rr, -rr);
    }
    for _ in 0..sym % 6 {
        (q, rr) = (q + rr, -q);
    }
    geometry.cell(q + r, rr + r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::DIRECTIONS;

    #[test]
    fn cells_move_with_their_directions() {
        let g = Geometry::new(4);
        let centre = g.cell(3, 3);
        for sym in 0..12 {
            for (d, _) in DIRECTIONS.iter().enumerate() {
                let next = g.neighbour(centre, d, 1).unwrap();
                let mapped = g.neighbour(centre, map_direction(sym, d), 1).unwrap();
                assert_eq!(map_cell(g, sym, next), mapped, "sym {sym} d {d}");
            }
        }
    }

    #[test]
    fn six_rotations_are_the_identity() {
        let g = Geometry::new(6);
        for cell in g.on_board_cells() {
            let turned = (0..6).fold(cell, |c, _| map_cell(g, 1, c));
            assert_eq!(turned, cell);
            assert_eq!(map_cell(g, 6, map_cell(g, 6, cell)), cell);
        }
    }
}
