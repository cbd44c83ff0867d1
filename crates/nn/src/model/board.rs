//! The on-board cells of a batch, shared by every layer that masks or pools.

use sidecar::POOLED_FEATURES;
use tch::Tensor;

/// Centre and spread of `sqrt(area)` for the size-scaled mean: roughly normalises the feature
/// for boards from a few cells to a few hundred; the net learns the rest.
const AREA_SQRT_CENTER: f64 = 10.0;
const AREA_SQRT_SCALE: f64 = 10.0;

/// A board mask with its per-position area, computed once per forward pass.
///
/// Each position carries its own mask, so a batch may mix board sizes padded to one grid;
/// everything that depends on the board size is derived here, from the input.
pub(crate) struct Board {
    /// `[N, 1, H, W]`, 1 on the board.
    mask: Tensor,
    /// `[N, 1]` on-board cells, at least 1 (padding rows of a batch have none).
    area: Tensor,
    /// `[N, 1]` board-size feature that lets pooled features tell board sizes apart.
    size_scale: Tensor,
}

impl Board {
    pub(crate) fn new(mask: &Tensor) -> Board {
        let mask = mask.unsqueeze(1);
        let area = mask
            .sum_dim_intlist([2i64, 3].as_slice(), false, mask.kind())
            .clamp_min(1.0);
        let size_scale = (area.sqrt() - AREA_SQRT_CENTER) / AREA_SQRT_SCALE;
        Board {
            mask,
            area,
            size_scale,
        }
    }

    /// Zeroes the off-board cells so that padding never leaks into convolutions or pooling.
    pub(crate) fn mask(&self, xs: &Tensor) -> Tensor {
        xs * &self.mask
    }

    /// `[N, C, H, W]` -> `[N, POOLED_FEATURES * C]`: mean, size-scaled mean and max over the
    /// on-board cells.
    ///
    /// `xs` must be non-negative and already masked (it always follows a ReLU and [`Self::mask`]),
    /// so the zeros off the board can never win the max.
    pub(crate) fn pool(&self, xs: &Tensor) -> Tensor {
        let mean = xs.sum_dim_intlist([2i64, 3].as_slice(), false, xs.kind()) / &self.area;
        let scaled = &mean * &self.size_scale;
        let max = xs.amax([2i64, 3].as_slice(), false);
        let pooled = Tensor::cat(&[mean, scaled, max], 1);
        debug_assert_eq!(pooled.size()[1], POOLED_FEATURES as i64 * xs.size()[1]);
        pooled
    }

    /// `[N, H, W]`, for losses over on-board cells.
    pub(crate) fn cells(&self) -> Tensor {
        self.mask.squeeze_dim(1)
    }
}
