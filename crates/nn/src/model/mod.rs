//! The residual network: a trunk of residual blocks with global pooling, and its heads.

mod board;
mod heads;
mod layers;

use crate::tensors::{Inputs, Output};
use board::Board;
use heads::{PolicyHead, ValueHead};
use layers::{BATCH_NORM_MOMENTUM, ConvBn, ResidualBlock};
use sidecar::NetConfig;
use tch::nn::{self, ModuleT};
use tch::{Device, Kind, Tensor};

/// A policy/value network together with the variables it owns.
///
/// Fully convolutional: one set of weights runs on any grid; per-board quantities (mask, area)
/// come from [`Inputs::board_mask`].
#[derive(Debug)]
pub struct Network {
    vs: nn::VarStore,
    config: NetConfig,
    stem: ConvBn,
    tower: Vec<ResidualBlock>,
    policy: PolicyHead,
    value: ValueHead,
}

impl Network {
    /// A freshly initialised network on `device`, in f32.
    pub fn new(config: NetConfig, device: Device) -> Network {
        let vs = nn::VarStore::new(device);
        let root = vs.root();
        let tower_path = &root / "tower";
        let tower = (0..config.blocks)
            .map(|index| {
                let global_pool = config
                    .is_global_pool_block(index)
                    .then_some(config.global_pool_channels);
                ResidualBlock::new(&(&tower_path / index), config.channels, global_pool)
            })
            .collect();
        Network {
            stem: ConvBn::new(&(&root / "stem"), config.input_channels, config.channels, 3),
            tower,
            policy: PolicyHead::new(&(&root / "policy"), &config),
            value: ValueHead::new(&(&root / "value"), &config),
            vs,
            config,
        }
    }

    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    /// The variables, for an optimizer (`nn::Adam::default().build(net.var_store(), lr)`).
    pub fn var_store(&self) -> &nn::VarStore {
        &self.vs
    }

    pub fn device(&self) -> Device {
        self.vs.device()
    }

    /// The floating-point kind of the weights.
    pub fn kind(&self) -> Kind {
        self.vs.kind()
    }

    /// A copy of this network: the same architecture, device and weights, its own variables.
    pub fn duplicate(&self) -> Network {
        let mut copy = Network::new(self.config.clone(), self.device());
        copy.vs.set_kind(self.kind());
        copy.vs
            .copy(&self.vs)
            .expect("a network of the same architecture has the same variables");
        copy
    }

    /// Moves every variable (weights and batch-norm statistics) toward `other`'s, of the same
    /// architecture: `self = decay * self + (1 - decay) * other`, an exponential moving
    /// average of weights (KataGo's stochastic weight averaging). The statistics averaged so
    /// are a start; [`Network::measure_batch_norm`] measures the average's own.
    pub fn average_toward(&mut self, other: &Network, decay: f64) {
        let theirs = other.vs.variables();
        tch::no_grad(|| {
            for (name, mut mine) in self.vs.variables() {
                let target = &theirs[&name];
                let averaged = &mine * decay + target * (1.0 - decay);
                mine.copy_(&averaged);
            }
        });
    }

    /// Sets every batch norm's running statistics to those measured through this network, in
    /// training mode, on `batches`: each statistic's mean over the batches, weighted by their
    /// positions (PyTorch's `swa_utils.update_bn`). Averaged weights ([`Network::average_toward`])
    /// make activations of their own, which the average of the averaged nets' statistics need
    /// not describe: SWA measures them again before the average plays. Gradients are not
    /// recorded; the batches must be on the network's device and of its kind.
    ///
    /// Returns how far the variances moved: the mean over every batch norm's channels of
    /// `|ln(measured / previous)|` (0.1 is a tenth off), 0 without positions.
    pub fn measure_batch_norm(&mut self, batches: &[Inputs]) -> f64 {
        let positions: i64 = batches.iter().map(Inputs::batch_size).sum();
        if positions == 0 {
            return 0.0;
        }
        let (variances, means): (Vec<_>, Vec<_>) = self
            .vs
            .variables()
            .into_iter()
            .filter(|(name, _)| name.ends_with(".running_mean") || name.ends_with(".running_var"))
            .partition(|(name, _)| name.ends_with(".running_var"));
        let previous: Vec<Tensor> = variances.iter().map(|(_, t)| t.copy()).collect();
        let statistics: Vec<Tensor> = variances
            .iter()
            .chain(&means)
            .map(|(_, t)| t.shallow_clone())
            .collect();
        tch::no_grad(|| {
            let mut sums: Vec<Tensor> = statistics.iter().map(Tensor::zeros_like).collect();
            for inputs in batches {
                let before: Vec<Tensor> = statistics.iter().map(Tensor::copy).collect();
                self.forward_t(inputs, true);
                // A training pass left `(1 - m) * before + m * batch` in each statistic.
                for ((now, before), sum) in statistics.iter().zip(&before).zip(&mut sums) {
                    let batch = (now - before * (1.0 - BATCH_NORM_MOMENTUM)) / BATCH_NORM_MOMENTUM;
                    *sum += batch * inputs.batch_size() as f64;
                }
            }
            for (mut statistic, sum) in statistics.into_iter().zip(sums) {
                statistic.copy_(&(sum / positions as f64));
            }
            let shifts: Vec<Tensor> = variances
                .iter()
                .zip(&previous)
                .map(|((_, now), before)| (now / before).log().abs())
                .collect();
            Tensor::cat(&shifts, 0).mean(Kind::Float).double_value(&[])
        })
    }

    /// Moves the weights to `device` and casts them to `kind` (e.g. bf16 for CUDA inference).
    pub fn to(&mut self, device: Device, kind: Kind) {
        self.vs.set_device(device);
        self.vs.set_kind(kind);
    }

    /// Folds every batch norm that directly follows a convolution into it, for inference
    /// (`forward_t` with `train = false`): call it after the weights' last change and after
    /// [`Network::to`]. Training forward passes are unaffected.
    pub fn fold_batch_norm(&mut self) {
        self.stem.fold_batch_norm();
        for block in &mut self.tower {
            block.fold_batch_norm();
        }
        self.policy.fold_batch_norm();
        self.value.fold_batch_norm();
    }

    /// Runs the network. `train` selects batch statistics (and updates the running averages)
    /// rather than the running averages; gradients are recorded unless the caller is inside
    /// `tch::no_grad`. Inputs must be on the network's device and of its kind.
    pub fn forward_t(&self, inputs: &Inputs, train: bool) -> Output {
        let board = Board::new(&inputs.board_mask);
        let stem = self.stem.forward_t(&inputs.planes, train).relu();
        let trunk = self.tower.iter().fold(board.mask(&stem), |xs, block| {
            block.forward_t(&xs, &board, train)
        });
        let value = self.value.forward_t(&trunk, &board, train);
        let policy = self.policy.forward_t(&trunk, &board, train);
        let mask = |logits: &Tensor| logits + &inputs.illegal_bias;
        Output {
            policy_logits: mask(&policy.logits),
            soft_policy_logits: policy.soft_logits.as_ref().map(mask),
            wdl_logits: value.wdl_logits,
            lead: value.lead,
            ownership: value.ownership,
            board_mask: board.cells(),
        }
    }
}
