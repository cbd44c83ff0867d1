//! The trainer thread: trains whenever the sample cap allows, writes a generation every
//! `steps_per_generation` steps and points `latest` at it.

use super::shared::Shared;
use crate::{RunDir, RunLimits, Trainer};
use anyhow::Result;
use game::Planes;
use nn::checkpoint::Provenance;
use replay::{ShardStore, Window};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often the trainer looks for new shards in the run folder...
pub const LOCAL_REFRESH: Duration = Duration::from_secs(1);
/// ...and in a shared store, where a listing is a request (or several) over the network.
pub const REMOTE_REFRESH: Duration = Duration::from_secs(5);
/// Loss curves are written every this many steps.
const LOG_EVERY: u64 = 10;

pub struct TrainerLoop<'a, G: Planes> {
    pub run: &'a RunDir,
    pub trainer: Trainer<G>,
    /// The newest games of the replay store, read as the run's own.
    pub window: Window<Box<dyn ShardStore>>,
    pub refresh_every: Duration,
    /// Whether the positions in the store are the run's position count (no self-play in this
    /// process counts them).
    pub count_positions: bool,
    pub generation: u64,
    pub step: u64,
    /// How long the run had been running when this process started (its newest checkpoint's
    /// `run_seconds`), and when this process started: each checkpoint records the sum.
    pub run_seconds_before: u64,
    pub started: Instant,
    /// Whether a new generation goes to the workers at once; with gating the evaluation
    /// thread decides.
    pub publish: bool,
    /// Which generations stay on disk.
    pub retention: RunLimits,
}

impl<G: Planes> TrainerLoop<'_, G> {
    /// Trains until the run stops. With `last_generation`, the generation that ends the run,
    /// the trainer stops the run itself once it has written it: the progress check looks only
    /// every quarter second, and a fast trainer could otherwise write more, and drop the
    /// generations that were asked for from the newest few kept.
    pub fn run(mut self, shared: &Shared, last_generation: Option<u64>) -> Result<()> {
        self.window.refresh()?;
        let mut last_refresh = Instant::now();
        let mut failing = false;
        let mut saved_step = self.step;
        let batch = self.trainer.config().batch_size as u64;
        let steps_per_generation = self.trainer.config().steps_per_generation.max(1);
        while !shared.stopping() {
            if last_refresh.elapsed() >= self.refresh_every {
                last_refresh = Instant::now();
                // A store that is down for a while only delays new games: train on the window
                // as it stands and try again.
                match self.window.refresh() {
                    Ok(()) if failing => {
                        tracing::info!("the replay store answers again");
                        failing = false;
                    }
                    Ok(()) => {}
                    Err(error) if !failing => {
                        tracing::warn!(
                            "cannot list new games, training on those already read: {error}"
                        );
                        failing = true;
                    }
                    Err(_) => {}
                }
                if self.count_positions {
                    shared
                        .positions
                        .store(self.window.total_positions(), Ordering::Relaxed);
                }
            }
            let produced = self.window.total_positions();
            if !self.trainer.config().may_train(self.step * batch, produced) {
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
            let Some(losses) = self.trainer.step(&self.window, self.step)? else {
                std::thread::sleep(Duration::from_millis(50));
                continue;
            };
            self.step += 1;
            shared.steps.store(self.step, Ordering::Relaxed);
            if self.step.is_multiple_of(LOG_EVERY) {
                let learning_rate = self.trainer.config().learning_rate_at(self.step);
                shared.log(
                    self.step,
                    &[
                        ("loss/total", losses.total),
                        ("loss/policy", losses.policy),
                        ("loss/soft_policy", losses.soft_policy),
                        ("loss/wdl", losses.wdl),
                        ("loss/lead", losses.lead),
                        ("loss/ownership", losses.ownership),
                        ("train/learning_rate", learning_rate),
                        (
                            "train/window_positions",
                            self.window.len(replay::Targets::Any) as f64,
                        ),
                        (
                            "train/samples_per_position",
                            (self.step * batch) as f64 / produced as f64,
                        ),
                    ],
                );
            }
            if self.step.is_multiple_of(steps_per_generation) {
                self.save_generation(shared)?;
                saved_step = self.step;
                if last_generation.is_some_and(|last| self.generation >= last) {
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.step > saved_step {
            self.save_generation(shared)?;
        }
        Ok(())
    }

    fn save_generation(&mut self, shared: &Shared) -> Result<()> {
        self.generation += 1;
        if let Some((shift, positions)) = self.trainer.measure_averaged_batch_norm(&self.window)? {
            tracing::info!(
                "generation {}: the averaged weights' batch-norm statistics measured on \
                 {positions} positions (variances moved {:.1}% on average)",
                self.generation,
                100.0 * shift
            );
        }
        save_checkpoint(
            self.run,
            &self.trainer,
            self.generation,
            (
                self.step,
                self.run_seconds_before + self.started.elapsed().as_secs(),
            ),
            self.publish,
        )?;
        shared.generation.store(self.generation, Ordering::Relaxed);
        tracing::info!(
            "generation {} written after {} steps",
            self.generation,
            self.step
        );
        self.drop_old_generation()
    }

    /// Deletes the generation that just left the newest few, unless it is kept for good or
    /// is still the one self-play plays (with gating, `latest` can lag far behind).
    fn drop_old_generation(&self) -> Result<()> {
        let Some(old) = self
            .generation
            .checked_sub(self.retention.keep_newest_generations)
        else {
            return Ok(());
        };
        if self.retention.keeps(old, self.generation) || self.run.latest_generation()? == Some(old)
        {
            return Ok(());
        }
        self.run.remove_generation(old)
    }
}

/// Writes generation `generation` of the trainer's network, made at training step `step` after
/// `run_seconds` of the run, and, if `publish`, points `latest` at it.
pub fn save_checkpoint<G: Planes>(
    run: &RunDir,
    trainer: &Trainer<G>,
    generation: u64,
    (step, run_seconds): (u64, u64),
    publish: bool,
) -> Result<()> {
    let provenance = Provenance {
        game: G::NAME.to_owned(),
        game_options: trainer.options().clone(),
        generation,
        training_step: step,
        run_seconds: Some(run_seconds),
    };
    // The trained weights first: a generation counts once its sidecar is written, and a
    // resumed trainer must find them then.
    if trainer.averages() {
        nn::checkpoint::save_weights(trainer.network(), &run.trainer_weights(generation))?;
    }
    nn::checkpoint::save(trainer.played(), &provenance, &run.checkpoint(generation))?;
    if publish {
        run.set_latest(generation)?;
    }
    Ok(())
}
