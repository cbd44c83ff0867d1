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
    /// Self-play threads, each with its games, its network copy and its bare-forward twin.
    pub workers: usize,
    /// Games in flight per worker.
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
    /// Games finished per second of self-play, over all workers.
    pub games_per_sec: f64,
    /// Mean moves of the finished games (what makes games per second comparable).
    pub mean_game_moves: Option<f64>,
    /// Peak resident memory of the process (VmHWM), in MiB; `None` where /proc is missing.
    pub peak_memory_mib: Option<f64>,
}

/// Runs `selfplay.workers` self-play workers of `selfplay` (each on its own thread with its own
/// fresh `size` net, as `ghast train` runs them, but without its evaluation cache, whose hits
/// are no network evaluations) on the CPU for `budget`, then as many threads
/// of bare forward passes of the same net at the workers' batch size (their games in flight).
pub fn selfplay<G: Planes>(
    options: &G::Options,
    size: NetSize,
    selfplay: SelfplayConfig,
    budget: Duration,
) -> anyhow::Result<SelfplayBench> {
    let games_in_flight = selfplay.games_in_flight;
    let workers = selfplay.workers.max(1);
    let start = G::new(options);
    let config = NetConfig::sized(size, start.plane_shape().channels, start.policy_layout());
    tch::manual_seed(0);
    let runs = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..workers)
            .map(|seed| {
                let (config, selfplay) = (config.clone(), selfplay.clone());
                scope.spawn(move || run_worker::<G>(options, config, selfplay, seed as u64, budget))
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().expect("a self-play bench thread panicked"))
            .collect::<anyhow::Result<Vec<WorkerRun>>>()
    })?;
    let forward_evals_per_sec: f64 = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let shape = start.plane_shape();
                    let forward = nn::bench::bench_forward(
                        &config,
                        shape,
                        Device::Cpu,
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
    let elapsed = runs.iter().map(|run| run.elapsed).fold(0.0, f64::max);
    let evaluations: usize = runs.iter().map(|run| run.evaluations).sum();
    let steps: usize = runs.iter().map(|run| run.steps).sum();
    let game_lengths: Vec<usize> = runs
        .iter()
        .flat_map(|run| run.game_lengths.iter().copied())
        .collect();
    let selfplay_evals_per_sec = evaluations as f64 / elapsed;
    Ok(SelfplayBench {
        net: size.to_string(),
        workers,
        games_in_flight,
        mean_batch: evaluations as f64 / steps.max(1) as f64,
        selfplay_evals_per_sec,
        forward_evals_per_sec,
        loop_efficiency: selfplay_evals_per_sec / forward_evals_per_sec,
        network_time_fraction: runs.iter().map(|run| run.network_seconds).sum::<f64>()
            / (elapsed * workers as f64),
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

fn run_worker<G: Planes>(
    options: &G::Options,
    config: NetConfig,
    selfplay: SelfplayConfig,
    seed: u64,
    budget: Duration,
) -> anyhow::Result<WorkerRun> {
    let settings = EvaluatorSettings {
        max_batch: selfplay.games_in_flight.next_power_of_two(),
        ..EvaluatorSettings::on(Device::Cpu)
    };
    let mut evaluator =
        NetEvaluator::<G>::new(Network::new(config, Device::Cpu), options, settings)?;
    let mut worker = Worker::<G>::new(options.clone(), selfplay, seed);
    let mut finished = Vec::new();
    for _ in 0..3 {
        worker.step(&mut evaluator, &mut finished);
    }
    finished.clear();
    let (mut evaluations, mut steps) = (0usize, 0usize);
    let network_before = evaluator.network_time();
    let started = Instant::now();
    while started.elapsed() < budget {
        evaluations += worker.step(&mut evaluator, &mut finished).evaluations;
        steps += 1;
    }
    Ok(WorkerRun {
        evaluations,
        steps,
        elapsed: started.elapsed().as_secs_f64(),
        network_seconds: (evaluator.network_time() - network_before).as_secs_f64(),
        game_lengths: finished.iter().map(|game| game.moves.len()).collect(),
    })
}

fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
