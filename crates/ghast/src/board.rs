//! Tiles on the board as bitboards, and removal of tiles without oxygen (RULES.md section 5).

use crate::bits::Bits;
use crate::tables::Tables;

/// One bitboard per colour (0 Orange, 1 Blue) and orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board<B> {
    tiles: [[B; 6]; 2],
}

impl<B: Bits> Board<B> {
    pub fn empty() -> Self {
        Board {
            tiles: [[B::ZERO; 6]; 2],
        }
    }

    pub fn tiles(&self, colour: usize, orientation: usize) -> B {
        self.tiles[colour][orientation]
    }

    pub fn colour(&self, colour: usize) -> B {
        self.tiles[colour]
            .iter()
            .fold(B::ZERO, |acc, &set| acc | set)
    }

    pub fn occupied(&self) -> B {
        self.colour(0) | self.colour(1)
    }

    /// The colour and orientation of the tile on `cell`, if any.
    pub fn piece(&self, cell: usize) -> Option<(usize, usize)> {
        (0..12)
            .map(|i| (i / 6, i % 6))
            .find(|&(c, o)| self.tiles[c][o].contains(cell))
    }

    pub fn place(&mut self, colour: usize, orientation: usize, cell: usize) {
        self.tiles[colour][orientation] |= B::bit(cell);
    }

    /// Places a tile and removes, in one round, every tile that is not alive. Returns the
    /// Zobrist change.
    ///
    /// When every tile was alive before (`settled`), only a colour with a coupler facing the
    /// filled hex can lose oxygen, and the new tile's colour can only gain a tile that needs
    /// checking when the new tile is not a source itself; other colours keep every tile.
    /// Skipping their flood fill is what makes most placements cheap.
    pub fn place_and_remove(
        &mut self,
        tables: &Tables<B>,
        colour: usize,
        orientation: usize,
        cell: usize,
        settled: bool,
    ) -> u64 {
        let empty_before = tables.on_board & !self.occupied();
        self.place(colour, orientation, cell);
        let empty = empty_before ^ B::bit(cell);
        let mut check = [!settled; 2];
        if settled {
            for (c, needed) in check.iter_mut().enumerate() {
                let facing = (0..6).fold(B::ZERO, |acc, o| {
                    acc | (self.tiles[c][o] & tables.facing(cell, o))
                });
                *needed = !facing.is_zero();
            }
            check[colour] |= (tables.coupled(cell, orientation) & empty).is_zero();
        }
        let mut key = tables.key(colour, orientation, cell);
        for c in (0..2).filter(|&c| check[c]) {
            let own = &mut self.tiles[c];
            let alive = alive(tables, own, empty);
            for (orientation, set) in own.iter_mut().enumerate() {
                let dead = *set & !alive;
                if !dead.is_zero() {
                    key ^= dead
                        .ones()
                        .fold(0, |k, dead_cell| k ^ tables.key(c, orientation, dead_cell));
                    *set &= alive;
                }
            }
        }
        key
    }
}

/// The tiles of one colour (`own`, by orientation) that are alive: reachable from a source by
/// links, computed as a bitboard flood fill over all cells at once.
#[inline]
fn alive<B: Bits>(tables: &Tables<B>, own: &[B; 6], empty: B) -> B {
    let all = own.iter().fold(B::ZERO, |acc, &set| acc | set);
    // couplers[d]: tiles with a regular coupler facing direction d.
    let mut couplers = [B::ZERO; 6];
    for &offset in tables.coupler_offsets() {
        for (o, &set) in own.iter().enumerate() {
            let d = o + offset;
            couplers[if d >= 6 { d - 6 } else { d }] |= set;
        }
    }
    let mut live = B::ZERO;
    for (d, &facing) in couplers.iter().enumerate() {
        live |= facing & tables.step((d + 3) % 6, empty);
    }
    if (all & !live).is_zero() {
        return all;
    }
    // links[d]: tiles with a two-way coupler link to their neighbour in direction d.
    let links: [B; 6] =
        std::array::from_fn(|d| couplers[d] & tables.step((d + 3) % 6, couplers[(d + 3) % 6]));
    // ranged[g]: tiles with a ranged link to the tile two steps away in direction g, whose
    // receiver faces back (g + 3).
    let ranged: [B; 6] = std::array::from_fn(|g| {
        let shooters = own[(g + 6 - tables.ranged) % 6];
        let receivers = own[(g + 9 - tables.receiver) % 6];
        shooters & tables.jump((g + 3) % 6, receivers)
    });
    loop {
        let mut grown = live;
        for d in 0..6 {
            grown |= tables.step(d, live & links[d]) | tables.jump(d, live & ranged[d]);
        }
        if grown == live {
            return live;
        }
        live = grown;
    }
}
