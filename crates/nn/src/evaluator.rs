//! Batched inference for search: [`game::Evaluator`] backed by a [`Network`].

use crate::error::NetError;
use crate::host_batch::HostBatch;
use crate::model::Network;
use game::Planes;
use game::{Evaluation, Evaluator};
use std::collections::HashSet;
use std::marker::PhantomData;
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

/// Evaluates positions of game `G` with a network, in eval mode and without gradients.
#[derive(Debug)]
pub struct NetEvaluator<G> {
    network: Network,
    device: Device,
    kind: Kind,
    buckets: Vec<usize>,
    /// Grids (height, width) whose buckets have all been run once.
    warmed: HashSet<(usize, usize)>,
    host: HostBatch,
    policy: Vec<f32>,
    wdl: Vec<f32>,
    lead: Vec<f32>,
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
        mut network: Network,
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
        network.to(settings.device, kind);
        network.fold_batch_norm();
        let mut evaluator = NetEvaluator {
            network,
            device: settings.device,
            kind,
            buckets: buckets(settings.max_batch, settings.device),
            warmed: HashSet::new(),
            host: HostBatch::default(),
            policy: Vec::new(),
            wdl: Vec::new(),
            lead: Vec::new(),
            network_time: Duration::ZERO,
            game: PhantomData,
        };
        evaluator.warm_up(&start);
        Ok(evaluator)
    }

    pub fn network(&self) -> &Network {
        &self.network
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

    /// Runs every bucket once on `position`'s grid on a GPU, so that allocator pools and
    /// kernel choices are settled before search starts timing or waiting; on the CPU, where
    /// a new shape costs little, only the smallest.
    fn warm_up(&mut self, position: &G) {
        let shape = position.plane_shape();
        if self.warmed.insert((shape.height, shape.width)) {
            let mut scratch = [Evaluation::default()];
            let buckets = if self.device.is_cuda() {
                self.buckets.clone()
            } else {
                self.buckets[..1].to_vec()
            };
            for bucket in buckets {
                self.run(&[position], bucket, &mut scratch);
            }
        }
    }

    /// Evaluates positions of one grid in one forward pass of `rows` rows.
    fn run(&mut self, positions: &[&G], rows: usize, out: &mut [Evaluation]) {
        self.host.encode(positions, rows);
        self.forward(positions.len());
        write_evaluations(&self.policy, &self.wdl, &self.lead, out);
    }

    /// Runs the network on the batch in `host`, whose first `used` rows are positions (the
    /// rest padding), leaving their policies, WDL and leads in the output buffers.
    fn forward(&mut self, used: usize) {
        let started = Instant::now();
        let inputs = self.host.inputs(self.device, self.kind);
        let output = tch::no_grad(|| self.network.forward_t(&inputs, false));
        let n = used as i64;
        let policy = output
            .policy_logits
            .narrow(0, 0, n)
            .softmax(-1, Kind::Float);
        let wdl = output.wdl_logits.narrow(0, 0, n).softmax(-1, Kind::Float);
        let lead = output.lead.narrow(0, 0, n).to_kind(Kind::Float);
        copy_to_host(&policy, &mut self.policy);
        copy_to_host(&wdl, &mut self.wdl);
        copy_to_host(&lead, &mut self.lead);
        self.network_time += started.elapsed();
    }

    /// Runs the merged batches of `parts` (each a batch and its used rows) in forward passes
    /// of at most `max_batch` rows, calling `done` with each part's index and its slices of
    /// the policies, WDL and leads: the inference server's half of the work. Returns the
    /// number of forward passes.
    pub(crate) fn forward_parts(
        &mut self,
        parts: &[(&HostBatch, usize)],
        mut done: impl FnMut(usize, &[f32], &[f32], &[f32]),
    ) -> usize {
        let max = *self.buckets.last().expect("at least one bucket");
        let mut passes = 0;
        let mut start = 0;
        while start < parts.len() {
            let (shape, num_actions) = parts[start].0.layout().expect("an encoded batch");
            self.host.clear(shape, num_actions);
            let mut end = start;
            while end < parts.len()
                && (end == start || self.host.rows() + parts[end].1 <= max)
                && parts[end].0.layout() == Some((shape, num_actions))
            {
                self.host.append(parts[end].0, parts[end].1);
                end += 1;
            }
            let used = self.host.rows();
            let rows = self.bucket_for(used.min(max)).max(used);
            self.host.pad_to(rows);
            self.forward(used);
            passes += 1;
            let mut row = 0;
            for (index, &(_, part_rows)) in parts.iter().enumerate().take(end).skip(start) {
                let range = row..row + part_rows;
                done(
                    index,
                    &self.policy[range.start * num_actions..range.end * num_actions],
                    &self.wdl[range.start * 3..range.end * 3],
                    &self.lead[range.clone()],
                );
                row = range.end;
            }
            start = end;
        }
        passes
    }

    /// Swaps in new weights of the same architecture, moved to this evaluator's device and
    /// precision.
    pub fn replace_network(&mut self, mut network: Network) {
        network.to(self.device, self.kind);
        network.fold_batch_norm();
        self.network = network;
    }

    fn bucket_for(&self, len: usize) -> usize {
        *self
            .buckets
            .iter()
            .find(|&&bucket| bucket >= len)
            .expect("len is at most max_batch")
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
}

/// Batch sizes a request is padded to, up to `max_batch` rounded up to a bucket: powers of
/// two on a GPU, whose kernels are tuned per shape; on the CPU powers of two up to
/// [`CPU_BUCKET_STEP`], then its multiples, because there padding costs time in proportion
/// (a batch of 54 padded to 64 wastes 16%).
fn buckets(max_batch: usize, device: Device) -> Vec<usize> {
    let max_batch = max_batch.max(1);
    let next = |b: usize| {
        if device.is_cuda() || b < CPU_BUCKET_STEP {
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
        assert_eq!(buckets(40, Device::Cpu), [1, 2, 4, 8, 16, 24, 32, 40]);
        assert_eq!(buckets(33, Device::Cpu), [1, 2, 4, 8, 16, 24, 32, 40]);
        assert_eq!(buckets(40, Device::Cuda(0)), [1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(buckets(0, Device::Cpu), [1]);
    }
}
