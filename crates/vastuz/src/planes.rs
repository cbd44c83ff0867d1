//! `game::Planes` for [`Vastuz`]: the position and where the turn stands, from the mover's
//! side (section 7).

use crate::state::{Decision, State};
use crate::vastuz::{Inner, Vastuz, with_state};
use game::{PlaneShape, Planes, PolicyLayout, Side};
use hexgrid::Bits;

/// The input planes, as `ghast games --planes` shows them (and this crate's docs).
const PLANES_DOC: &str = r#"Input planes, all from the point of view of the side to move, over the (2R+1)² square:

| planes | content |
|---|---|
| 0, 1  | own stones, opponent stones |
| 2, 3  | empty points, on-board mask |
| 4     | the points legal for this decision |
| 5-7   | the decision: place, take, put (constant over the board) |
| 8     | the mover's pending groups |
| 9, 10 | the thief of the step under way: its stones now, its stones when the step began |
| 11    | the step's remaining targets |
| 12    | the taken stone's point |
| 13    | what is left of the group the taken stone came from |
| 14, 15| each stone's group size / 8 (at most 1): own, opponent |
| 16, 17| points where the mover, the opponent may place |
| 18    | 1 while `swap` is legal |
| 19    | stones on the board / points |

The turn's state within a move (planes 8-13) is what tells one decision of a cascade from
another on the same stones; group sizes are what the score counts."#;

/// Input planes per cell: see [`PLANES_DOC`].
pub const CHANNELS: usize = 20;

impl Planes for Vastuz {
    const PLANES_DOC: &'static str = PLANES_DOC;

    fn plane_shape(&self) -> PlaneShape {
        let width = self.geometry().width();
        PlaneShape {
            channels: CHANNELS,
            height: width,
            width,
        }
    }

    fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: 1,
            global_actions: 2,
        }
    }

    fn encode(&self, out: &mut [f32]) {
        with_state!(&self.inner, s => encode(s, out));
    }

    fn ownership(&self, side: Side, out: &mut [f32]) {
        for (cell, owner) in out.iter_mut().enumerate() {
            *owner = match self.colour_at(cell) {
                Some(colour) if colour == side.index() => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
        }
    }

    fn board_mask(&self, out: &mut [f32]) {
        out.fill(0.0);
        for cell in self.geometry().on_board_cells() {
            out[cell] = 1.0;
        }
    }
}

fn encode<B: Bits>(state: &State<B>, out: &mut [f32]) {
    let geometry = state.tables.geometry();
    let cells = geometry.cells();
    assert_eq!(out.len(), CHANNELS * cells, "plane buffer length");
    out.fill(0.0);
    let on_board = state.tables.lattice.on_board();
    let mut set = |plane: usize, members: B| {
        for cell in members.ones() {
            out[plane * cells + cell] = 1.0;
        }
    };
    let (me, them) = (state.mover, 1 - state.mover);
    set(0, state.stones[me]);
    set(1, state.stones[them]);
    set(2, state.empty());
    set(3, on_board);
    set(4, state.choices);
    match state.decision {
        Decision::Place => set(5, on_board),
        Decision::Take => set(6, on_board),
        Decision::Put => set(7, on_board),
        Decision::Over => {}
    }
    set(8, state.pending);
    if let Some(step) = state.step {
        set(
            9,
            state.groups[me][state.group_at(me, step.start.lowest())].stones,
        );
        set(10, step.start);
        set(11, step.targets);
    }
    if let Some(taken) = state.taken {
        set(12, B::bit(taken.cell));
        set(13, taken.group & state.stones[them]);
    }
    set(16, state.placeable[me] & state.empty());
    set(17, state.placeable[them] & state.empty());
    if state.swap_legal() {
        set(18, on_board);
    }
    for (plane, colour) in [(14, me), (15, them)] {
        for group in &state.groups[colour] {
            let value = (f32::from(group.size) / 8.0).min(1.0);
            for cell in group.stones.ones() {
                out[plane * cells + cell] = value;
            }
        }
    }
    let stones = (state.stones[0] | state.stones[1]).count() as f32;
    let fullness = stones / geometry.hexes() as f32;
    for cell in on_board.ones() {
        out[19 * cells + cell] = fullness;
    }
}
