//! The 12 symmetries of the hex lattice about the board's centre.
//!
//! Symmetry `k` in 0..6 rotates by k * 60 degrees counter-clockwise; symmetry 6 + k first
//! mirrors the board in the E-W axis through the centre, then rotates by k * 60 degrees.

use crate::Geometry;

/// How many symmetries the lattice has: 6 rotations and 6 reflections.
pub const SYMMETRIES: usize = 12;

/// Where direction `d` points after symmetry `sym`.
pub fn map_direction(sym: usize, d: usize) -> usize {
    let k = sym % 6;
    if sym < 6 {
        (d + k) % 6
    } else {
        (12 - d + k) % 6
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
    use crate::DIRECTIONS;

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
