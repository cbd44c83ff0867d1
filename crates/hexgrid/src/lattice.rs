//! Bitboard steps over a board's cells: the neighbours of a whole set in six shifts, and the
//! 12 symmetries as a table of cells.

use crate::{Bits, Geometry, SYMMETRIES, map_cell};

/// A board of one size as bit sets of type `B`, for rules that grow, flood and compare sets
/// of cells.
#[derive(Clone, Debug)]
pub struct Lattice<B> {
    geometry: Geometry,
    width: u32,
    on_board: B,
    /// Cells whose neighbour in direction d is on the board: masking by it before a shift
    /// stops steps that would wrap round to the other side of the square.
    can_step: [B; 6],
    /// `symmetric[sym][cell]`: where `cell` goes under symmetry `sym` ([`map_cell`]).
    symmetric: Vec<Vec<u16>>,
}

impl<B: Bits> Lattice<B> {
    /// # Panics
    /// When the board's square does not fit `B`.
    pub fn new(geometry: Geometry) -> Self {
        assert!(
            geometry.cells() <= B::CAPACITY,
            "a size-{} board needs a wider bit set",
            geometry.size()
        );
        let set = |pred: &dyn Fn(usize) -> bool| {
            geometry
                .on_board_cells()
                .filter(|&c| pred(c))
                .fold(B::ZERO, |acc, c| acc | B::bit(c))
        };
        let symmetric = (0..SYMMETRIES)
            .map(|sym| {
                (0..geometry.cells())
                    .map(|cell| {
                        let (x, y) = geometry.xy(cell);
                        if geometry.is_on_board(x, y) {
                            map_cell(geometry, sym, cell) as u16
                        } else {
                            cell as u16
                        }
                    })
                    .collect()
            })
            .collect();
        Lattice {
            geometry,
            width: geometry.width() as u32,
            on_board: set(&|_| true),
            can_step: std::array::from_fn(|d| set(&|c| geometry.neighbour(c, d, 1).is_some())),
            symmetric,
        }
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub fn on_board(&self) -> B {
        self.on_board
    }

    /// Each member of `set` moved one step in direction `d`, dropping those that would leave
    /// the board.
    #[inline(always)]
    pub fn step(&self, d: usize, set: B) -> B {
        let set = set & self.can_step[d];
        let w = self.width;
        match d {
            0 => set.shl(1),
            1 => set.shr(w - 1),
            2 => set.shr(w),
            3 => set.shr(1),
            4 => set.shl(w - 1),
            _ => set.shl(w),
        }
    }

    /// The on-board cells next to some member of `set` (members next to another member
    /// included).
    #[inline]
    pub fn neighbours(&self, set: B) -> B {
        (0..6).fold(B::ZERO, |acc, d| acc | self.step(d, set))
    }

    /// The cells of `set` connected to `seed` through neighbours within `set`.
    pub fn flood(&self, seed: B, set: B) -> B {
        let mut grown = seed & set;
        loop {
            let next = (grown | self.neighbours(grown)) & set;
            if next == grown {
                return grown;
            }
            grown = next;
        }
    }

    /// Where `cell` goes under symmetry `sym`; padding cells stay where they are.
    #[inline(always)]
    pub fn map_cell(&self, sym: usize, cell: usize) -> usize {
        usize::from(self.symmetric[sym][cell])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DIRECTIONS, U256, Words};

    fn steps_match_the_geometry<B: Bits>(size: u8) {
        let g = Geometry::new(size);
        let lattice = Lattice::<B>::new(g);
        for cell in g.on_board_cells() {
            for (d, _) in DIRECTIONS.iter().enumerate() {
                let expected = g.neighbour(cell, d, 1).map_or(B::ZERO, B::bit);
                assert_eq!(lattice.step(d, B::bit(cell)), expected, "size {size}");
            }
        }
    }

    #[test]
    fn steps_never_wrap_round_the_square() {
        steps_match_the_geometry::<u128>(6);
        steps_match_the_geometry::<U256>(8);
        steps_match_the_geometry::<Words<10>>(13);
    }

    #[test]
    fn flood_stays_within_the_set() {
        let g = Geometry::new(3);
        let lattice = Lattice::<u128>::new(g);
        let line = [g.cell(0, 2), g.cell(1, 2), g.cell(2, 2)];
        let apart = g.cell(4, 2);
        let set = line
            .iter()
            .fold(u128::bit(apart), |acc, &c| acc | u128::bit(c));
        let grown = lattice.flood(u128::bit(line[0]), set);
        assert_eq!(grown, set & !u128::bit(apart));
    }
}
