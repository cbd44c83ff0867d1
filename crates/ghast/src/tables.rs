//! Precomputed, per-options tables: direction masks, opening masks and Zobrist keys.
//!
//! Tables are built once per distinct set of options and kept for the life of the process
//! ([`game::intern`]), so a game state holds a plain `&'static` reference.

use crate::options::GhastOptions;
use game::splitmix64;
use hexgrid::Bits;
use hexgrid::Geometry;

/// Seed of the Zobrist keys; fixed so hashes are the same in every run and process.
const ZOBRIST_SEED: u64 = 0x6768_6173_745f_7a6b;

pub(crate) struct Tables<B> {
    pub options: GhastOptions,
    pub geometry: Geometry,
    width: u32,
    /// `geometry.cells()`, kept at hand for the Zobrist key index.
    cells: usize,
    pub on_board: B,
    /// Cells whose neighbour in direction d is on the board: masking by it before a shift
    /// stops steps that would wrap round to the other side of the square.
    can_step: [B; 6],
    /// Cells whose hex two steps away in direction d is on the board.
    can_jump: [B; 6],
    /// `open[i]`: on-board hexes of depth at most i (i = 0..=R).
    open: Vec<B>,
    /// Offsets of the tile's regular couplers.
    coupler_offsets: Vec<usize>,
    /// `facing[cell][o]`: the neighbours of `cell` where a tile of orientation o would have a
    /// regular coupler facing `cell`.
    facing: Vec<[B; 6]>,
    /// `shooter[g]`: the orientation whose ranged coupler points in direction g.
    pub shooter: [usize; 6],
    /// `receiving[g]`: the orientation whose receiver faces g + 3, back along a ranged link
    /// in direction g.
    pub receiving: [usize; 6],
    /// Tile keys, indexed `(colour * 6 + orientation) * cells + cell`.
    zobrist: Vec<u64>,
    /// Xored in while Blue is to move.
    pub blue_to_move: u64,
    /// Seed for keys of rarely changing state (vetoes left, pending answer, turn).
    pub extra_seed: u64,
}

impl<B: Bits> Tables<B> {
    fn new(options: &GhastOptions) -> Self {
        let geometry = options.geometry();
        assert!(
            geometry.cells() <= B::CAPACITY,
            "a size-{} board needs a wider bit set",
            options.size()
        );
        assert!(
            2 * geometry.width() < 64,
            "jumps must shift by less than 64"
        );
        let set = |pred: &dyn Fn(usize) -> bool| {
            geometry
                .on_board_cells()
                .filter(|&c| pred(c))
                .fold(B::ZERO, |acc, c| acc | B::bit(c))
        };
        let can_step = std::array::from_fn(|d| set(&|c| geometry.neighbour(c, d, 1).is_some()));
        let can_jump = std::array::from_fn(|d| set(&|c| geometry.neighbour(c, d, 2).is_some()));
        let open = (0..=geometry.radius())
            .map(|i| set(&|c| geometry.depth(c) <= i))
            .collect();
        let mut seed = ZOBRIST_SEED ^ u64::from(options.size());
        let zobrist = (0..12 * geometry.cells())
            .map(|_| splitmix64(&mut seed))
            .collect();
        let tile = options.tile();
        let coupler_mask = tile.coupler_mask();
        let has_coupler = |o: usize, d: usize| coupler_mask & (1 << ((d + 6 - o) % 6)) != 0;
        let facing_cell = |cell: usize, o: usize| {
            (0..6)
                .filter_map(|d| {
                    let next = geometry.neighbour(cell, d, 1)?;
                    has_coupler(o, (d + 3) % 6).then_some(B::bit(next))
                })
                .fold(B::ZERO, |acc, bit| acc | bit)
        };
        let facing = (0..geometry.cells())
            .map(|c| std::array::from_fn(|o| facing_cell(c, o)))
            .collect();
        Tables {
            options: options.clone(),
            geometry,
            width: geometry.width() as u32,
            cells: geometry.cells(),
            on_board: set(&|_| true),
            can_step,
            can_jump,
            open,
            coupler_offsets: tile.couplers.iter().map(|&k| usize::from(k)).collect(),
            facing,
            shooter: std::array::from_fn(|g| (g + 6 - usize::from(tile.ranged)) % 6),
            receiving: std::array::from_fn(|g| (g + 9 - usize::from(tile.receiver)) % 6),
            zobrist,
            blue_to_move: splitmix64(&mut seed),
            extra_seed: splitmix64(&mut seed),
        }
    }

    /// Moves each member of `set` one step in direction `d`. Every member must have an
    /// on-board neighbour in direction `d` (mask by [`Tables::can_step`] otherwise): the
    /// sets that removal steps are built that way, which saves a mask per step.
    #[inline(always)]
    pub fn step(&self, d: usize, set: B) -> B {
        let w = self.width;
        match d {
            0 => set.shl(1),
            1 => set.shr(short(w - 1)),
            2 => set.shr(short(w)),
            3 => set.shr(1),
            4 => set.shl(short(w - 1)),
            _ => set.shl(short(w)),
        }
    }

    /// Moves each member of `set` two steps in direction `d`, dropping those that would leave
    /// the board.
    #[inline(always)]
    pub fn jump(&self, d: usize, set: B) -> B {
        self.jump_within(d, set & self.can_jump[d])
    }

    /// [`Tables::jump`] for a set whose members all have an on-board hex two steps away in
    /// direction `d`.
    #[inline(always)]
    pub fn jump_within(&self, d: usize, set: B) -> B {
        let w = self.width;
        match d {
            0 => set.shl(2),
            1 => set.shr(short(2 * (w - 1))),
            2 => set.shr(short(2 * w)),
            3 => set.shr(2),
            4 => set.shl(short(2 * (w - 1))),
            _ => set.shl(short(2 * w)),
        }
    }

    /// Cells whose neighbour in direction `d` is on the board.
    #[inline(always)]
    pub fn can_step(&self, d: usize) -> B {
        self.can_step[d]
    }

    pub fn coupler_offsets(&self) -> &[usize] {
        &self.coupler_offsets
    }

    /// By orientation o: the neighbours of `cell` where a tile of orientation o has a regular
    /// coupler facing `cell`.
    #[inline(always)]
    pub fn facing(&self, cell: usize) -> &[B; 6] {
        &self.facing[cell]
    }

    /// Hexes the opening rule allows on turn `turn`: depth <= max(0, turn - 2).
    #[inline]
    pub fn open(&self, turn: u16) -> B {
        let i = usize::from(turn.saturating_sub(2)).min(self.open.len() - 1);
        self.open[i]
    }

    #[inline(always)]
    pub fn key(&self, colour: usize, orientation: usize, cell: usize) -> u64 {
        self.zobrist[(colour * 6 + orientation) * self.cells + cell]
    }
}

/// A shift amount of a step or a jump, which is always below 64 (asserted in [`Tables::new`]).
/// Masking says so to the compiler: a `u128` shift by an amount it cannot bound is a
/// branch-free sequence several times longer than the two instructions of a shift below 64.
#[inline(always)]
fn short(by: u32) -> u32 {
    by & 63
}

/// The tables for `options`, built on first use.
pub(crate) fn intern<B: Bits>(options: &GhastOptions) -> &'static Tables<B> {
    game::intern(
        |tables: &Tables<B>| tables.options == *options,
        || Tables::new(options),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexgrid::DIRECTIONS;

    #[test]
    fn steps_never_wrap_round_the_square() {
        let options = GhastOptions::default();
        let tables = intern::<u128>(&options);
        let g = tables.geometry;
        for cell in g.on_board_cells() {
            for (d, _) in DIRECTIONS.iter().enumerate() {
                let expected = g.neighbour(cell, d, 1).map_or(0, u128::bit);
                assert_eq!(
                    tables.step(d, u128::bit(cell) & tables.can_step(d)),
                    expected,
                    "{} d {d}",
                    g.hex_name(cell)
                );
                let expected = g.neighbour(cell, d, 2).map_or(0, u128::bit);
                assert_eq!(
                    tables.jump(d, u128::bit(cell)),
                    expected,
                    "{} d {d}",
                    g.hex_name(cell)
                );
            }
        }
    }

    #[test]
    fn interning_returns_the_same_tables() {
        let options = GhastOptions::default();
        assert!(std::ptr::eq(
            intern::<u128>(&options),
            intern::<u128>(&options)
        ));
    }
}
