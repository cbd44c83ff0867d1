//! Batched inference for search: [`game::Evaluator`] backed by a network on libtorch, a
//! `model.onnx` on tract or a simulated accelerator.

use crate::backend::{Backend, bucket_for, buckets};
use crate::error::NetError;
use crate::host_batch::{HostBatch, grouped_by_grid, runs_of_one_grid};
use crate::onnx_model::OnnxModel;
use crate::outputs::{Outputs, write_evaluations};
use crate::simulated::SimulatedDevice;
#[cfg(feature = "torch")]
use crate::{DeviceChoice, InferencePrecision, model::Network};
use game::Planes;
use game::{DeviceError, Evaluation, Evaluator};
use sidecar::NetConfig;
use std::collections::HashSet;
use std::marker::PhantomData;
use std::num::NonZeroU64;
use std::path::Path;
use std::time::{Duration, Instant};
#[cfg(feature = "torch")]
use tch::Device;

/// Sets the size of libtorch's intra-op thread pool, process-wide. On CPU each search thread
/// already calls the evaluator, so libtorch's default of one thread per core oversubscribes
/// the machine; give it what the search leaves free. (tract, the ONNX backend, runs each pass
/// on the calling thread: without libtorch there is no pool to size.)
pub fn set_intra_op_threads(threads: usize) {
    #[cfg(feature = "torch")]
    tch::set_num_threads(i32::try_from(threads.max(1)).unwrap_or(i32::MAX));
    #[cfg(not(feature = "torch"))]
    let _ = threads;
}

/// Where and how the evaluator runs.
#[cfg(feature = "torch")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvaluatorSettings {
    pub device: Device,
    /// Largest batch per forward pass; larger requests are split. Batches are padded to a
    /// bucket (see [`NetEvaluator::buckets`]), so only a few shapes ever reach the device.
    pub max_batch: usize,
    /// The type weights and activations take: by default bf16 on CUDA, where it roughly
    /// doubles throughput at no measurable cost in playing strength, f32 on a CPU.
    pub precision: InferencePrecision,
}

#[cfg(feature = "torch")]
impl EvaluatorSettings {
    /// Defaults for `device`: batches up to 256, bf16 on CUDA only.
    pub fn on(device: Device) -> EvaluatorSettings {
        EvaluatorSettings {
            device,
            max_batch: 256,
            precision: InferencePrecision::Auto,
        }
    }
}

#[cfg(feature = "torch")]
impl Default for EvaluatorSettings {
    /// The first CUDA device if there is one, otherwise the CPU.
    fn default() -> Self {
        EvaluatorSettings::on(crate::best_device())
    }
}

/// Evaluates positions of game `G` with a network, in eval mode and without gradients (or
/// with a simulated accelerator, see [`NetEvaluator::simulated`]).
#[derive(Debug)]
pub struct NetEvaluator<G> {
    backend: Backend,
    buckets: Vec<usize>,
    /// Grids (height, width) whose buckets have all been run once.
    warmed: HashSet<(usize, usize)>,
    host: HostBatch,
    outputs: Outputs,
    /// Whether evaluations carry the ownership head's output ([`Evaluator::want_ownership`]).
    ownership_wanted: bool,
    /// Time spent in the network: inputs to the device, the forward pass, the softmax and
    /// the copies back (not the encoding of planes, which is the caller's game code).
    network_time: Duration,
    game: PhantomData<fn(&G)>,
}

impl<G: Planes> NetEvaluator<G> {
    /// Moves `network` to the settings' device and precision, checks that it reads the planes
    /// and writes the policy layout of `G` with `options`, and warms up every batch bucket on
    /// that game's start position.
    #[cfg(feature = "torch")]
    pub fn new(
        network: Network,
        options: &G::Options,
        settings: EvaluatorSettings,
    ) -> Result<Self, NetError> {
        let start = G::new(options);
        reads_planes_of(network.config(), &start)?;
        let kind = settings.precision.kind_on(settings.device);
        let backend = Backend::network(network, settings.device, kind);
        let mut evaluator = Self::with_backend(backend, settings.max_batch);
        evaluator.warm_up(&start).map_err(NetError::Device)?;
        Ok(evaluator)
    }

    /// An evaluator of a bundle's `model.onnx` (`ghast export --onnx`), run by tract on the
    /// CPU without libtorch, in passes of up to `max_batch` positions. The model must be one
    /// of `G`'s networks that reads its planes with `options`.
    pub fn onnx(model: &Path, options: &G::Options, max_batch: usize) -> Result<Self, NetError> {
        let model = OnnxModel::load(model, G::NAME)?;
        let start = G::new(options);
        reads_planes_of(model.architecture(), &start)?;
        let mut evaluator = Self::with_backend(Backend::onnx(model), max_batch);
        evaluator.warm_up(&start).map_err(NetError::Device)?;
        Ok(evaluator)
    }

    /// An evaluator on a simulated accelerator (see [`SimulatedDevice`]), in passes of up to
    /// `max_batch` positions.
    pub fn simulated(device: SimulatedDevice, max_batch: usize) -> Self {
        Self::with_backend(Backend::simulated(device), max_batch)
    }

    /// An evaluator of `network` on the device `--device` chose, in passes of up to
    /// `max_batch` positions in `precision`; a simulated device leaves the network unused.
    #[cfg(feature = "torch")]
    pub fn on_choice(
        device: DeviceChoice,
        network: Network,
        options: &G::Options,
        max_batch: usize,
        precision: InferencePrecision,
    ) -> Result<Self, NetError> {
        match device {
            DeviceChoice::Simulated(simulated) => Ok(Self::simulated(simulated, max_batch)),
            device => {
                let settings = EvaluatorSettings {
                    max_batch,
                    precision,
                    ..EvaluatorSettings::on(device.torch_device())
                };
                Self::new(network, options, settings)
            }
        }
    }

    fn with_backend(backend: Backend, max_batch: usize) -> Self {
        NetEvaluator {
            buckets: buckets(max_batch, backend.is_accelerator()),
            backend,
            warmed: HashSet::new(),
            host: HostBatch::default(),
            outputs: Outputs::default(),
            ownership_wanted: false,
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
    pub fn device_name(&self) -> &str {
        self.backend.name()
    }

    /// This evaluator's device fails at its `pass`th forward pass (warm-up passes count) and
    /// at every one after it, as a device that failed does: for tests of what a failure does.
    pub fn failing_from_pass(mut self, pass: NonZeroU64) -> Self {
        self.backend.fail_from_pass(pass);
        self
    }

    /// The backend, and the padded pass sizes, for the inference server's threads.
    pub(crate) fn into_backend(self) -> (Backend, Vec<usize>) {
        (self.backend, self.buckets)
    }

    /// Runs every bucket once on `position`'s grid on a GPU, so that allocator pools and
    /// kernel choices are settled before search starts timing or waiting; on the CPU, where
    /// a new shape costs little, only the smallest; on a simulated device, none.
    fn warm_up(&mut self, position: &G) -> Result<(), DeviceError> {
        let shape = position.plane_shape();
        if self.warmed.insert((shape.height, shape.width)) {
            let mut scratch = [Evaluation::default()];
            let buckets = if self.backend.is_simulated() {
                Vec::new()
            } else if self.backend.is_accelerator() {
                self.buckets.clone()
            } else {
                self.buckets[..1].to_vec()
            };
            for bucket in buckets {
                self.run(&[position], bucket, &mut scratch)?;
            }
        }
        Ok(())
    }

    /// Evaluates positions of one grid in one forward pass of `rows` rows.
    fn run(
        &mut self,
        positions: &[&G],
        rows: usize,
        out: &mut [Evaluation],
    ) -> Result<(), DeviceError> {
        self.host.encode(positions, rows);
        let started = Instant::now();
        self.backend.forward(
            &self.host,
            positions.len(),
            self.ownership_wanted,
            &mut self.outputs,
        )?;
        self.network_time += started.elapsed();
        write_evaluations(self.outputs.all(), out);
        Ok(())
    }

    /// Swaps in new weights of the same architecture, moved to this evaluator's device and
    /// precision.
    #[cfg(feature = "torch")]
    pub fn replace_network(&mut self, network: Network) {
        self.backend.replace_network(network);
    }

    fn bucket_for(&self, len: usize) -> usize {
        bucket_for(&self.buckets, len)
    }
}

/// Whether a network of `config` reads the planes and writes the policy of `start`'s game.
fn reads_planes_of<G: Planes>(config: &NetConfig, start: &G) -> Result<(), NetError> {
    let (shape, layout) = (start.plane_shape(), start.policy_layout());
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
    Ok(())
}

impl<G: Planes> Evaluator<G> for NetEvaluator<G> {
    /// Splits the request into runs of one grid and at most `max_batch` positions, each padded
    /// to its bucket; a grid seen for the first time is warmed up first.
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        assert_eq!(positions.len(), out.len(), "one evaluation per position");
        if let Some(order) = grouped_by_grid(positions) {
            let grouped: Vec<&G> = order.iter().map(|&index| positions[index]).collect();
            let mut answers = vec![Evaluation::default(); positions.len()];
            self.evaluate(&grouped, &mut answers)?;
            for (answer, &index) in answers.iter_mut().zip(&order) {
                std::mem::swap(&mut out[index], answer);
            }
            return Ok(());
        }
        let max = *self.buckets.last().expect("at least one bucket");
        for run in runs_of_one_grid(positions, max) {
            self.warm_up(positions[run.start])?;
            let rows = self.bucket_for(run.len());
            self.run(&positions[run.clone()], rows, &mut out[run])?;
        }
        Ok(())
    }

    fn want_ownership(&mut self, wanted: bool) -> bool {
        let predicts = self.backend.predicts_ownership();
        self.ownership_wanted = wanted && predicts;
        predicts
    }
}
