//! `game::Planes` for [`Fakerghast`]: the network's view of a position from the information
//! set of the side to move. Its own pairs it sees exactly; of the opponent's it sees the tiles
//! face down and their countdowns, never which one is real.

use super::state::HiddenState;
use super::{Fakerghast, with_hidden};
use crate::planes::{face_up_ownership, on_board_mask};
use game::{PlaneShape, Planes, PolicyLayout, Side};
use hexgrid::Bits;

/// The input planes, as `ghast games --planes` shows them (and this crate's docs).
const PLANES_DOC: &str = r#"Input planes, all from the point of view of the side to move:

| planes | content |
|---|---|
| 0-5   | own face-up tiles, one plane per orientation |
| 6-11  | opponent face-up tiles, one plane per orientation |
| 12-17 | own face-down tiles, by orientation |
| 18    | own face-down tiles that are real |
| 19-24 | opponent face-down tiles, by orientation (which is real: not shown) |
| 25    | own face-down tiles: turns left to their reveal / 3 |
| 26    | opponent face-down tiles: turns left to their reveal / 3 |
| 27    | empty on-board hexes |
| 28    | on-board mask |
| 29    | hexes the opening rule allows on this turn |
| 30-35 | this turn's real tile, chosen and awaiting its fake, by orientation |
| 36    | turn progress: (turn - 1) / max_turns |
| 37    | komi from the mover's view (+ when it favours the mover), / 10 |
| 38    | win margin / 10 |
| 39    | own pairs left / 4 under `fakes`, 1 under `fakerghast` |
| 40    | opponent pairs left, likewise |
| 41    | 1 while choosing the fake (or `single`) |
| 42    | 1 if the previous turn ended in a pass |
| 43    | turns from a pair's placement to its reveal / 3 |

Planes 36-43 are constant over the board (on-board hexes and padding alike)."#;

/// Input planes per cell: see [`PLANES_DOC`].
pub const CHANNELS: usize = 44;

impl<B: Bits> HiddenState<B> {
    fn encode(&self, out: &mut [f32]) {
        let geometry = self.tables.geometry;
        let cells = geometry.cells();
        assert_eq!(out.len(), CHANNELS * cells, "plane buffer length");
        out.fill(0.0);
        let me = self.to_move;
        let mut set_cell = |plane: usize, cell: usize, value: f32| {
            out[plane * cells + cell] = value;
        };
        for orientation in 0..6 {
            for cell in self.board.tiles(me, orientation).ones() {
                set_cell(orientation, cell, 1.0);
            }
            for cell in self.board.tiles(1 - me, orientation).ones() {
                set_cell(6 + orientation, cell, 1.0);
            }
        }
        for pair in self.pairs() {
            let mine = usize::from(pair.owner) == me;
            let countdown = f32::from(pair.left) / 3.0;
            for tile in [pair.real, pair.fake] {
                let (cell, orientation) = tile.unpack();
                let (tiles, left) = if mine { (12, 25) } else { (19, 26) };
                set_cell(tiles + orientation, cell, 1.0);
                set_cell(left, cell, countdown);
            }
            if mine {
                set_cell(18, usize::from(pair.real.cell), 1.0);
            }
        }
        let on_board = self.tables.on_board;
        for cell in (on_board & !self.board.occupied()).ones() {
            set_cell(27, cell, 1.0);
        }
        for cell in on_board.ones() {
            set_cell(28, cell, 1.0);
        }
        for cell in self.tables.open(self.turn).ones() {
            set_cell(29, cell, 1.0);
        }
        if let Some(real) = self.pending {
            let (cell, orientation) = real.unpack();
            set_cell(30 + orientation, cell, 1.0);
        }
        let options = &self.tables.options;
        let komi = if me == 0 {
            -options.komi()
        } else {
            options.komi()
        };
        let pairs_left = |colour: usize| match self.hiding.fakes() {
            Some(_) => f32::from(self.fakes_left[colour]) / 4.0,
            None => 1.0,
        };
        let globals = [
            f32::from(self.turn - 1) / f32::from(options.max_turns()),
            komi / 10.0,
            f32::from(options.win_margin()) / 10.0,
            pairs_left(me),
            pairs_left(1 - me),
            if self.pending.is_some() { 1.0 } else { 0.0 },
            if self.passes > 0 { 1.0 } else { 0.0 },
            f32::from(self.hiding.delay()) / 3.0,
        ];
        for (i, value) in globals.into_iter().enumerate() {
            out[(36 + i) * cells..(37 + i) * cells].fill(value);
        }
    }
}

impl Planes for Fakerghast {
    const PLANES_DOC: &'static str = PLANES_DOC;

    fn plane_shape(&self) -> PlaneShape {
        let width = self.options().ghast().geometry().width();
        PlaneShape {
            channels: CHANNELS,
            height: width,
            width,
        }
    }

    fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: 6,
            global_actions: 2,
        }
    }

    fn encode(&self, out: &mut [f32]) {
        with_hidden!(self, s => s.encode(out))
    }

    /// Face-up tiles only: at the end of a game that is all there is (the final reveal
    /// turns every pair over), and a face-down tile counts for no one.
    fn ownership(&self, side: Side, out: &mut [f32]) {
        with_hidden!(self, s => face_up_ownership(&s.board, side, out))
    }

    fn board_mask(&self, out: &mut [f32]) {
        with_hidden!(self, s => on_board_mask(s.tables, out))
    }
}
