//! `ghast train`: self-play threads, the shard writer and the trainer in one process.
//!
//! Everything a later process needs lives in the run folder (see [`crate::RunDir`]): the
//! replay shards, the journal of games not yet in a shard, and the checkpoints, whose
//! sidecars hold the generation and the training step. So a run killed at any moment resumes
//! from its folder with no finished game and no checkpoint lost; only the games in flight and
//! the training steps since the last checkpoint are done again.

mod matches;
mod progress;
mod shared;
mod trainer_loop;
mod workers;
mod writer;

pub use progress::Limit;

use crate::journal::Journal;
use crate::metrics::Metrics;
use crate::{RunConfig, RunDir, Trainer};
use anyhow::{Context, Result};
use game::Planes;
use nn::{NetConfig, Network};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use replay::{LocalDirStore, ShardOrigin};
use shared::Shared;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Duration;
use trainer_loop::{TrainerLoop, save_checkpoint};
use writer::{ShardMerging, ShardWriter};

/// Where a run stood when it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSummary {
    pub generation: u64,
    pub steps: u64,
    /// Games finished by this process.
    pub games: u64,
}

/// Trains in `run` (created and holding its config) until `limit`, resuming from whatever the
/// folder already holds.
pub fn train<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
    limit: Limit,
) -> Result<RunSummary> {
    let workers = config.selfplay.workers.max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Self-play threads and the trainer each run libtorch; intra-op threads beyond the cores
    // left over would only fight them.
    nn::set_intra_op_threads((cores / (workers + 1)).max(1));

    let device = tch::Device::cuda_if_available();
    let (trainer, generation, step) = start_trainer::<G>(run, config, device)?;
    let (journal, recovered) = Journal::open(&run.journal())?;
    if !recovered.is_empty() {
        tracing::info!(
            "recovered {} finished games from the journal",
            recovered.len()
        );
    }
    let origin = ShardOrigin {
        game: G::NAME.to_owned(),
        options_json: serde_json::to_string(&config.game)?,
    };
    let writer = ShardWriter::new(
        LocalDirStore::open(run.shards())?,
        journal,
        recovered,
        config.run.games_per_shard,
        origin.clone(),
        0,
        (config.run.merged_shard_positions > 0).then(|| ShardMerging {
            intent: run.merge_intent(),
            target_positions: config.run.merged_shard_positions,
        }),
    );
    let shared = Shared::new(Metrics::open(&run.tensorboard()), generation, step);
    let trainer_loop = TrainerLoop {
        run,
        trainer,
        window: config.window,
        origin,
        generation,
        step,
        publish: !config.evaluation.gating,
        retention: config.run.clone(),
    };

    let mut progress = progress::Progress::new(limit);
    std::thread::scope(|scope| -> Result<()> {
        let (sender, receiver) = mpsc::channel();
        let shared = &shared;
        let writer = scope.spawn(move || writer.run(receiver, shared));
        let self_play: Vec<_> = (0..workers)
            .map(|index| {
                let sender = sender.clone();
                // Seeds differ per worker and per resume, so a resumed run plays new games.
                let seed = config.run.seed ^ ((index as u64) << 32) ^ step;
                scope.spawn(move || {
                    workers::run_worker::<G>(
                        run,
                        &config.game,
                        &config.selfplay,
                        seed,
                        shared,
                        sender,
                    )
                })
            })
            .collect();
        drop(sender);
        let trainer = scope.spawn(move || trainer_loop.run(shared));
        let evaluation = &config.evaluation;
        let matches = (evaluation.every_generations > 0 || evaluation.gating).then(|| {
            scope.spawn(move || matches::run_matches::<G>(run, evaluation, &config.game, shared))
        });

        while !progress.update(shared)
            && !self_play.iter().any(|w| w.is_finished())
            && !trainer.is_finished()
        {
            std::thread::sleep(Duration::from_millis(250));
        }
        shared.stop.store(true, Ordering::Relaxed);
        let mut result = Ok(());
        for handle in self_play {
            result = result.and(handle.join().expect("a self-play thread panicked"));
        }
        result = result.and(writer.join().expect("the shard writer panicked"));
        if let Some(matches) = matches {
            result = result.and(matches.join().expect("the evaluation thread panicked"));
        }
        result.and(trainer.join().expect("the trainer panicked"))
    })?;
    progress.finish();
    Ok(RunSummary {
        generation: shared.generation.load(Ordering::Relaxed),
        steps: shared.steps.load(Ordering::Relaxed),
        games: shared.games.load(Ordering::Relaxed),
    })
}

/// The trainer on the newest checkpoint, or on a fresh network written as generation 0.
fn start_trainer<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
    device: tch::Device,
) -> Result<(Trainer<G>, u64, u64)> {
    // Seeded by the step too, so a resumed trainer does not redraw the samples it drew before.
    let rng = |step: u64| {
        ChaCha8Rng::seed_from_u64(config.run.seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    };
    match run.newest_generation()? {
        Some(generation) => {
            let path = run.checkpoint(generation);
            let checkpoint = nn::checkpoint::load::<G::Options>(&path, G::NAME, device)
                .with_context(|| format!("cannot resume from {}", path.display()))?;
            anyhow::ensure!(
                checkpoint.provenance.game_options == config.game,
                "{}: the checkpoint's game options differ from the run's config",
                path.display()
            );
            let step = checkpoint.provenance.training_step;
            let trainer = Trainer::new(
                checkpoint.network,
                config.training.clone(),
                config.game.clone(),
                rng(step),
            )?;
            tracing::info!("resuming at generation {generation}, step {step}");
            Ok((trainer, generation, step))
        }
        None => {
            let start = G::new(&config.game);
            let size = config.network.size().map_err(anyhow::Error::msg)?;
            let net = NetConfig {
                soft_policy: config.network.soft_policy,
                ..NetConfig::sized(size, start.plane_shape().channels, start.policy_layout())
            };
            tch::manual_seed(config.run.seed as i64);
            let network = Network::new(net, device);
            let trainer = Trainer::new(
                network,
                config.training.clone(),
                config.game.clone(),
                rng(0),
            )?;
            save_checkpoint(run, &trainer, 0, 0, true)?;
            tracing::info!("new run: generation 0 is a {size} network");
            Ok((trainer, 0, 0))
        }
    }
}
