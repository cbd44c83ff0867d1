//! Tiles on the board as bitboards, and removal of tiles without oxygen (RULES.md section 5).

use crate::tables::Tables;
use hexgrid::Bits;

/// The tiles on the board: one bitboard per colour (0 Orange, 1 Blue) and orientation, plus
/// views of them that removal needs on every placement. The views are updated as tiles come
/// and go rather than rebuilt from the orientation boards each time, which used to be most of
/// the cost of a placement.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board<B> {
    tiles: [[B; 6]; 2],
    /// Each colour's tiles, whatever their orientation.
    colours: [B; 2],
    /// `couplers[c][d]`: tiles of colour c with a regular coupler facing an on-board hex in
    /// direction d. A coupler facing off the board gives neither oxygen nor a link, and
    /// leaving it out means every member has a neighbour in direction d, so removal can shift
    /// these sets without masking against wrap-round.
    couplers: [[B; 6]; 2],
    /// Tiles of each colour. Counted as they come and go because the end checks need both
    /// counts after every turn, and a 128-bit popcount is a long instruction sequence on
    /// baseline x86-64.
    counts: [u32; 2],
    /// Face-down tiles of Fakerghast (RULES.md 9.2), either colour: they fill their hexes, so
    /// a coupler facing one gets no oxygen, but have no couplers and no score. Always empty in
    /// standard Ghast.
    face_down: B,
}

impl<B: Bits> Board<B> {
    pub fn empty() -> Self {
        Board {
            tiles: [[B::ZERO; 6]; 2],
            colours: [B::ZERO; 2],
            couplers: [[B::ZERO; 6]; 2],
            counts: [0; 2],
            face_down: B::ZERO,
        }
    }

    pub fn tiles(&self, colour: usize, orientation: usize) -> B {
        self.tiles[colour][orientation]
    }

    pub fn colour(&self, colour: usize) -> B {
        self.colours[colour]
    }

    pub fn count(&self, colour: usize) -> u32 {
        self.counts[colour]
    }

    /// Hexes holding a tile, face up or face down.
    pub fn occupied(&self) -> B {
        self.colours[0] | self.colours[1] | self.face_down
    }

    pub fn face_down(&self) -> B {
        self.face_down
    }

    /// Puts a face-down tile on the empty hex `cell`: it takes the hex's oxygen away from the
    /// couplers facing it, and no removal runs until the turn's one round.
    pub fn place_face_down(&mut self, cell: usize) {
        self.face_down |= B::bit(cell);
    }

    /// Takes the face-down tile off `cell` (a pair's reveal).
    pub fn lift_face_down(&mut self, cell: usize) {
        self.face_down &= !B::bit(cell);
    }

    /// The colour and orientation of the tile on `cell`, if any.
    pub fn piece(&self, cell: usize) -> Option<(usize, usize)> {
        (0..12)
            .map(|i| (i / 6, i % 6))
            .find(|&(c, o)| self.tiles[c][o].contains(cell))
    }

    /// Puts a tile on the empty hex `cell`, without removal.
    pub fn place(&mut self, tables: &Tables<B>, colour: usize, orientation: usize, cell: usize) {
        let bit = B::bit(cell);
        self.tiles[colour][orientation] |= bit;
        self.colours[colour] |= bit;
        for &offset in tables.coupler_offsets() {
            let d = (orientation + offset) % 6;
            self.couplers[colour][d] |= bit & tables.can_step(d);
        }
        self.counts[colour] += 1;
    }

    /// Places a tile and removes, in one round, every tile that is not alive. Returns the
    /// Zobrist change.
    ///
    /// When every tile was alive before (`settled`), only the tiles with a coupler facing the
    /// filled hex can have lost their oxygen, plus the new tile itself: every other tile still
    /// has the source and the links that made it alive. So a colour needs a flood fill only
    /// when one of those tiles is not a source any more, and most placements need none.
    pub fn place_and_remove(
        &mut self,
        tables: &Tables<B>,
        colour: usize,
        orientation: usize,
        cell: usize,
        settled: bool,
    ) -> u64 {
        self.place(tables, colour, orientation, cell);
        let at_risk = std::array::from_fn(|c| {
            if settled {
                let facing = tables.facing(cell);
                let new = if c == colour { B::bit(cell) } else { B::ZERO };
                (0..6).fold(new, |acc, o| acc | (self.tiles[c][o] & facing[o]))
            } else {
                self.colours[c]
            }
        });
        tables.key(colour, orientation, cell) ^ self.remove(tables, at_risk)
    }

    /// One removal round over every tile (Fakerghast's round after the reveal, where a turn
    /// changes the board in several places at once). Returns the Zobrist change.
    pub fn remove_starved(&mut self, tables: &Tables<B>) -> u64 {
        self.remove(tables, self.colours)
    }

    /// Removes every tile that is not alive, given the tiles of each colour that may have lost
    /// their oxygen (every other tile is known to be alive). Returns the Zobrist change.
    fn remove(&mut self, tables: &Tables<B>, at_risk: [B; 2]) -> u64 {
        let empty = tables.on_board & !self.occupied();
        let mut key = 0;
        for (c, at_risk) in at_risk.into_iter().enumerate() {
            if at_risk.is_zero() {
                continue;
            }
            let sources = self.sources(tables, c, empty);
            let lost = at_risk & !sources;
            if !lost.is_zero() {
                let alive = self.alive(tables, c, sources, lost);
                key ^= self.keep(tables, c, alive);
            }
        }
        key
    }

    /// Tiles of colour `c` with a regular coupler facing an empty on-board hex.
    #[inline(always)]
    fn sources(&self, tables: &Tables<B>, c: usize, empty: B) -> B {
        let couplers = &self.couplers[c];
        (0..6).fold(B::ZERO, |acc, d| {
            acc | (couplers[d] & tables.step((d + 3) % 6, empty))
        })
    }

    /// The tiles of colour `c` that are alive, given its `sources` and the tiles that `lost`
    /// the oxygen they may have had: in a settled position, the tiles at risk that are not
    /// sources; otherwise every tile that is not a source.
    ///
    /// A tile that `lost` does not link to, directly or through other tiles, still has the
    /// path from a source that made it alive, so only the tiles reached from `lost` are
    /// suspects. Two flood fills over the suspects replace one over the whole colour, which
    /// matters because a fill costs a round per link in the longest chain it follows.
    fn alive(&self, tables: &Tables<B>, c: usize, sources: B, lost: B) -> B {
        let (own, couplers, all) = (&self.tiles[c], &self.couplers[c], self.colours[c]);
        // links[d]: tiles with a two-way coupler link to their neighbour in direction d.
        let links: [B; 6] =
            std::array::from_fn(|d| couplers[d] & tables.step((d + 3) % 6, couplers[(d + 3) % 6]));
        // ranged[g]: tiles with a ranged link to the tile two steps away in direction g, whose
        // receiver faces back (g + 3).
        let ranged: [B; 6] = std::array::from_fn(|g| {
            let receivers = own[tables.receiving[g]];
            own[tables.shooter[g]] & tables.jump((g + 3) % 6, receivers)
        });
        // Grows `set` along links until it stops growing or covers `goal`, spreading only
        // from the tiles added in the previous round. A link's far end holds a tile, so the
        // steps need no mask.
        let close = |mut set: B, goal: B| {
            let mut frontier = set;
            while !(goal & !set).is_zero() {
                frontier = (0..6).fold(B::ZERO, |acc, d| {
                    acc | tables.step(d, frontier & links[d])
                        | tables.jump_within(d, frontier & ranged[d])
                }) & !set;
                if frontier.is_zero() {
                    break;
                }
                set |= frontier;
            }
            set
        };
        let suspects = close(lost, all);
        close((all & !suspects) | sources, suspects)
    }

    /// Removes the tiles of colour `c` outside `alive`; returns their Zobrist keys.
    fn keep(&mut self, tables: &Tables<B>, c: usize, alive: B) -> u64 {
        let dead = self.colours[c] & !alive;
        if dead.is_zero() {
            return 0;
        }
        let mut key = 0;
        for (orientation, set) in self.tiles[c].iter_mut().enumerate() {
            for dead_cell in (*set & dead).ones() {
                key ^= tables.key(c, orientation, dead_cell);
                self.counts[c] -= 1;
            }
            *set &= alive;
        }
        for set in &mut self.couplers[c] {
            *set &= alive;
        }
        self.colours[c] &= alive;
        key
    }
}
