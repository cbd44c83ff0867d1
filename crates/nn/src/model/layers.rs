//! Building blocks of the tower: convolution + batch norm, and KataGo's global-pooling bias.

use super::board::Board;
use sidecar::POOLED_FEATURES;
use tch::Tensor;
use tch::nn::{self, ModuleT};

/// Epsilon of every batch norm (tch's default), needed again when folding one into its
/// convolution.
const BATCH_NORM_EPS: f64 = 1e-5;
/// The share of a training batch's statistics in a batch norm's running statistics (tch's
/// default), which [`super::Network::measure_batch_norm`] inverts.
pub(crate) const BATCH_NORM_MOMENTUM: f64 = 0.1;

/// A 2-d batch norm of `channels` with this module's epsilon and momentum: every batch norm of
/// the network is made here.
pub(crate) fn batch_norm(vs: nn::Path, channels: usize) -> nn::BatchNorm {
    nn::batch_norm2d(
        vs,
        channels as i64,
        nn::BatchNormConfig {
            eps: BATCH_NORM_EPS,
            momentum: BATCH_NORM_MOMENTUM,
            ..Default::default()
        },
    )
}

/// A bias-free `k` x `k` convolution followed by batch norm (which supplies the bias).
#[derive(Debug)]
pub(crate) struct ConvBn {
    conv: nn::Conv2D,
    norm: nn::BatchNorm,
    padding: i64,
    /// The batch norm folded into the convolution's weights and a bias, for inference: one
    /// operation instead of two, which on a small net on the CPU is most of the cost.
    folded: Option<Folded>,
}

#[derive(Debug)]
struct Folded {
    weight: Tensor,
    bias: Tensor,
}

impl ConvBn {
    pub(crate) fn new(vs: &nn::Path, inputs: usize, outputs: usize, kernel: usize) -> ConvBn {
        let padding = kernel as i64 / 2;
        let config = nn::ConvConfig {
            padding,
            bias: false,
            ..Default::default()
        };
        ConvBn {
            conv: nn::conv2d(
                vs / "conv",
                inputs as i64,
                outputs as i64,
                kernel as i64,
                config,
            ),
            norm: batch_norm(vs / "norm", outputs),
            padding,
            folded: None,
        }
    }

    /// Folds the batch norm's running statistics into the convolution for inference
    /// (`train = false`); later changes to the weights are not seen until it is called again.
    pub(crate) fn fold_batch_norm(&mut self) {
        let _no_grad = tch::no_grad_guard();
        let norm = &self.norm;
        let kind = self.conv.ws.kind();
        // In f32 whatever the weights' kind: the division loses too much in bf16.
        let float = |t: &Tensor| t.to_kind(tch::Kind::Float);
        let gamma = norm
            .ws
            .as_ref()
            .map_or_else(|| Tensor::ones_like(&float(&norm.running_var)), float);
        let beta = norm
            .bs
            .as_ref()
            .map_or_else(|| Tensor::zeros_like(&float(&norm.running_mean)), float);
        let scale = gamma / (float(&norm.running_var) + BATCH_NORM_EPS).sqrt();
        let weight = float(&self.conv.ws) * scale.view([-1, 1, 1, 1]);
        let bias = beta - float(&norm.running_mean) * &scale;
        self.folded = Some(Folded {
            weight: weight.to_kind(kind),
            bias: bias.to_kind(kind),
        });
    }
}

impl ModuleT for ConvBn {
    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        match &self.folded {
            Some(folded) if !train => xs.conv2d(
                &folded.weight,
                Some(&folded.bias),
                [1, 1],
                [self.padding, self.padding],
                [1, 1],
                1,
            ),
            _ => xs.apply(&self.conv).apply_t(&self.norm, train),
        }
    }
}

/// A per-channel bias computed from pooled features: lets every cell see the whole board
/// (who is ahead, how big the board is) in a single layer.
#[derive(Debug)]
pub(crate) struct GlobalPoolBias {
    pool_conv: ConvBn,
    to_bias: nn::Linear,
}

impl GlobalPoolBias {
    pub(crate) fn new(vs: &nn::Path, inputs: usize, pooled: usize, outputs: usize) -> Self {
        GlobalPoolBias {
            pool_conv: ConvBn::new(&(vs / "pool"), inputs, pooled, 3),
            to_bias: nn::linear(
                vs / "bias",
                (POOLED_FEATURES * pooled) as i64,
                outputs as i64,
                Default::default(),
            ),
        }
    }

    pub(crate) fn fold_batch_norm(&mut self) {
        self.pool_conv.fold_batch_norm();
    }

    /// `[N, inputs, H, W]` -> `[N, outputs, 1, 1]`, ready to broadcast over the cells.
    pub(crate) fn forward_t(&self, xs: &Tensor, board: &Board, train: bool) -> Tensor {
        let pooled = board.mask(&self.pool_conv.forward_t(xs, train).relu());
        board
            .pool(&pooled)
            .apply(&self.to_bias)
            .unsqueeze(-1)
            .unsqueeze(-1)
    }
}

/// Two 3x3 convolutions with a skip connection; optionally with a global-pooling bias
/// added after the first.
#[derive(Debug)]
pub(crate) struct ResidualBlock {
    first: ConvBn,
    global: Option<GlobalPoolBias>,
    second: ConvBn,
}

impl ResidualBlock {
    pub(crate) fn new(vs: &nn::Path, channels: usize, global_pool: Option<usize>) -> Self {
        ResidualBlock {
            first: ConvBn::new(&(vs / "first"), channels, channels, 3),
            global: global_pool
                .map(|pooled| GlobalPoolBias::new(&(vs / "global"), channels, pooled, channels)),
            second: ConvBn::new(&(vs / "second"), channels, channels, 3),
        }
    }

    pub(crate) fn fold_batch_norm(&mut self) {
        self.first.fold_batch_norm();
        if let Some(global) = &mut self.global {
            global.fold_batch_norm();
        }
        self.second.fold_batch_norm();
    }

    pub(crate) fn forward_t(&self, xs: &Tensor, board: &Board, train: bool) -> Tensor {
        let hidden = self.first.forward_t(xs, train).relu();
        // Not `+=`: the ReLU's output is saved for its backward pass and must not change.
        let hidden = match &self.global {
            Some(global) => hidden + global.forward_t(xs, board, train),
            None => hidden,
        };
        let hidden = self.second.forward_t(&board.mask(&hidden), train);
        board.mask(&(hidden + xs).relu())
    }
}
