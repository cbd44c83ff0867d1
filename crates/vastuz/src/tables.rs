//! Per-size tables: the lattice as bit sets and the Zobrist keys, built once per size and
//! bit-set width and kept for the life of the process ([`game::intern`]), so a state holds a
//! plain `&'static`.

use game::splitmix64;
use hexgrid::{Bits, Geometry, Lattice};

/// Seed of the Zobrist keys; fixed so hashes are the same in every run and process.
const ZOBRIST_SEED: u64 = 0x7661_7374_757a_5f6b;

#[derive(Debug)]
pub(crate) struct Tables<B> {
    pub lattice: Lattice<B>,
    /// Stone keys, indexed `colour * cells + cell`.
    zobrist: Vec<u64>,
    pub white_to_move: u64,
    /// Xored in while `swap` is a legal move.
    pub swap_open: u64,
}

impl<B: Bits> Tables<B> {
    fn new(geometry: Geometry) -> Self {
        let mut seed = ZOBRIST_SEED ^ u64::from(geometry.size());
        Tables {
            lattice: Lattice::new(geometry),
            zobrist: (0..2 * geometry.cells())
                .map(|_| splitmix64(&mut seed))
                .collect(),
            white_to_move: splitmix64(&mut seed),
            swap_open: splitmix64(&mut seed),
        }
    }

    pub fn geometry(&self) -> Geometry {
        self.lattice.geometry()
    }

    #[inline(always)]
    pub fn stone_key(&self, colour: usize, cell: usize) -> u64 {
        self.zobrist[colour * self.geometry().cells() + cell]
    }

    pub fn name(&self, cell: usize) -> String {
        self.geometry().hex_name(cell)
    }
}

/// The tables for boards of `size`, built on first use.
pub(crate) fn intern<B: Bits>(size: u8) -> &'static Tables<B> {
    game::intern(
        |tables: &Tables<B>| tables.geometry().size() == size,
        || Tables::new(Geometry::new(size)),
    )
}
