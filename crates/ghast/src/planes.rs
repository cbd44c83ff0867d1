//! `game::Planes` for [`Ghast`]: the network's view of a position.

use crate::board::Board;
use crate::ghast::{Ghast, with_state};
use crate::state::State;
use crate::tables::Tables;
use game::{PlaneShape, Planes, PolicyLayout, Side};
use hexgrid::Bits;

/// The input planes, as `ghast games --planes` shows them (and this crate's docs).
const PLANES_DOC: &str = r#"Input planes, all from the point of view of the side to move:

| planes | content |
|---|---|
| 0-5   | own tiles, one plane per orientation |
| 6-11  | opponent tiles, one plane per orientation |
| 12    | empty on-board hexes |
| 13    | on-board mask |
| 14    | hexes the opening rule allows on this turn |
| 15-20 | the placement awaiting this side's accept or veto, by orientation |
| 21    | hexes vetoed in this turn |
| 22    | turn progress: (turn - 1) / max_turns |
| 23    | komi from the mover's view (+ when it favours the mover), / 10 |
| 24    | win margin / 10 |
| 25    | own vetoes left / 4 |
| 26    | opponent vetoes left / 4 |
| 27    | 1 while answering a veto request |
| 28    | 1 if the previous turn ended in a pass |

Planes 22-28 are constant over the board (on-board hexes and padding alike), so that a
convolution sees them everywhere; the scales keep typical values near 0..1."#;

/// Input planes per cell: see [`PLANES_DOC`].
pub const CHANNELS: usize = 29;

impl<B: Bits> State<B> {
    fn encode(&self, out: &mut [f32]) {
        let geometry = self.tables.geometry;
        let cells = geometry.cells();
        assert_eq!(out.len(), CHANNELS * cells, "plane buffer length");
        out.fill(0.0);
        let me = self.to_move;
        let mut fill_set = |plane: usize, set: B| {
            for cell in set.ones() {
                out[plane * cells + cell] = 1.0;
            }
        };
        for orientation in 0..6 {
            fill_set(orientation, self.board.tiles(me, orientation));
            fill_set(6 + orientation, self.board.tiles(1 - me, orientation));
        }
        let on_board = self.tables.on_board;
        fill_set(12, on_board & !self.board.occupied());
        fill_set(13, on_board);
        fill_set(14, self.tables.open(self.turn));
        if let Some((cell, orientation)) = self.pending {
            fill_set(15 + usize::from(orientation), B::bit(usize::from(cell)));
        }
        fill_set(21, self.vetoed);
        let options = self.options();
        let komi = if me == 0 {
            -options.komi()
        } else {
            options.komi()
        };
        let globals = [
            f32::from(self.turn - 1) / f32::from(options.max_turns()),
            komi / 10.0,
            f32::from(options.win_margin()) / 10.0,
            f32::from(self.vetoes[me]) / 4.0,
            f32::from(self.vetoes[1 - me]) / 4.0,
            if self.pending.is_some() { 1.0 } else { 0.0 },
            if self.passes > 0 { 1.0 } else { 0.0 },
        ];
        for (i, value) in globals.into_iter().enumerate() {
            out[(22 + i) * cells..(23 + i) * cells].fill(value);
        }
    }
}

/// Who owns each cell, from `side`'s view: +1 its face-up tiles, -1 the opponent's, 0 else.
pub(crate) fn face_up_ownership<B: Bits>(board: &Board<B>, side: Side, out: &mut [f32]) {
    out.fill(0.0);
    let me = side.index();
    for cell in board.colour(me).ones() {
        out[cell] = 1.0;
    }
    for cell in board.colour(1 - me).ones() {
        out[cell] = -1.0;
    }
}

/// 1 on the board's hexes, 0 on the padding of the square.
pub(crate) fn on_board_mask<B: Bits>(tables: &Tables<B>, out: &mut [f32]) {
    out.fill(0.0);
    for cell in tables.on_board.ones() {
        out[cell] = 1.0;
    }
}

impl Planes for Ghast {
    const PLANES_DOC: &'static str = PLANES_DOC;

    fn plane_shape(&self) -> PlaneShape {
        let width = self.options().geometry().width();
        PlaneShape {
            channels: CHANNELS,
            height: width,
            width,
        }
    }

    fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: 6,
            global_actions: 3,
        }
    }

    fn encode(&self, out: &mut [f32]) {
        with_state!(self, s => s.encode(out))
    }

    fn ownership(&self, side: Side, out: &mut [f32]) {
        with_state!(self, s => face_up_ownership(&s.board, side, out))
    }

    fn board_mask(&self, out: &mut [f32]) {
        with_state!(self, s => on_board_mask(s.tables, out))
    }
}
