//! Batched inference for search: [`game::Evaluator`] backed by a [`Network`].

use crate::DeviceChoice;
use crate::error::NetError;
use crate::host_batch::HostBatch;
use crate::model::Network;
use crate::simulated::SimulatedDevice;
use game::Planes;
use game::{Evaluation, Evaluator};
use std::collections::HashSet;
use std::marker::PhantomData;
use std::ops::Range;
use std::time::{Duration, Instant};
use tch::{Device, Kind};

/// Sets the size of libtorch's intra-op thread pool, process-wide. On CPU each search thread
/// already calls the evaluator, so libtorch's default of one thread per core oversubscribes
/// the machine; give it what the search leaves free.
pub fn set_intra_op_threads(threads: usize) {
    tch::set_num_threads(i32::try_from(threads.max(1)).unwrap_or(i32::MAX));
}

/// Where and how the evaluator runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvaluatorSettings {
    pub device: Device,
    /// Largest batch per forward pass; larger requests are split. Batches are padded to a
    /// bucket (see [`NetEvaluator::buckets`]), so only a few shapes ever reach the device.
    pub max_batch: usize,
    /// Run in bfloat16 (weights and activations); meant for CUDA, where it roughly doubles
    /// throughput at no measurable cost in playing strength.
    pub bf16: bool,
}

impl EvaluatorSettings {
    /// Defaults for `device`: batches up to 256, bf16 on CUDA only.
    pub fn on(device: Device) -> EvaluatorSettings {
        EvaluatorSettings {
            device,
            max_batch: 256,
            bf16: device.is_cuda(),
        }
    }
}

impl Default for EvaluatorSettings {
    /// The first CUDA device if there is one, otherwise the CPU.
    fn default() -> Self {
        EvaluatorSettings::on(crate::best_device())
    }
}

/// What runs a forward pass: a network on a libtorch device, or a simulated accelerator. The
/// inference server shares one between its threads behind a lock, which is the device.
#[derive(Debug)]
pub(crate) enum Engine {
    Network {
        network: Box<Network>,
        device: Device,
        kind: Kind,
    },
    Simulated(SimulatedDevice),
}

impl Engine {
    /// Whether batches are padded to powers of two and every bucket is warmed up: a GPU's
    /// kernels are tuned per shape (the simulated one stands in for a GPU).
    fn is_accelerator(&self) -> bool {
        match self {
            Engine::Network { device, .. } => device.is_cuda(),
            Engine::Simulated(_) => true,
        }
    }

    /// `cpu`, `cuda:N` or the simulated device's `sim:A_MS,B_US`.
    pub(crate) fn name(&self) -> String {
        match self {
            Engine::Network { device, .. } => crate::device_name(*device),
            Engine::Simulated(simulated) => simulated.to_string(),
        }
    }

    /// Runs the batch in `host`, whose first `used` rows are positions (the rest padding),
    /// leaving their policies, WDL and leads in `out`.
    pub(crate) fn forward(&self, host: &HostBatch, used: usize, out: &mut Outputs) {
        match self {
            Engine::Network {
                network,
                device,
                kind,
            } => {
                let inputs = host.inputs(*device, *kind);
                let output = tch::no_grad(|| network.forward_t(&inputs, false));
                let n = used as i64;
                let policy = output
                    .policy_logits
                    .narrow(0, 0, n)
                    .softmax(-1, Kind::Float);
                let wdl = output.wdl_logits.narrow(0, 0, n).softmax(-1, Kind::Float);
                let lead = output.lead.narrow(0, 0, n).to_kind(Kind::Float);
                copy_to_host(&policy, &mut out.policy);
                copy_to_host(&wdl, &mut out.wdl);
                copy_to_host(&lead, &mut out.lead);
            }
            Engine::Simulated(simulated) => simulated.forward(host, used, out),
        }
    }

    /// The ownership head's prediction for the first row of `host`, one value a cell, from
    /// the view of the position's side to move; `None` on a simulated device, which has no
    /// network.
    fn ownership(&self, host: &HostBatch) -> Option<Vec<f32>> {
        let Engine::Network {
            network,
            device,
            kind,
        } = self
        else {
            return None;
        };
        let inputs = host.inputs(*device, *kind);
        let output = tch::no_grad(|| network.forward_t(&inputs, false));
        let mut cells = Vec::new();
        copy_to_host(&output.ownership.get(0).to_kind(Kind::Float), &mut cells);
        Some(cells)
    }

    /// `network` moved to `device` in `kind`, batch norm folded: ready for inference.
    fn network(mut network: Network, device: Device, kind: Kind) -> Engine {
        network.to(device, kind);
        network.fold_batch_norm();
        Engine::Network {
            network: Box::new(network),
            device,
            kind,
        }
    }

    /// Swaps in new weights of the same architecture, moved to this engine's device and
    /// precision (a simulated device has no weights: it keeps answering as it did).
    pub(crate) fn replace_network(&mut self, replacement: Network) {
        if let Engine::Network { device, kind, .. } = *self {
            *self = Engine::network(replacement, device, kind);
        }
    }
}

/// Softmaxed policies, WDL probabilities and leads of a batch's positions, one row each;
/// buffers kept from pass to pass.
#[derive(Debug, Default)]
pub(crate) struct Outputs {
    pub policy: Vec<f32>,
    pub wdl: Vec<f32>,
    pub lead: Vec<f32>,
}

impl Outputs {
    /// Room for `rows` rows of `num_actions` actions (allocation kept).
    pub fn resize(&mut self, rows: usize, num_actions: usize) {
        self.policy.resize(rows * num_actions, 0.0);
        self.wdl.resize(rows * 3, 0.0);
        self.lead.resize(rows, 0.0);
    }

    /// Rows `rows` as (policies, WDL, leads), `num_actions` policy entries a row.
    pub fn rows(&self, rows: Range<usize>, num_actions: usize) -> (&[f32], &[f32], &[f32]) {
        (
            &self.policy[rows.start * num_actions..rows.end * num_actions],
            &self.wdl[rows.start * 3..rows.end * 3],
            &self.lead[rows],
        )
    }
}

/// Evaluates positions of game `G` with a network, in eval mode and without gradients (or
/// with a simulated accelerator, see [`NetEvaluator::simulated`]).
#[derive(Debug)]
pub struct NetEvaluator<G> {
    engine: Engine,
    buckets: Vec<usize>,
    /// Grids (height, width) whose buckets have all been run once.
    warmed: HashSet<(usize, usize)>,
    host: HostBatch,
    outputs: Outputs,
    /// Time spent in the network: inputs to the device, the forward pass, the softmax and
    /// the copies back (not the encoding of planes, which is the caller's game code).
    network_time: Duration,
    game: PhantomData<fn(&G)>,
}

impl<G: Planes> NetEvaluator<G> {
    /// Moves `network` to the settings' device and precision, checks that it reads the planes
    /// and writes the policy layout of `G` with `options`, and warms up every batch bucket on
    /// that game's start position.
    pub fn new(
        network: Network,
        options: &G::Options,
        settings: EvaluatorSettings,
    ) -> Result<Self, NetError> {
        let start = G::new(options);
        let (shape, layout) = (start.plane_shape(), start.policy_layout());
        let config = network.config();
        if config.input_channels != shape.channels || config.policy_layout() != layout {
            return Err(NetError::GameMismatch {
                expected: format!(
                    "{} input planes and {:?}",
                    config.input_channels,
                    config.policy_layout()
                ),
                found: format!("{} input planes and {layout:?}", shape.channels),
            });
        }
        let kind = if settings.bf16 {
            Kind::BFloat16
        } else {
            Kind::Float
        };
        let engine = Engine::network(network, settings.device, kind);
        let mut evaluator = Self::with_engine(engine, settings.max_batch);
        evaluator.warm_up(&start);
        Ok(evaluator)
    }

    /// An evaluator on a simulated accelerator (see [`SimulatedDevice`]), in passes of up to
    /// `max_batch` positions.
    pub fn simulated(device: SimulatedDevice, max_batch: usize) -> Self {
        Self::with_engine(Engine::Simulated(device), max_batch)
    }

    /// An evaluator of `network` on the device `--device` chose, in passes of up to
    /// `max_batch` positions (bf16 on CUDA); a simulated device leaves the network unused.
    pub fn on_choice(
        device: DeviceChoice,
        network: Network,
        options: &G::Options,
        max_batch: usize,
    ) -> Result<Self, NetError> {
        match device {
            DeviceChoice::Simulated(simulated) => Ok(Self::simulated(simulated, max_batch)),
            device => {
                let settings = EvaluatorSettings {
                    max_batch,
                    ..EvaluatorSettings::on(device.torch_device())
                };
                Self::new(network, options, settings)
            }
        }
    }

    fn with_engine(engine: Engine, max_batch: usize) -> Self {
        NetEvaluator {
            buckets: buckets(max_batch, engine.is_accelerator()),
            engine,
            warmed: HashSet::new(),
            host: HostBatch::default(),
            outputs: Outputs::default(),
            network_time: Duration::ZERO,
            game: PhantomData,
        }
    }

    /// Time spent in the network since the evaluator was made (see the field's doc): against
    /// the wall time of a self-play loop, the share of it the network is busy.
    pub fn network_time(&self) -> Duration {
        self.network_time
    }

    /// The padded batch sizes, ascending.
    pub fn buckets(&self) -> &[usize] {
        &self.buckets
    }

    /// Where the passes run: `cpu`, `cuda:N` or `sim:A_MS,B_US`.
    pub fn device_name(&self) -> String {
        self.engine.name()
    }

    /// The engine, and the largest pass, for the inference server's threads.
    pub(crate) fn into_engine(self) -> (Engine, Vec<usize>) {
        (self.engine, self.buckets)
    }

    /// Runs every bucket once on `position`'s grid on a GPU, so that allocator pools and
    /// kernel choices are settled before search starts timing or waiting; on the CPU, where
    /// a new shape costs little, only the smallest; on a simulated device, none.
    fn warm_up(&mut self, position: &G) {
        let shape = position.plane_shape();
        if self.warmed.insert((shape.height, shape.width)) {
            let mut scratch = [Evaluation::default()];
            let buckets = match &self.engine {
                Engine::Simulated(_) => Vec::new(),
                engine if engine.is_accelerator() => self.buckets.clone(),
                _ => self.buckets[..1].to_vec(),
            };
            for bucket in buckets {
                self.run(&[position], bucket, &mut scratch);
            }
        }
    }

    /// Evaluates positions of one grid in one forward pass of `rows` rows.
    fn run(&mut self, positions: &[&G], rows: usize, out: &mut [Evaluation]) {
        self.host.encode(positions, rows);
        let started = Instant::now();
        self.engine
            .forward(&self.host, positions.len(), &mut self.outputs);
        self.network_time += started.elapsed();
        let outputs = &self.outputs;
        write_evaluations(&outputs.policy, &outputs.wdl, &outputs.lead, out);
    }

    /// Swaps in new weights of the same architecture, moved to this evaluator's device and
    /// precision.
    pub fn replace_network(&mut self, network: Network) {
        self.engine.replace_network(network);
    }

    fn bucket_for(&self, len: usize) -> usize {
        bucket_for(&self.buckets, len)
    }
}

impl<G: Planes> Evaluator<G> for NetEvaluator<G> {
    /// Splits the request into runs of one grid and at most `max_batch` positions, each padded
    /// to its bucket; a grid seen for the first time is warmed up first.
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) {
        assert_eq!(positions.len(), out.len(), "one evaluation per position");
        let max = *self.buckets.last().expect("at least one bucket");
        let mut start = 0;
        while start < positions.len() {
            let shape = positions[start].plane_shape();
            let end = (start + 1..positions.len())
                .find(|&i| i - start == max || positions[i].plane_shape() != shape)
                .unwrap_or(positions.len());
            self.warm_up(positions[start]);
            let rows = self.bucket_for(end - start);
            self.run(&positions[start..end], rows, &mut out[start..end]);
            start = end;
        }
    }

    /// One forward pass of `position` alone (padded to the smallest bucket).
    fn ownership(&mut self, position: &G) -> Option<Vec<f32>> {
        self.warm_up(position);
        self.host.encode(&[position], self.bucket_for(1));
        self.engine.ownership(&self.host)
    }
}

/// The smallest of `buckets` (ascending) that holds `len` rows.
pub(crate) fn bucket_for(buckets: &[usize], len: usize) -> usize {
    *buckets
        .iter()
        .find(|&&bucket| bucket >= len)
        .expect("len is at most the largest bucket")
}

/// Batch sizes a request is padded to, up to `max_batch` rounded up to a bucket: powers of
/// two on a GPU, whose kernels are tuned per shape; on the CPU powers of two up to
/// [`CPU_BUCKET_STEP`], then its multiples, because there padding costs time in proportion
/// (a batch of 54 padded to 64 wastes 16%).
fn buckets(max_batch: usize, accelerator: bool) -> Vec<usize> {
    let max_batch = max_batch.max(1);
    let next = |b: usize| {
        if accelerator || b < CPU_BUCKET_STEP {
            b * 2
        } else {
            b + CPU_BUCKET_STEP
        }
    };
    let mut buckets = vec![1];
    while *buckets.last().expect("not empty") < max_batch {
        let bucket = next(*buckets.last().expect("not empty"));
        buckets.push(bucket);
    }
    buckets
}

/// See [`buckets`].
const CPU_BUCKET_STEP: usize = 8;

/// Fills `out` from one row per evaluation of softmaxed policies, WDL probabilities and leads.
pub(crate) fn write_evaluations(policy: &[f32], wdl: &[f32], lead: &[f32], out: &mut [Evaluation]) {
    let num_actions = policy.len() / lead.len().max(1);
    let rows = policy
        .chunks_exact(num_actions.max(1))
        .zip(wdl.chunks_exact(3))
        .zip(lead);
    for (evaluation, ((policy, wdl), &lead)) in out.iter_mut().zip(rows) {
        evaluation.policy.clear();
        evaluation.policy.extend_from_slice(policy);
        evaluation.value = wdl[0] - wdl[2];
        evaluation.lead = lead;
    }
}

/// Copies a float tensor into `buffer` (resized, allocation kept).
fn copy_to_host(tensor: &tch::Tensor, buffer: &mut Vec<f32>) {
    let numel = tensor.numel();
    buffer.resize(numel, 0.0);
    tensor.to_device(Device::Cpu).copy_data(buffer, numel);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_buckets_step_by_eight_and_gpu_buckets_double() {
        assert_eq!(buckets(40, false), [1, 2, 4, 8, 16, 24, 32, 40]);
        assert_eq!(buckets(33, false), [1, 2, 4, 8, 16, 24, 32, 40]);
        assert_eq!(buckets(40, true), [1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(buckets(0, false), [1]);
    }
}
