//! The policy and value heads on top of the trunk.

use super::board::Board;
use super::layers::{ConvBn, batch_norm};
use sidecar::{Activation, NetConfig, POOLED_FEATURES, WDL};
use tch::Tensor;
use tch::nn::{self, ModuleT};

/// Spatial policy from a 1x1 convolution, global actions (pass, accept, ...) from pooled
/// features, since they concern no single cell. The same pooled features bias the spatial
/// logits, as in KataGo. With a soft policy, both outputs are twice as wide and the second
/// half is the soft policy. A game whose actions are all global (Pig's roll and hold) has no
/// spatial convolution at all.
#[derive(Debug)]
pub(crate) struct PolicyHead {
    hidden: nn::Conv2D,
    pool: ConvBn,
    to_bias: nn::Linear,
    norm: nn::BatchNorm,
    spatial: Option<nn::Conv2D>,
    global_actions: nn::Linear,
    activation: Activation,
    spatial_planes: i64,
    global_count: i64,
    soft: bool,
}

/// What the policy head predicts: logits in the game's action order (spatial planes
/// row-major, then the global actions), not yet masked.
pub(crate) struct PolicyOutput {
    pub(crate) logits: Tensor,
    pub(crate) soft_logits: Option<Tensor>,
}

impl PolicyHead {
    pub(crate) fn new(vs: &nn::Path, config: &NetConfig) -> PolicyHead {
        let (c, p, g) = (
            config.channels,
            config.policy_channels,
            config.global_pool_channels,
        );
        let policies = 1 + usize::from(config.soft_policy);
        let pointwise = nn::ConvConfig {
            bias: false,
            ..Default::default()
        };
        PolicyHead {
            hidden: nn::conv2d(vs / "hidden", c as i64, p as i64, 1, pointwise),
            pool: ConvBn::new(&(vs / "pool"), c, g, 1),
            to_bias: nn::linear(
                vs / "bias",
                (POOLED_FEATURES * g) as i64,
                p as i64,
                Default::default(),
            ),
            norm: batch_norm(vs / "norm", p),
            spatial: (config.spatial_planes > 0).then(|| {
                nn::conv2d(
                    vs / "spatial",
                    p as i64,
                    (config.spatial_planes * policies) as i64,
                    1,
                    Default::default(),
                )
            }),
            global_actions: nn::linear(
                vs / "global_actions",
                (POOLED_FEATURES * g) as i64,
                (config.global_actions * policies) as i64,
                Default::default(),
            ),
            activation: config.policy_activation,
            spatial_planes: config.spatial_planes as i64,
            global_count: config.global_actions as i64,
            soft: config.soft_policy,
        }
    }

    pub(crate) fn fold_batch_norm(&mut self) {
        self.pool.fold_batch_norm();
    }

    /// `[N, C, H, W]` -> unmasked logits `[N, spatial_planes * H * W + global_actions]`
    /// (and as many soft-policy logits).
    pub(crate) fn forward_t(&self, xs: &Tensor, board: &Board, train: bool) -> PolicyOutput {
        let pooled = board.pool(&board.mask(&self.pool.forward_t(xs, train).relu()));
        let bias = pooled.apply(&self.to_bias).unsqueeze(-1).unsqueeze(-1);
        let normed = (xs.apply(&self.hidden) + bias).apply_t(&self.norm, train);
        let hidden = board.mask(&match self.activation {
            Activation::Relu => normed.relu(),
            Activation::Silu => normed.silu(),
        });
        let spatial = self.spatial.as_ref().map(|spatial| hidden.apply(spatial));
        let global = pooled.apply(&self.global_actions);
        let logits = |index: i64| {
            let globals = global.narrow(1, index * self.global_count, self.global_count);
            match &spatial {
                Some(spatial) => {
                    let planes =
                        spatial.narrow(1, index * self.spatial_planes, self.spatial_planes);
                    Tensor::cat(&[planes.flatten(1, -1), globals], 1)
                }
                None => globals,
            }
        };
        PolicyOutput {
            logits: logits(0),
            soft_logits: self.soft.then(|| logits(1)),
        }
    }
}

/// What the value head predicts for one batch.
pub(crate) struct ValueOutput {
    pub(crate) wdl_logits: Tensor,
    pub(crate) lead: Tensor,
    pub(crate) ownership: Tensor,
}

/// Win/draw/loss and final lead from pooled features; final ownership per cell from the same
/// spatial features, so the ownership target shapes what the value head sees.
#[derive(Debug)]
pub(crate) struct ValueHead {
    features: ConvBn,
    hidden: nn::Linear,
    wdl: nn::Linear,
    lead: nn::Linear,
    ownership: nn::Conv2D,
}

impl ValueHead {
    pub(crate) fn new(vs: &nn::Path, config: &NetConfig) -> ValueHead {
        let (v, h) = (config.value_channels, config.value_hidden as i64);
        ValueHead {
            features: ConvBn::new(&(vs / "features"), config.channels, v, 1),
            hidden: nn::linear(
                vs / "hidden",
                (POOLED_FEATURES * v) as i64,
                h,
                Default::default(),
            ),
            wdl: nn::linear(vs / "wdl", h, WDL as i64, Default::default()),
            lead: nn::linear(vs / "lead", h, 1, Default::default()),
            ownership: nn::conv2d(vs / "ownership", v as i64, 1, 1, Default::default()),
        }
    }

    pub(crate) fn fold_batch_norm(&mut self) {
        self.features.fold_batch_norm();
    }

    pub(crate) fn forward_t(&self, xs: &Tensor, board: &Board, train: bool) -> ValueOutput {
        let features = board.mask(&self.features.forward_t(xs, train).relu());
        let hidden = board.pool(&features).apply(&self.hidden).relu();
        ValueOutput {
            wdl_logits: hidden.apply(&self.wdl),
            lead: hidden.apply(&self.lead).squeeze_dim(1),
            ownership: board
                .mask(&features.apply(&self.ownership).tanh())
                .squeeze_dim(1),
        }
    }
}
