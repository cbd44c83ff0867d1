//! `game::Planes` for [`Ghodak`]: the network's view of a position.

use crate::ghodak::Ghodak;
use game::{PlaneShape, Planes, PolicyLayout, Side};

/// The input planes, as `ghast games --planes` shows them (and this crate's docs).
const PLANES_DOC: &str = r#"Input planes, all from the point of view of the side to move:

| planes | content |
|---|---|
| 0     | own stones |
| 1     | opponent stones |
| 2     | empty points |
| 3     | on-board mask (all ones: the board fills the grid) |
| 4     | the ko point the mover may not play on |
| 5-7   | own stones whose group has 1, 2, 3 or more liberties |
| 8-10  | opponent stones whose group has 1, 2, 3 or more liberties |
| 11    | the opponent's last stone |
| 12    | 1 if the opponent just passed (a pass now ends the game) |
| 13    | komi from the mover's view (+ when it favours the mover), / 15 |
| 14    | move progress: moves played / the move limit |

Liberty counts are what Go networks learn slowest from stones alone (KataGo feeds them
too); planes 12-14 are constant over the board."#;

/// Input planes per cell: see [`PLANES_DOC`].
pub const CHANNELS: usize = 15;

impl Planes for Ghodak {
    const PLANES_DOC: &'static str = PLANES_DOC;

    fn plane_shape(&self) -> PlaneShape {
        let size = self.options().size();
        PlaneShape {
            channels: CHANNELS,
            height: size,
            width: size,
        }
    }

    fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: 1,
            global_actions: 1,
        }
    }

    fn encode(&self, out: &mut [f32]) {
        let cells = self.options().points();
        assert_eq!(out.len(), CHANNELS * cells, "plane buffer length");
        out.fill(0.0);
        let me = self.to_move();
        let liberties = self.liberty_counts();
        for point in 0..cells {
            match self.stone_at(point) {
                Some(side) => {
                    let own = side == me;
                    out[if own { 0 } else { cells } + point] = 1.0;
                    let band = usize::from(liberties[point].clamp(1, 3)) - 1;
                    out[(if own { 5 } else { 8 } + band) * cells + point] = 1.0;
                }
                None => out[2 * cells + point] = 1.0,
            }
        }
        out[3 * cells..4 * cells].fill(1.0);
        if let Some(ko) = self.ko_point() {
            out[4 * cells + ko] = 1.0;
        }
        if let Some(last) = self.last_stone() {
            out[11 * cells + last] = 1.0;
        }
        let options = self.options();
        let komi = if me == Side::Second {
            options.komi()
        } else {
            -options.komi()
        };
        let globals = [
            if self.passes() > 0 { 1.0 } else { 0.0 },
            komi / 15.0,
            f32::from(self.moves_played()) / f32::from(options.max_moves()),
        ];
        for (i, value) in globals.into_iter().enumerate() {
            out[(12 + i) * cells..(13 + i) * cells].fill(value);
        }
    }

    fn ownership(&self, side: Side, out: &mut [f32]) {
        self.for_each_owner(|point, owner| {
            out[point] = match owner {
                Some(owner) if owner == side => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
        });
    }

    fn board_mask(&self, out: &mut [f32]) {
        out.fill(1.0);
    }
}
