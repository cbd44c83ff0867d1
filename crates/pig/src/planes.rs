//! What the network sees of Pig: a board of one cell, its planes the scores as fractions of
//! the target, and a policy of global actions only (roll, hold, and chance's faces, which
//! are never a target).

use crate::Pig;
use game::{Game, PlaneShape, Planes, PolicyLayout, Side};

/// The input planes, as `ghast games --planes` shows them (and this crate's docs).
const PLANES_DOC: &str = r#"Own banked score, the opponent's, the turn total, own score with the turn total, the
turns played, and a plane of ones."#;

/// Input planes per cell: see [`PLANES_DOC`].
const CHANNELS: usize = 6;

impl Planes for Pig {
    const PLANES_DOC: &'static str = PLANES_DOC;

    fn plane_shape(&self) -> PlaneShape {
        PlaneShape {
            channels: CHANNELS,
            height: 1,
            width: 1,
        }
    }

    fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: 0,
            global_actions: self.num_actions(),
        }
    }

    fn encode(&self, out: &mut [f32]) {
        let me = self.to_move();
        let target = self.options().target() as f32;
        let own = self.banked(me) as f32;
        out[0] = own / target;
        out[1] = self.banked(me.other()) as f32 / target;
        out[2] = self.turn_total() as f32 / target;
        out[3] = (own + self.turn_total() as f32) / target;
        out[4] = self.turn() as f32 / self.options().max_turns() as f32;
        out[5] = 1.0;
    }

    fn ownership(&self, side: Side, out: &mut [f32]) {
        let lead = self.score(side) - self.score(side.other());
        out[0] = lead.signum();
    }

    fn board_mask(&self, out: &mut [f32]) {
        out[0] = 1.0;
    }
}
