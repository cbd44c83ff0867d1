//! A run's newest generations averaged into one network for its bot: checkpoint averaging,
//! the stochastic weight averaging KataGo applies to the nets it releases. Self-play went on
//! playing each generation as trained, so the average costs the loop nothing; averaging inside
//! the loop (`[training] weight_average`) makes self-play play an average that lags the
//! trained net, which lost Go's 30-minute pairs (BENCHMARKS.md, 2026-12-02 and 2026-12-03).

use crate::run::{boards, local_shards, origins};
use crate::{RunConfig, RunDir, Trainer, TrainerConfig};
use anyhow::{Context, Result};
use game::Planes;
use nn::Network;
use nn::checkpoint::Provenance;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use replay::Window;
use std::path::PathBuf;
use tch::Device;

/// Training batches the average's batch-norm statistics are measured on: a one-off, so more
/// than the four a run measures before each generation.
const BATCH_NORM_BATCHES: usize = 16;

/// The uniform average of consecutive generations of a run, written as a checkpoint.
#[derive(Debug)]
pub struct AveragedGenerations {
    /// The generations averaged, oldest first.
    pub generations: Vec<u64>,
    /// The checkpoint written: [`RunDir::average_checkpoint`], its sidecar the newest
    /// generation's provenance.
    pub checkpoint: PathBuf,
    /// How far the batch-norm variances moved when measured on the run's window
    /// ([`Network::measure_batch_norm`]), and on how many positions.
    pub batch_norm_moved: f64,
    pub positions_measured: usize,
}

/// Averages the run's latest generation (the one self-play last used) and the `count - 1`
/// before it, every weight with the same share, then measures the average's batch-norm
/// statistics on batches of the run's window drawn as its trainer draws them, and writes it as
/// [`RunDir::average_checkpoint`]. The generations must all still be kept: a run keeps its
/// newest `[run] keep_newest_generations`.
pub fn average_newest_generations<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
    count: u64,
) -> Result<AveragedGenerations> {
    anyhow::ensure!(
        count >= 1,
        "an average of {count} generations: expected at least 1"
    );
    let latest = run
        .latest_generation()?
        .with_context(|| format!("{}: no generation to average", run.models().display()))?;
    anyhow::ensure!(
        count <= latest + 1,
        "{}: {count} generations asked for, and the latest is generation {latest}",
        run.root().display()
    );
    let generations: Vec<u64> = (latest + 1 - count..=latest).collect();
    let mut networks = generations.iter().map(|&generation| {
        let path = run.checkpoint(generation);
        if !path.is_file() {
            anyhow::bail!(
                "{}: generation {generation} is not kept, so the newest {count} cannot be \
                 averaged (the run keeps its newest [run] keep_newest_generations = {})",
                run.root().display(),
                config.run.keep_newest_generations
            );
        }
        nn::checkpoint::load::<G::Options>(&path, G::NAME, Device::Cpu)
            .with_context(|| format!("cannot average {}", path.display()))
    });
    let oldest = networks.next().expect("count >= 1")?;
    let (mut average, mut provenance): (Network, Provenance<G::Options>) =
        (oldest.network, oldest.provenance);
    for (averaged, checkpoint) in (1..).zip(networks) {
        let checkpoint = checkpoint?;
        // With n networks in it, the next one's share of the average is 1 / (n + 1).
        average.average_toward(&checkpoint.network, averaged as f64 / (averaged + 1) as f64);
        // The sidecar says where the newest weights come from.
        provenance = checkpoint.provenance;
    }

    let origins = origins::<G>(&boards(config)?)?;
    let mut window = Window::new(local_shards(run)?, config.window, origins);
    window
        .refresh()
        .with_context(|| format!("cannot read the games of {}", run.root().display()))?;
    let trainer_config = TrainerConfig {
        weight_average: Default::default(),
        ..config.training.clone()
    };
    let mut sampler = Trainer::<G>::new(
        average.duplicate(),
        None,
        trainer_config,
        config.game.clone(),
        ChaCha8Rng::seed_from_u64(config.run.seed),
    )?;
    let (batch_norm_moved, positions_measured) = sampler
        .measure_batch_norm_of(&mut average, &window, BATCH_NORM_BATCHES)?
        .with_context(|| {
            format!(
                "{} holds no usable position to measure the average's batch-norm statistics on",
                run.root().display()
            )
        })?;

    let checkpoint = run.average_checkpoint(generations[0], latest);
    nn::checkpoint::save(&average, &provenance, &checkpoint)?;
    Ok(AveragedGenerations {
        generations,
        checkpoint,
        batch_norm_moved,
        positions_measured,
    })
}
