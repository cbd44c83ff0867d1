//! `game::Planes` for [`Qast`]: the ring unrolled into one row of N spaces (section 8).

use crate::notation::spaces;
use crate::qast::{GLOBAL_ACTIONS, Next, Qast};
use game::{PlaneShape, Planes, PolicyLayout, Side};

/// The input planes, as `ghast games --planes` shows them (and this crate's docs).
const PLANES_DOC: &str = r#"Input planes over the unrolled track (1 x N), from the point of view of the mover:

| planes | content |
|---|---|
| 0, 1   | own discs, the opponent's |
| 2-5    | direction: own `+`, own `-`, opponent `+`, opponent `-` |
| 6, 7   | progress / N: own, opponent |
| 8-13   | stick marks: own sticks 1-3, the opponent's 1-3 |
| 14, 15 | painted spaces: own, the opponent's |
| 16     | the spaces legal for this decision |
| 17     | the disc the decision is about (the stick's disc, the lapping disc) |
| 18-21  | circles / 3 and gold / 3: own, opponent, own, opponent |
| 22     | 1 if the mover holds the coin |
| 23-27  | the decision: set-up, assignment, move, lap bonus, end placement |
| 28-30  | its stick: 1, 2, 3 |
| 31-36  | this round's stick values / 4: own sticks 1-3, the opponent's 1-3 (0: none) |
| 37     | rounds left before the limit / 100, at most 1 |
| 38     | 1 if the mover is Black |

Planes 18 on are constant over the row: what the count and the round's order depend on."#;

/// Input planes per cell: see [`PLANES_DOC`].
pub const CHANNELS: usize = 39;

impl Planes for Qast {
    const PLANES_DOC: &'static str = PLANES_DOC;

    fn plane_shape(&self) -> PlaneShape {
        PlaneShape {
            channels: CHANNELS,
            height: 1,
            width: self.n(),
        }
    }

    fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: 1,
            global_actions: GLOBAL_ACTIONS,
        }
    }

    fn encode(&self, out: &mut [f32]) {
        let n = self.n();
        assert_eq!(out.len(), CHANNELS * n, "plane buffer length");
        out.fill(0.0);
        let me = self.mover();
        let mut set = |plane: usize, space: usize, value: f32| out[plane * n + space] = value;
        for k in 0..n {
            if let Some(disc) = self.disc(k) {
                let own = usize::from(disc.colour != me);
                set(own, k, 1.0);
                match disc.dir {
                    1 => set(2 + 2 * own, k, 1.0),
                    -1 => set(3 + 2 * own, k, 1.0),
                    _ => {}
                }
                set(6 + own, k, self.progress(k) as f32 / n as f32);
                for stick in 1..=3 {
                    if disc.sticks & (1 << stick) != 0 {
                        set(8 + 3 * own + stick - 1, k, 1.0);
                    }
                }
            }
            set(14, k, f32::from(u8::from(self.is_painted(me, k))));
            set(15, k, f32::from(u8::from(self.is_painted(1 - me, k))));
        }
        for k in spaces(self.space_choices()) {
            set(16, k, 1.0);
        }
        let (kind, stick) = match self.next {
            Next::Setup(_) => (Some(23), None),
            Next::Assign { stick, .. } => (Some(24), Some(stick)),
            Next::Move { colour, stick } => {
                if let Some(k) = self.carrier(colour, stick) {
                    set(17, k, 1.0);
                }
                (Some(25), Some(stick))
            }
            Next::Lap { stick, space, .. } => {
                set(17, usize::from(space), 1.0);
                (Some(26), Some(stick))
            }
            Next::End { .. } => (Some(27), None),
            Next::Roll | Next::Over => (None, None),
        };
        let mut fill = |plane: usize, value: f32| out[plane * n..(plane + 1) * n].fill(value);
        fill(18, f32::from(self.circles[usize::from(me)]) / 3.0);
        fill(19, f32::from(self.circles[usize::from(1 - me)]) / 3.0);
        fill(20, f32::from(self.gold[usize::from(me)]) / 3.0);
        fill(21, f32::from(self.gold[usize::from(1 - me)]) / 3.0);
        fill(22, f32::from(u8::from(self.coin == me)));
        fill(38, f32::from(u8::from(me == 0)));
        if let Some(plane) = kind {
            fill(plane, 1.0);
        }
        if let Some(k) = stick {
            fill(27 + usize::from(k), 1.0);
        }
        if self.roll.is_some() {
            for (offset, colour) in [(31, me), (34, 1 - me)] {
                let sticks = if colour == self.coin { 1..=3 } else { 2..=3 };
                for k in sticks {
                    let value = self.stick_value(colour, k) as f32 / 4.0;
                    fill(offset + usize::from(k) - 1, value);
                }
            }
        }
        let left = self.options().max_rounds().saturating_sub(self.round) as f32;
        fill(37, (left / 100.0).min(1.0));
    }

    fn ownership(&self, side: Side, out: &mut [f32]) {
        for (k, owner) in out.iter_mut().enumerate() {
            *owner = match self.disc(k) {
                Some(disc) if usize::from(disc.colour) == side.index() => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
        }
    }

    fn board_mask(&self, out: &mut [f32]) {
        out.fill(1.0);
    }
}
