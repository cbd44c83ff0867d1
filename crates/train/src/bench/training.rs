//! The trainer's steps per second and the losses they reach, in one precision, on the games a
//! run has stored: run once per precision from the same weights and the same samples, the
//! figures compare fp32 with bf16 on the device that trains.

use super::{cpu_time, peak_memory_mib};
use crate::run::{boards, local_shards, origins};
use crate::{RunConfig, RunDir, Trainer, TrainerConfig};
use anyhow::Context;
use game::Planes;
use nn::{LossValues, Precision};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use replay::Window;
use serde::Serialize;
use std::time::{Duration, Instant};
use tch::Device;

/// Steps before the clock starts: cuDNN picks its algorithms and the allocator fills its
/// cache in the first few.
const WARM_UP_STEPS: u64 = 5;

#[derive(Clone, Debug, Serialize)]
pub struct TrainingBench {
    pub precision: &'static str,
    /// Where the steps ran: `cpu` or `cuda:N`.
    pub device: String,
    pub net: String,
    pub batch_size: usize,
    /// Timed steps, after the warm-up ones.
    pub steps: u64,
    /// Timed steps per second, sampling included: what `ghast train`'s trainer thread does.
    pub steps_per_sec: f64,
    /// Timed steps per second of the network's part alone (forward, losses, backward and the
    /// optimiser), without drawing and encoding the samples.
    pub learn_steps_per_sec: f64,
    /// Positions learnt per second, sampling included.
    pub samples_per_sec: f64,
    /// The losses averaged over the first and over the last tenth of all steps, warm-up
    /// included: how far the same samples took the same weights.
    pub first_losses: LossValues,
    pub last_losses: LossValues,
    pub cpu_seconds: f64,
    pub peak_memory_mib: Option<f64>,
}

/// Trains a fresh network of `config` (from its seed) for `steps` steps on `device` in
/// `precision`, over the games stored in `run` (a window as `ghast train` reads it), at the
/// config's batch size and learning-rate schedule; averaged weights are left out.
pub fn training<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
    device: Device,
    precision: Precision,
    steps: u64,
) -> anyhow::Result<TrainingBench> {
    anyhow::ensure!(
        steps >= 10,
        "{steps} steps: expected at least 10 (the losses compare tenths)"
    );
    let origins = origins::<G>(&boards(config)?)?;
    let mut window = Window::new(local_shards(run)?, config.window, origins);
    window
        .refresh()
        .with_context(|| format!("cannot read the games of {}", run.root().display()))?;
    anyhow::ensure!(
        window.total_positions() > 0,
        "{} holds no games to train on: `ghast train --run` it first",
        run.root().display()
    );
    let network = crate::initial_network::<G>(config, device)?;
    let trainer_config = TrainerConfig {
        precision,
        weight_average: Default::default(),
        ..config.training.clone()
    };
    let batch_size = trainer_config.batch_size;
    let mut trainer = Trainer::<G>::new(
        network,
        None,
        trainer_config,
        config.game.clone(),
        ChaCha8Rng::seed_from_u64(config.run.seed),
    )?;
    let cpu_before = cpu_time();
    let total = WARM_UP_STEPS + steps;
    let mut losses = Vec::with_capacity(total as usize);
    let (mut sampling, mut learning) = (Duration::ZERO, Duration::ZERO);
    for step in 0..total {
        let started = Instant::now();
        let examples = trainer.sample_examples(&window);
        anyhow::ensure!(
            !examples.is_empty(),
            "no usable position in the games of {}",
            run.root().display()
        );
        let sampled = Instant::now();
        // The losses come back to the host, so the device has finished the step.
        losses.push(trainer.learn(&examples, step)?);
        if step >= WARM_UP_STEPS {
            sampling += sampled - started;
            learning += sampled.elapsed();
        }
    }
    let tenth = (total as usize / 10).max(1);
    let seconds = (sampling + learning).as_secs_f64();
    Ok(TrainingBench {
        precision: precision.resolved_on(device).name(),
        device: nn::device_name(device),
        net: config
            .network
            .size()
            .map_err(anyhow::Error::msg)?
            .to_string(),
        batch_size,
        steps,
        steps_per_sec: steps as f64 / seconds,
        learn_steps_per_sec: steps as f64 / learning.as_secs_f64(),
        samples_per_sec: (steps as usize * batch_size) as f64 / seconds,
        first_losses: LossValues::mean(&losses[..tenth]),
        last_losses: LossValues::mean(&losses[losses.len() - tenth..]),
        cpu_seconds: (cpu_time() - cpu_before).as_secs_f64(),
        peak_memory_mib: peak_memory_mib(),
    })
}
