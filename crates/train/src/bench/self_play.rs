//! How much of the hardware the self-play loop turns into useful evaluations.
//!
//! The loop's evaluations per second are compared with bare forward passes of the same net at
//! the same batch size in the same process: the ratio (`loop_efficiency`) is what search,
//! encoding and bookkeeping cost on top of the network, independent of how fast the machine
//! is that day.

use super::{cpu_time, peak_memory_mib};
use game::{DeviceError, Planes};
use mcts::{Inline, PipelinedEvaluator};
use nn::{
    DeviceChoice, EvaluatorSettings, InferencePrecision, InferenceServer, NetConfig, NetEvaluator,
    NetSize, Network,
};
use selfplay::{SelfplayConfig, Worker};
use serde::Serialize;
use std::time::{Duration, Instant};
use tch::Device;

#[derive(Clone, Debug, Serialize)]
pub struct SelfplayBench {
    pub net: String,
    /// Where the network ran: `cpu`, `cuda:N` or a simulated accelerator, `sim:A_MS,B_US`.
    pub device: String,
    /// The type the network's passes computed in: `f32` or `bf16` (none on a simulated device).
    pub precision: &'static str,
    /// `per-thread`: each self-play thread with its own network copy, and a thread of bare
    /// forward passes at its batch size beside each; `server`: all threads sharing one
    /// inference server, against one thread of bare forward passes at the server's mean batch.
    pub inference: &'static str,
    /// Self-play threads.
    pub workers: usize,
    /// Games in flight per worker.
    pub games_in_flight: usize,
    /// Batches each worker kept in flight (1 without a server).
    pub batches_in_flight: usize,
    /// Positions per forward pass (with a server, merged from all threads).
    pub mean_batch: f64,
    pub selfplay_evals_per_sec: f64,
    pub forward_evals_per_sec: f64,
    pub loop_efficiency: f64,
    /// The share of self-play wall time the device was busy with passes (with a server, the
    /// time it was held for them; per thread, the time each thread spent in its network, over
    /// all threads): the loop's efficiency without the assumption that a self-play batch costs
    /// what a bare batch of the mean size does.
    pub device_busy: f64,
    /// The same as `device_busy`, under its earlier name.
    pub network_time_fraction: f64,
    /// CPU time of the whole process over self-play wall time: how many cores the loop kept
    /// busy (search, encoding, the server; a simulated device's passes cost none).
    pub cores_used: f64,
    /// CPU seconds of the process during self-play.
    pub cpu_seconds: f64,
    pub games_finished: usize,
    /// Games finished per second of self-play, over all workers.
    pub games_per_sec: f64,
    /// Mean moves of the finished games (what makes games per second comparable).
    pub mean_game_moves: Option<f64>,
    /// Peak resident memory of the process (VmHWM), in MiB; `None` where /proc is missing.
    pub peak_memory_mib: Option<f64>,
}

/// Runs `selfplay.workers` self-play workers of `selfplay` on a fresh `size` net, as `ghast
/// train` runs them but without its evaluation cache (whose hits are no network evaluations),
/// for `budget`; then bare forward passes of the same net at the same batch size. Per thread
/// (each with its own copy on the CPU, and as many threads of bare passes), or through one
/// inference server on `device` (a GPU or a simulated accelerator; one thread of bare passes
/// at its mean batch), as `selfplay.inference` says.
pub fn selfplay<G: Planes>(
    options: &G::Options,
    size: NetSize,
    selfplay: SelfplayConfig,
    device: DeviceChoice,
    precision: InferencePrecision,
    budget: Duration,
) -> anyhow::Result<SelfplayBench> {
    let workers = selfplay.workers.max(1);
    let start = G::new(options);
    let config = NetConfig::sized(size, start.plane_shape().channels, start.policy_layout());
    let uses_server = selfplay.inference.uses_server(device.is_accelerator());
    if let (false, DeviceChoice::Simulated(_)) = (uses_server, device) {
        anyhow::bail!(
            "a simulated device runs behind the inference server: per-thread inference runs a copy of the network on each CPU thread"
        );
    }
    let server = uses_server
        .then(|| {
            // One network on the device, room for every thread's games in one pass.
            tch::manual_seed(0);
            let network = Network::new(config.clone(), Device::Cpu);
            let max_batch = selfplay.served_batch(workers);
            NetEvaluator::<G>::on_choice(device, network, options, max_batch, precision)
                .map(InferenceServer::start)
        })
        .transpose()?;
    let selfplay = if uses_server {
        selfplay
    } else {
        selfplay.evaluating_on_own_thread()
    };
    tch::manual_seed(0);
    let cpu_before = cpu_time();
    let runs = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..workers)
            .map(|seed| {
                let (config, selfplay) = (config.clone(), selfplay.clone());
                let client = server.as_ref().map(InferenceServer::client);
                scope.spawn(move || -> anyhow::Result<WorkerRun> {
                    let worker = Worker::<G>::new(options.clone(), selfplay.clone(), seed as u64);
                    match client {
                        Some(client) => Ok(run_worker(worker, client, budget, |_| Duration::ZERO)?),
                        None => {
                            let settings = EvaluatorSettings {
                                max_batch: selfplay.games_in_flight.next_power_of_two(),
                                precision,
                                ..EvaluatorSettings::on(Device::Cpu)
                            };
                            let network = Network::new(config, Device::Cpu);
                            let evaluator = NetEvaluator::<G>::new(network, options, settings)?;
                            Ok(run_worker(
                                worker,
                                Inline::new(evaluator),
                                budget,
                                |inline| inline.inner().network_time(),
                            )?)
                        }
                    }
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().expect("a self-play bench thread panicked"))
            .collect::<anyhow::Result<Vec<WorkerRun>>>()
    })?;
    let cpu_seconds = (cpu_time() - cpu_before).as_secs_f64();
    let elapsed = runs.iter().map(|run| run.elapsed).fold(0.0, f64::max);
    let evaluations: usize = runs.iter().map(|run| run.evaluations).sum();
    let steps: usize = runs.iter().map(|run| run.steps).sum();
    let shape = start.plane_shape();
    let (device_name, mean_batch, forward_evals_per_sec, device_busy) = match &server {
        Some(server) => {
            let batch = server.mean_batch().round().max(1.0) as usize;
            let forward = match device {
                DeviceChoice::Simulated(simulated) => {
                    nn::bench::bench_simulated(simulated, &start, batch, budget)
                }
                device => {
                    let device = device.torch_device();
                    let kind = precision.kind_on(device);
                    nn::bench::bench_forward(&config, shape, device, kind, &[batch], budget)
                        .evals_per_sec[&batch]
                }
            };
            let busy = server.device_time().as_secs_f64() / elapsed;
            (
                server.device_name().to_owned(),
                server.mean_batch(),
                forward,
                busy,
            )
        }
        None => {
            let games_in_flight = selfplay.games_in_flight;
            let forward: f64 = std::thread::scope(|scope| {
                let threads: Vec<_> = (0..workers)
                    .map(|_| {
                        scope.spawn(|| {
                            let forward = nn::bench::bench_forward(
                                &config,
                                shape,
                                Device::Cpu,
                                precision.kind_on(Device::Cpu),
                                &[games_in_flight],
                                budget,
                            );
                            forward.evals_per_sec[&games_in_flight]
                        })
                    })
                    .collect();
                threads
                    .into_iter()
                    .map(|thread| thread.join().expect("a forward bench thread panicked"))
                    .sum()
            });
            let busy = runs.iter().map(|run| run.network_seconds).sum::<f64>()
                / (elapsed * workers as f64);
            let mean_batch = evaluations as f64 / steps.max(1) as f64;
            ("cpu".to_owned(), mean_batch, forward, busy)
        }
    };
    let game_lengths: Vec<usize> = runs
        .iter()
        .flat_map(|run| run.game_lengths.iter().copied())
        .collect();
    let selfplay_evals_per_sec = evaluations as f64 / elapsed;
    Ok(SelfplayBench {
        net: size.to_string(),
        device: device_name,
        precision: match device {
            DeviceChoice::Simulated(_) => "none",
            device => precision.type_name_on(device.torch_device()),
        },
        inference: if server.is_some() {
            "server"
        } else {
            "per-thread"
        },
        workers,
        games_in_flight: selfplay.games_in_flight,
        batches_in_flight: selfplay.batches_in_flight,
        mean_batch,
        selfplay_evals_per_sec,
        forward_evals_per_sec,
        loop_efficiency: selfplay_evals_per_sec / forward_evals_per_sec,
        device_busy,
        network_time_fraction: device_busy,
        cores_used: cpu_seconds / elapsed,
        cpu_seconds,
        games_finished: game_lengths.len(),
        games_per_sec: game_lengths.len() as f64 / elapsed,
        mean_game_moves: (!game_lengths.is_empty())
            .then(|| game_lengths.iter().sum::<usize>() as f64 / game_lengths.len() as f64),
        peak_memory_mib: peak_memory_mib(),
    })
}

/// What one worker did in its budget.
struct WorkerRun {
    evaluations: usize,
    steps: usize,
    elapsed: f64,
    /// Seconds inside the network.
    network_seconds: f64,
    /// Moves of each game it finished.
    game_lengths: Vec<usize>,
}

/// Plays with `evaluator` for `budget` after a few warm-up steps; `network_time` reads the
/// evaluator's own network time where it keeps one.
fn run_worker<G: Planes, E: PipelinedEvaluator<G>>(
    mut worker: Worker<G>,
    mut evaluator: E,
    budget: Duration,
    network_time: impl Fn(&E) -> Duration,
) -> Result<WorkerRun, DeviceError> {
    let mut finished = Vec::new();
    for _ in 0..3 {
        worker.step(&mut evaluator, &mut finished)?;
    }
    finished.clear();
    let (mut evaluations, mut steps) = (0usize, 0usize);
    let network_before = network_time(&evaluator);
    let started = Instant::now();
    while started.elapsed() < budget {
        evaluations += worker.step(&mut evaluator, &mut finished)?.evaluations;
        steps += 1;
    }
    Ok(WorkerRun {
        evaluations,
        steps,
        elapsed: started.elapsed().as_secs_f64(),
        network_seconds: (network_time(&evaluator) - network_before).as_secs_f64(),
        game_lengths: finished
            .iter()
            .map(|game| game.record.moves.len())
            .collect(),
    })
}
