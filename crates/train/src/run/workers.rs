//! Self-play threads: each owns a worker and a copy of the newest network, and reloads it
//! when the trainer moves the `latest` pointer.

use super::shared::Shared;
use crate::RunDir;
use anyhow::Result;
use game::Planes;
use mcts::CachedEvaluator;
use nn::{EvaluatorSettings, NetEvaluator};
use replay::GameRecord;
use selfplay::{SelfplayConfig, Worker};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// How often a worker looks at the `latest` pointer.
const RELOAD_CHECK: Duration = Duration::from_secs(2);

pub fn run_worker<G: Planes>(
    run: &RunDir,
    options: &G::Options,
    config: &SelfplayConfig,
    seed: u64,
    shared: &Shared,
    records: Sender<GameRecord>,
) -> Result<()> {
    let (mut generation, network) = load_latest::<G>(run, options)?;
    let mut evaluator = CachedEvaluator::new(network, config.eval_cache);
    let mut worker = Worker::<G>::new(options.clone(), config.clone(), seed);
    worker.set_generation(generation as u32);
    let mut finished = Vec::new();
    let mut last_check = Instant::now();
    while !shared.stopping() {
        let report = worker.step(&mut evaluator, &mut finished);
        shared
            .evaluations
            .fetch_add(report.evaluations as u64, Ordering::Relaxed);
        shared
            .cache_hits
            .fetch_add(evaluator.take_stats().hits, Ordering::Relaxed);
        for record in finished.drain(..) {
            if records.send(record).is_err() {
                return Ok(());
            }
        }
        if last_check.elapsed() >= RELOAD_CHECK {
            last_check = Instant::now();
            if run
                .latest_generation()?
                .is_some_and(|latest| latest != generation)
            {
                let network;
                (generation, network) = load_latest::<G>(run, options)?;
                evaluator.replace_inner(network);
                worker.set_generation(generation as u32);
                tracing::debug!("self-play now uses generation {generation}");
            }
        }
    }
    Ok(())
}

fn load_latest<G: Planes>(run: &RunDir, options: &G::Options) -> Result<(u64, NetEvaluator<G>)> {
    let generation = run
        .latest_generation()?
        .ok_or_else(|| anyhow::anyhow!("{}: no model yet", run.models().display()))?;
    let checkpoint =
        nn::checkpoint::load::<G::Options>(&run.checkpoint(generation), G::NAME, tch::Device::Cpu)?;
    let evaluator = NetEvaluator::new(checkpoint.network, options, EvaluatorSettings::default())?;
    Ok((generation, evaluator))
}
