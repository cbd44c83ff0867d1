use crate::{Game, Side};

/// The shape of a game's input planes: `channels` planes over a `height` x `width` grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlaneShape {
    pub channels: usize,
    pub height: usize,
    pub width: usize,
}

impl PlaneShape {
    pub fn cells(&self) -> usize {
        self.height * self.width
    }

    pub fn len(&self) -> usize {
        self.channels * self.cells()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How dense action indices map onto a fully convolutional policy head.
///
/// Actions `0 .. spatial_planes * height * width` are spatial: action
/// `plane * height * width + y * width + x` is plane `plane` at cell (y, x), which is exactly
/// the row-major flattening of a `[spatial_planes, height, width]` convolution output. The
/// `global_actions` that follow (pass, accept, veto, ...) come from a pooled head.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PolicyLayout {
    pub spatial_planes: usize,
    pub global_actions: usize,
}

/// A game that a convolutional network can read: the input planes, the policy layout and the
/// auxiliary targets, all on one grid. (Symmetries need no plane transform: a symmetric
/// sample is made by replaying the game with every action mapped by
/// [`Game::transform_action`].)
pub trait Planes: Game {
    /// What each input plane holds (a Markdown table and notes), for people who run the
    /// network outside ghast (`model.onnx`): `ghast games --planes GAME` prints it.
    const PLANES_DOC: &'static str;

    fn plane_shape(&self) -> PlaneShape;

    fn policy_layout(&self) -> PolicyLayout;

    /// Writes the input planes, from the point of view of the side to move, into `out`
    /// (`plane_shape().len()` values, channel-major), every value of it: `out` holds the
    /// previous batch's planes.
    fn encode(&self, out: &mut [f32]);

    /// Who owns each cell now, from `side`'s view: +1 own, -1 the opponent's, 0 neither
    /// (`height * width` values). Read off the final position, it is the ownership target.
    fn ownership(&self, side: Side, out: &mut [f32]);

    /// 1 for cells on the board, 0 for padding (`height * width` values, every one written).
    fn board_mask(&self, out: &mut [f32]);
}
