//! How much of the hardware the self-play loop turns into useful evaluations.
//!
//! The loop's evaluations per second are compared with bare forward passes of the same net at
//! the same batch size in the same process: the ratio (`loop_efficiency`) is what search,
//! encoding and bookkeeping cost on top of the network, independent of how fast the machine
//! is that day.

use game::Planes;
use nn::{EvaluatorSettings, NetConfig, NetEvaluator, NetSize, Network};
use selfplay::{SelfplayConfig, Worker};
use serde::Serialize;
use std::time::{Duration, Instant};
use tch::Device;

#[derive(Clone, Debug, Serialize)]
pub struct SelfplayBench {
    pub net: String,
    pub games_in_flight: usize,
    pub mean_batch: f64,
    pub selfplay_evals_per_sec: f64,
    pub forward_evals_per_sec: f64,
    pub loop_efficiency: f64,
    /// The share of self-play wall time spent in the network itself (inputs in, forward,
    /// softmax, outputs out), measured inside the evaluator: the loop's efficiency without the
    /// assumption that a self-play batch costs what a full bare batch does.
    pub network_time_fraction: f64,
    pub games_finished: usize,
    /// Peak resident memory of the process (VmHWM), in MiB; `None` where /proc is missing.
    pub peak_memory_mib: Option<f64>,
}

/// Runs one self-play worker of `selfplay` on a fresh `size` net on the CPU for `budget`, then
/// the same net's bare forward passes at its batch size (its games in flight).
pub fn selfplay<G: Planes>(
    options: &G::Options,
    size: NetSize,
    selfplay: SelfplayConfig,
    budget: Duration,
) -> anyhow::Result<SelfplayBench> {
    let games_in_flight = selfplay.games_in_flight;
    let start = G::new(options);
    let config = NetConfig::sized(size, start.plane_shape().channels, start.policy_layout());
    tch::manual_seed(0);
    let settings = EvaluatorSettings {
        max_batch: games_in_flight.next_power_of_two(),
        ..EvaluatorSettings::on(Device::Cpu)
    };
    let mut evaluator =
        NetEvaluator::<G>::new(Network::new(config.clone(), Device::Cpu), options, settings)?;
    let mut worker = Worker::<G>::new(options.clone(), selfplay, 0);
    let mut finished = Vec::new();
    for _ in 0..3 {
        worker.step(&mut evaluator, &mut finished);
    }
    let (mut evaluations, mut steps) = (0usize, 0usize);
    let network_before = evaluator.network_time();
    let started = Instant::now();
    while started.elapsed() < budget {
        evaluations += worker.step(&mut evaluator, &mut finished).evaluations;
        steps += 1;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let selfplay_evals_per_sec = evaluations as f64 / elapsed;
    let network_time_fraction = (evaluator.network_time() - network_before).as_secs_f64() / elapsed;
    let forward = nn::bench::bench_forward(
        &config,
        start.plane_shape(),
        Device::Cpu,
        &[games_in_flight],
        budget,
    );
    let forward_evals_per_sec = forward.evals_per_sec[&games_in_flight];
    Ok(SelfplayBench {
        net: size.to_string(),
        games_in_flight,
        mean_batch: evaluations as f64 / steps.max(1) as f64,
        selfplay_evals_per_sec,
        forward_evals_per_sec,
        loop_efficiency: selfplay_evals_per_sec / forward_evals_per_sec,
        network_time_fraction,
        games_finished: finished.len(),
        peak_memory_mib: peak_memory_mib(),
    })
}

fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
