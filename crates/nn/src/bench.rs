//! Throughput of the network's forward pass, for `ghast bench nn`.

use crate::InferencePrecision;
use crate::host_batch::HostBatch;
use crate::host_batch::ILLEGAL_LOGIT;
use crate::model::Network;
use crate::outputs::Outputs;
use crate::simulated::SimulatedDevice;
use crate::tensors::Inputs;
use game::PlaneShape;
use serde::Serialize;
use sidecar::NetConfig;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tch::{Device, Kind, Tensor};

/// One net's size and throughput on each device.
#[derive(Clone, Debug, Serialize)]
pub struct NetBench {
    pub blocks: usize,
    pub channels: usize,
    pub parameters: usize,
    /// From [`NetConfig::flops`] on the benchmark's grid.
    pub flops_per_eval: u64,
    /// By device name (`cpu`, `cuda:0`), followed by the precision where one was asked for
    /// (`cpu bf16`).
    pub devices: BTreeMap<String, DeviceBench>,
}

/// The CPU, and the first CUDA device when there is one.
pub fn available_devices() -> Vec<Device> {
    let mut devices = vec![Device::Cpu];
    if crate::cuda_is_available() {
        devices.push(Device::Cuda(0));
    }
    devices
}

/// Benchmarks `config` on every device in `devices` at each of `precisions`; see
/// [`bench_forward`].
pub fn bench_net(
    config: &NetConfig,
    shape: PlaneShape,
    devices: &[Device],
    precisions: &[InferencePrecision],
    batch_sizes: &[usize],
    budget: Duration,
) -> NetBench {
    let mut benches = BTreeMap::new();
    for &device in devices {
        for &precision in precisions {
            let name = match precision {
                InferencePrecision::Auto => crate::device_name(device),
                _ => format!("{} {}", crate::device_name(device), precision.name()),
            };
            let kind = precision.kind_on(device);
            benches.insert(
                name,
                bench_forward(config, shape, device, kind, batch_sizes, budget),
            );
        }
    }
    NetBench {
        blocks: config.blocks,
        channels: config.channels,
        parameters: parameter_count(config),
        flops_per_eval: config.flops(shape),
        devices: benches,
    }
}

/// Forward passes per second of one net on one device.
#[derive(Clone, Debug, Serialize)]
pub struct DeviceBench {
    /// Positions evaluated per second, by batch size.
    pub evals_per_sec: BTreeMap<usize, f64>,
    /// Achieved FLOP/s, by batch size (from [`NetConfig::flops`]).
    pub flops_per_sec: BTreeMap<usize, f64>,
    /// The floating-point kind the net ran in.
    pub precision: String,
}

/// Measures evaluations per second of a freshly initialised `config` net in `kind` at each
/// batch size, timing each for about `budget` after one untimed pass.
///
/// A pass is what search pays: random planes copied from the host, the forward pass under
/// `no_grad`, policy and WDL softmax, and the results copied back to the host. Encoding
/// positions is not included.
pub fn bench_forward(
    config: &NetConfig,
    shape: PlaneShape,
    device: Device,
    kind: Kind,
    batch_sizes: &[usize],
    budget: Duration,
) -> DeviceBench {
    let mut network = Network::new(config.clone(), device);
    network.to(device, kind);
    network.fold_batch_norm();
    let flops = config.flops(shape) as f64;
    let mut evals_per_sec = BTreeMap::new();
    for &batch in batch_sizes {
        let host = random_inputs(config, shape, batch);
        let pass = || {
            let inputs = host.to(device, kind);
            let output = tch::no_grad(|| network.forward_t(&inputs, false));
            for logits in [&output.policy_logits, &output.wdl_logits] {
                let _on_host = logits.softmax(-1, Kind::Float).to_device(Device::Cpu);
            }
        };
        pass();
        let started = Instant::now();
        let mut passes = 0u32;
        while passes == 0 || started.elapsed() < budget {
            pass();
            passes += 1;
        }
        let rate = f64::from(passes) * batch as f64 / started.elapsed().as_secs_f64();
        evals_per_sec.insert(batch, rate);
    }
    let flops_per_sec = evals_per_sec
        .iter()
        .map(|(&batch, &rate)| (batch, rate * flops))
        .collect();
    DeviceBench {
        evals_per_sec,
        flops_per_sec,
        precision: format!("{kind:?}"),
    }
}

/// The share of actions legal in [`random_inputs`]: about that of a mid-game size-4 Ghast
/// position (some 220 of 488).
const LEGAL_SHARE: f64 = 0.45;

/// Random planes on a full board with a random [`LEGAL_SHARE`] of the actions legal (a mask
/// of one kind only would flatter any kernel whose cost depends on the data), on the host.
fn random_inputs(config: &NetConfig, shape: PlaneShape, batch: usize) -> Inputs {
    let (n, h, w) = (batch as i64, shape.height as i64, shape.width as i64);
    let options = (Kind::Float, Device::Cpu);
    let actions = config.num_actions(shape.height, shape.width) as i64;
    Inputs {
        planes: Tensor::rand([n, config.input_channels as i64, h, w], options).round(),
        board_mask: Tensor::ones([n, h, w], options),
        illegal_bias: Tensor::rand([n, actions], options)
            .ge(LEGAL_SHARE)
            .to_kind(Kind::Float)
            * ILLEGAL_LOGIT,
    }
}

/// Trainable and running-statistics values in the net.
fn parameter_count(config: &NetConfig) -> usize {
    Network::new(config.clone(), Device::Cpu)
        .var_store()
        .variables()
        .values()
        .map(Tensor::numel)
        .sum()
}

/// Evaluations per second of bare passes of `batch` copies of `position` on a simulated
/// device: what [`bench_forward`] measures of a network (encoding not included; the device's
/// answers are, as its passes compute them).
pub fn bench_simulated<G: game::Planes>(
    device: SimulatedDevice,
    position: &G,
    batch: usize,
    budget: Duration,
) -> f64 {
    let positions = vec![position; batch.max(1)];
    let mut host = HostBatch::default();
    host.encode(&positions, positions.len());
    let mut outputs = Outputs::default();
    let started = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || started.elapsed() < budget {
        device.forward(&host, positions.len(), &mut outputs);
        passes += 1;
    }
    f64::from(passes) * positions.len() as f64 / started.elapsed().as_secs_f64()
}
