//! Self-play threads: each owns a worker with its games in flight, and plays the newest
//! generation the `latest` pointer names, with a copy of the network of its own or through the
//! process's inference server.

use super::shared::Shared;
use crate::RunDir;
use anyhow::Result;
use game::Planes;
use mcts::{CachedEvaluator, Inline, PipelinedEvaluator};
use nn::{
    DeviceChoice, EvaluatorSettings, InferencePrecision, InferenceServer, NetEvaluator, Network,
    ServerClient,
};
use replay::GameRecord;
use selfplay::{Boards, SelfplayConfig, StartPositions, Worker};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// How often a worker, or the server's loader, looks at the `latest` pointer.
const RELOAD_CHECK: Duration = Duration::from_secs(2);

/// One network on the device for all self-play threads, and the generation it serves.
pub struct ServedNetwork<G> {
    server: InferenceServer<G>,
    generation: AtomicU64,
}

impl<G: Planes> ServedNetwork<G> {
    /// Serves the generation `latest` names on `device` in `precision`, in forward passes of
    /// up to `max_batch` positions (a simulated device answers from the positions alone).
    pub fn start(
        run: &RunDir,
        options: &G::Options,
        device: DeviceChoice,
        precision: InferencePrecision,
        max_batch: usize,
    ) -> Result<Self> {
        let (generation, network) = load_latest::<G>(run)?;
        let evaluator = NetEvaluator::on_choice(device, network, options, max_batch, precision)?;
        Ok(ServedNetwork {
            server: InferenceServer::start(evaluator),
            generation: AtomicU64::new(generation),
        })
    }

    /// Loads each generation `latest` names into the server until the run stops; the
    /// workers follow `generation`, which moves only once the new weights are queued ahead
    /// of any batch sent after it.
    pub fn follow_latest(&self, run: &RunDir, shared: &Shared) -> Result<()> {
        let mut last_check = Instant::now();
        while !shared.stopping() {
            // Short naps, so that a stop is noticed at once.
            std::thread::sleep(Duration::from_millis(250));
            if last_check.elapsed() < RELOAD_CHECK {
                continue;
            }
            last_check = Instant::now();
            let served = self.generation.load(Ordering::Acquire);
            if run
                .latest_generation()?
                .is_some_and(|latest| latest != served)
            {
                let (generation, network) = load_latest::<G>(run)?;
                self.server.replace_network(network);
                self.generation.store(generation, Ordering::Release);
                tracing::debug!("the inference server now serves generation {generation}");
            }
        }
        Ok(())
    }

    /// The generation the server serves and a client of it, if that is not `current`.
    pub fn newer_client(&self, current: u64) -> Option<(u64, ServerClient<G>)> {
        let serving = self.generation.load(Ordering::Acquire);
        (serving != current).then(|| (serving, self.server.client()))
    }

    /// Where the server's passes run.
    pub fn device_name(&self) -> &str {
        self.server.device_name()
    }

    /// The server's mean positions and thread batches per forward pass so far.
    pub fn merging(&self) -> (f64, f64) {
        (
            self.server.mean_batch(),
            self.server.mean_requests_per_pass(),
        )
    }
}

/// What a self-play thread plays: the boards (the run's own, and in a run that mixes board
/// sizes others), how it plays them, and the records some of its games start from.
pub struct Games<'a, G: Planes> {
    pub boards: &'a Boards<G::Options>,
    pub config: &'a SelfplayConfig,
    pub starts: &'a Arc<StartPositions>,
}

/// Plays `games` until the run stops, through `served` where the process runs an inference
/// server, else with a copy of the newest network of its own, run as `own_copy` says.
pub fn run_worker<G: Planes>(
    run: &RunDir,
    games: Games<'_, G>,
    seed: u64,
    shared: &Shared,
    records: Vec<Sender<GameRecord>>,
    served: Option<&ServedNetwork<G>>,
    own_copy: EvaluatorSettings,
) -> Result<()> {
    let Games {
        boards,
        config,
        starts,
    } = games;
    let options = boards.options(0);
    match served {
        Some(served) => {
            let worker = Worker::<G>::new(options.clone(), config.clone(), seed)
                .with_boards(boards.clone())
                .with_start_positions(starts.clone());
            let generation = served.generation.load(Ordering::Acquire);
            let newer = |current: u64| -> Result<_> { Ok(served.newer_client(current)) };
            play(
                worker,
                served.server.client(),
                generation,
                config,
                shared,
                records,
                newer,
            )
        }
        None => {
            let config = &config.clone().evaluating_on_own_thread();
            let worker = Worker::<G>::new(options.clone(), config.clone(), seed)
                .with_boards(boards.clone())
                .with_start_positions(starts.clone());
            let evaluator = |network| -> Result<_> {
                let evaluator = NetEvaluator::<G>::new(network, options, own_copy)?;
                Ok(Inline::new(evaluator))
            };
            let (generation, network) = load_latest::<G>(run)?;
            let newer = |current: u64| -> Result<_> {
                if run.latest_generation()? == Some(current) {
                    return Ok(None);
                }
                let (generation, network) = load_latest::<G>(run)?;
                Ok(Some((generation, evaluator(network)?)))
            };
            play(
                worker,
                evaluator(network)?,
                generation,
                config,
                shared,
                records,
                newer,
            )
        }
    }
}

/// Plays until the run stops, switching to the evaluator `newer` returns whenever there is a
/// newer generation (checked every few seconds; the batches in flight are taken back from the
/// old one first); the cache starts empty with each.
fn play<G: Planes, E: PipelinedEvaluator<G>>(
    mut worker: Worker<G>,
    evaluator: E,
    mut generation: u64,
    config: &SelfplayConfig,
    shared: &Shared,
    records: Vec<Sender<GameRecord>>,
    mut newer: impl FnMut(u64) -> Result<Option<(u64, E)>>,
) -> Result<()> {
    let mut evaluator = CachedEvaluator::new(evaluator, config.eval_cache);
    worker.set_generation(generation as u32);
    let mut finished = Vec::new();
    let mut last_check = Instant::now();
    let mut resign_threshold = worker.resign_threshold();
    while !shared.stopping() {
        let report = worker.step(&mut evaluator, &mut finished)?;
        shared
            .evaluations
            .fetch_add(report.evaluations as u64, Ordering::Relaxed);
        shared
            .cache_hits
            .fetch_add(evaluator.take_stats().hits, Ordering::Relaxed);
        for game in finished.drain(..) {
            // Each board's games go to its own shard writer.
            if records[game.board].send(game.record).is_err() {
                return Ok(());
            }
        }
        if last_check.elapsed() >= RELOAD_CHECK {
            last_check = Instant::now();
            if worker.resign_threshold() != resign_threshold {
                resign_threshold = worker.resign_threshold();
                match resign_threshold {
                    Some(threshold) => {
                        tracing::info!("self-play resigns below a game value of {threshold:.3} now")
                    }
                    None => tracing::info!("self-play does not resign now"),
                }
            }
            if let Some((next, inner)) = newer(generation)? {
                let drained = worker.drain(&mut evaluator)?;
                shared
                    .evaluations
                    .fetch_add(drained as u64, Ordering::Relaxed);
                generation = next;
                evaluator.replace_inner(inner);
                worker.set_generation(generation as u32);
                tracing::debug!("self-play now uses generation {generation}");
            }
        }
    }
    Ok(())
}

/// The generation `latest` names and its network, on the CPU (an evaluator or the server
/// moves it to its device).
pub(super) fn load_latest<G: Planes>(run: &RunDir) -> Result<(u64, Network)> {
    let generation = run
        .latest_generation()?
        .ok_or_else(|| anyhow::anyhow!("{}: no model yet", run.models().display()))?;
    let checkpoint =
        nn::checkpoint::load::<G::Options>(&run.checkpoint(generation), G::NAME, tch::Device::Cpu)?;
    Ok((generation, checkpoint.network))
}
