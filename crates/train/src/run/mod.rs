//! `ghast train`: self-play threads, the shard writer and the trainer in one process; or, for
//! runs on many machines, self-play (`ghast selfplay`) and trainer (`ghast learn`) in
//! processes of their own that meet in a shared store (see [`RunStore`]).
//!
//! Everything a later process needs lives in the run folder (see [`crate::RunDir`]): the
//! replay shards, the journal of games not yet in a shard, and the checkpoints, whose
//! sidecars hold the generation and the training step. So a run killed at any moment resumes
//! from its folder with no finished game and no checkpoint lost; only the games in flight and
//! the training steps since the last checkpoint are done again.

mod matches;
mod progress;
mod reanalyse;
mod shared;
mod sync;
mod trainer_loop;
mod workers;
mod writer;

pub use progress::Limit;

use crate::journal::Journal;
use crate::metrics::Metrics;
use crate::{RunConfig, RunDir, RunStore, Trainer};
use anyhow::{Context, Result};
use game::{DeviceError, Planes};
use nn::DeviceChoice;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reanalyse::ReanalyseLoop;
use replay::{GameRecord, LocalDirStore, ShardOrigin, ShardStore, Window, open_store};
use selfplay::Boards;
use shared::Shared;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use sync::Publisher;
use trainer_loop::{LOCAL_REFRESH, REMOTE_REFRESH, TrainerLoop, save_checkpoint};
use workers::ServedNetwork;
use writer::{ShardMerging, ShardWriter};

/// Where a run stood when it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSummary {
    pub generation: u64,
    pub steps: u64,
    /// Games finished by this process...
    pub games: u64,
    /// ...and their positions (with `Role::Learner`, the positions in the store).
    pub positions: u64,
    /// Stored games this process searched again (`[selfplay] reanalyse_share`).
    pub reanalysed: u64,
}

/// What this process does of a run.
#[derive(Clone, Copy)]
pub enum Role<'a> {
    /// Self-play, the shard writer and the trainer in one process over the run folder
    /// (`ghast train`).
    Whole,
    /// Self-play only (`ghast selfplay`): plays the generation the learner published in the
    /// store and sends its games there, keeping them in the run folder's journal until they
    /// are stored.
    SelfPlay(&'a RunStore),
    /// The trainer only (`ghast learn`): trains on the store's shards, keeps checkpoints in
    /// the run folder and publishes each new `latest` generation to the store.
    Learner(&'a RunStore),
}

/// Runs `role` of the run in `run` (created and holding its config) until `limit`, resuming
/// from whatever the folder already holds; self-play's network runs on `device`, the trainer
/// on its libtorch device (the best one, when self-play's is simulated).
pub fn train<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
    limit: Limit,
    role: Role,
    device: DeviceChoice,
) -> Result<RunSummary> {
    let process = match role {
        Role::Whole => Process::<G>::whole(run, config, device)?,
        Role::SelfPlay(store) => Process::self_play(run, config, store, device)?,
        Role::Learner(store) => Process::learner(run, config, store, device)?,
    };
    process.run(limit).map_err(|error| {
        if error.chain().any(|cause| cause.is::<DeviceError>()) {
            // Every thread has stopped: what the device's error leaves is said with it.
            error.context(
                "the run stopped; its finished games and written checkpoints are kept, and a \
                 restart (`--resume`) goes on from them",
            )
        } else {
            error
        }
    })
}

/// The threads one process of a run starts, assembled for its role: self-play workers and the
/// shard writer that keeps their games, the trainer and its matches, and the links to a
/// shared store.
struct Process<'a, G: Planes> {
    run: &'a RunDir,
    config: &'a RunConfig<G::Options>,
    /// The boards self-play plays (the run's own first).
    boards: Boards<G::Options>,
    /// Self-play threads (none in a learner).
    workers: usize,
    /// The shard writer of each board (none in a learner).
    writers: Vec<ShardWriter<Box<dyn ShardStore>>>,
    /// The reanalyse thread and the writer of its games, where the config asks for one.
    reanalysis: Option<Reanalysis<G>>,
    trainer: Option<TrainerLoop<'a, G>>,
    /// The generation and training step the process starts from.
    generation: u64,
    step: u64,
    /// This process's id in shard names (0 for `ghast train`; see `RunDir::writer_id`).
    writer_id: u32,
    /// The store self-play downloads each new generation from.
    pull_from: Option<&'a RunStore>,
    /// The store the learner publishes each new generation to.
    publish_to: Option<&'a RunStore>,
    /// Where self-play's network runs.
    device: DeviceChoice,
}

impl<'a, G: Planes> Process<'a, G> {
    /// `ghast train`: everything, over the run folder.
    fn whole(
        run: &'a RunDir,
        config: &'a RunConfig<G::Options>,
        device: DeviceChoice,
    ) -> Result<Self> {
        let boards = boards(config)?;
        let origins = origins::<G>(&boards)?;
        let (trainer, generation, step) = trainer_loop::<G>(
            run,
            config,
            local_shards(run)?,
            LOCAL_REFRESH,
            false,
            &origins,
            device,
        )?;
        let writers = shard_writers(run, config, &origins, || local_shards(run), 0, true)?;
        let reanalysis = reanalysis::<G>(run, config, &origins, || local_shards(run), 0)?;
        Ok(Process {
            run,
            config,
            boards,
            workers: config.selfplay.workers.max(1),
            writers,
            reanalysis,
            trainer: Some(trainer),
            generation,
            step,
            writer_id: 0,
            pull_from: None,
            publish_to: None,
            device,
        })
    }

    /// `ghast selfplay`: plays the generation the learner published and sends the games to
    /// the store, keeping them in the journal until they are there.
    fn self_play(
        run: &'a RunDir,
        config: &'a RunConfig<G::Options>,
        store: &'a RunStore,
        device: DeviceChoice,
    ) -> Result<Self> {
        let writer_id = run.writer_id()?;
        let boards = boards(config)?;
        let origins = origins::<G>(&boards)?;
        let shards = || Ok(open_store(&store.shards())?);
        let writers = shard_writers(run, config, &origins, shards, writer_id, false)?;
        let reanalysis = reanalysis::<G>(run, config, &origins, shards, writer_id)?;
        Ok(Process {
            run,
            config,
            boards,
            workers: config.selfplay.workers.max(1),
            writers,
            reanalysis,
            trainer: None,
            generation: sync::first_model(store, run)?,
            step: 0,
            writer_id,
            pull_from: Some(store),
            publish_to: None,
            device,
        })
    }

    /// `ghast learn`: trains on the store's shards and publishes each new generation there.
    fn learner(
        run: &'a RunDir,
        config: &'a RunConfig<G::Options>,
        store: &'a RunStore,
        device: DeviceChoice,
    ) -> Result<Self> {
        let shards = open_store(&store.shards())?;
        let boards = boards(config)?;
        let origins = origins::<G>(&boards)?;
        let (trainer, generation, step) =
            trainer_loop::<G>(run, config, shards, REMOTE_REFRESH, true, &origins, device)?;
        Ok(Process {
            run,
            config,
            boards,
            workers: 0,
            writers: Vec::new(),
            reanalysis: None,
            trainer: Some(trainer),
            generation,
            step,
            writer_id: 0,
            pull_from: None,
            publish_to: Some(store),
            device,
        })
    }

    /// Starts the threads, waits for `limit` (or a thread that stops), stops them all and
    /// reports where the run stood.
    fn run(self, limit: Limit) -> Result<RunSummary> {
        let Process {
            run,
            config,
            boards,
            workers,
            writers,
            reanalysis,
            trainer,
            generation,
            step,
            writer_id,
            pull_from,
            publish_to,
            device,
        } = self;
        let trains = trainer.is_some();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Self-play threads, the reanalyse thread and the trainer each run libtorch; intra-op
        // threads beyond the cores left over would only fight them.
        let torch_threads = workers + usize::from(reanalysis.is_some()) + usize::from(trains);
        nn::set_intra_op_threads((cores / torch_threads).max(1));
        let served = if workers > 0
            && config
                .selfplay
                .inference
                .uses_server(device.is_accelerator())
        {
            let max_batch = config.selfplay.served_batch(workers);
            let served = ServedNetwork::<G>::start(
                run,
                &config.game,
                device,
                config.network.inference_precision,
                max_batch,
            )?;
            tracing::info!(
                "self-play threads share one network through an inference server on {}, {} batches in flight each",
                served.device_name(),
                config.selfplay.batches_in_flight
            );
            Some(served)
        } else {
            None
        };
        // Without a server each self-play thread (and the reanalyse thread) runs a copy of the
        // network of its own, on the device asked for.
        let own_copy = nn::EvaluatorSettings {
            precision: config.network.inference_precision,
            ..nn::EvaluatorSettings::on(device.torch_device())
        };
        if served.is_none() && workers > 0 {
            tracing::info!(
                "self-play threads each run a copy of the network on {} in {}",
                nn::device_name(own_copy.device),
                own_copy.precision.type_name_on(own_copy.device)
            );
        }
        if trains {
            let precision = config.training.precision;
            tracing::info!(
                "training steps compute in {} ([training] precision = \"{}\")",
                precision.resolved_on(device.torch_device()).name(),
                precision.name()
            );
        }
        // Seeds differ per worker, per process and per resume, so no two threads anywhere
        // play the same games.
        let seed_base = config.run.seed ^ step ^ (u64::from(writer_id) << 40);
        let starts = std::sync::Arc::new(if workers > 0 {
            crate::start_positions::load::<G>(&config.selfplay, &config.game)?
        } else {
            selfplay::StartPositions::default()
        });
        let shared = Shared::new(Metrics::open(&run.tensorboard()), generation, step);

        let mut progress = progress::Progress::new(limit);
        std::thread::scope(|scope| -> Result<()> {
            let shared = &shared;
            let (senders, writers): (Vec<_>, Vec<_>) = writers
                .into_iter()
                .map(|writer| {
                    let (sender, receiver) = mpsc::channel();
                    (sender, scope.spawn(move || writer.run(receiver, shared)))
                })
                .unzip();
            let boards = &boards;
            let self_play: Vec<_> = (0..workers)
                .map(|index| {
                    let senders = senders.clone();
                    let seed = seed_base ^ ((index as u64) << 32);
                    let served = served.as_ref();
                    let starts = &starts;
                    scope.spawn(move || {
                        workers::run_worker::<G>(
                            run,
                            workers::Games {
                                boards,
                                config: &config.selfplay,
                                starts,
                            },
                            seed,
                            shared,
                            senders,
                            served,
                            own_copy,
                        )
                    })
                })
                .collect();
            drop(senders);
            let reanalyse = reanalysis.map(|Reanalysis { mut thread, writer }| {
                // Seeded as one more self-play thread.
                thread.seed = seed_base ^ ((workers as u64) << 32);
                let (sender, receiver) = mpsc::channel();
                let served = served.as_ref();
                (
                    scope.spawn(move || thread.run(run, shared, sender, served, own_copy)),
                    scope.spawn(move || writer.run(receiver, shared)),
                )
            });
            let trainer = trainer
                .map(|trainer| scope.spawn(move || trainer.run(shared, limit.last_generation())));
            let evaluation = &config.evaluation;
            let bot_search = config.bot.search(&config.selfplay.search);
            let matches =
                (trains && (evaluation.every_generations > 0 || evaluation.gating)).then(|| {
                    scope.spawn(move || {
                        matches::run_matches::<G>(
                            run,
                            evaluation,
                            &config.game,
                            &bot_search,
                            shared,
                            limit.last_generation(),
                        )
                    })
                });
            let follow = served
                .as_ref()
                .map(|served| scope.spawn(move || served.follow_latest(run, shared)));
            let pull =
                pull_from.map(|store| scope.spawn(move || sync::pull_models(store, run, shared)));
            let publish = publish_to.map(|store| {
                let publisher = Publisher::new(store, run);
                scope.spawn(move || publisher.run(shared))
            });

            while !progress.update(shared)
                && !self_play.iter().any(|w| w.is_finished())
                && !reanalyse
                    .as_ref()
                    .is_some_and(|(thread, _)| thread.is_finished())
                && !trainer.as_ref().is_some_and(|t| t.is_finished())
            {
                std::thread::sleep(Duration::from_millis(250));
            }
            shared.stop.store(true, Ordering::Relaxed);
            // Every thread is joined before the first error among them is the run's.
            let mut threads = Vec::new();
            threads.extend(self_play.into_iter().map(|h| ("a self-play thread", h)));
            threads.extend(writers.into_iter().map(|h| ("the shard writer", h)));
            if let Some((thread, writer)) = reanalyse {
                threads.push(("the reanalyse thread", thread));
                threads.push(("the reanalysed games' writer", writer));
            }
            threads.extend(matches.map(|h| ("the evaluation thread", h)));
            threads.extend(trainer.map(|h| ("the trainer", h)));
            threads.extend(follow.map(|h| ("the inference server's loader", h)));
            threads.extend(pull.map(|h| ("the model download", h)));
            let mut result = Ok(());
            for (name, handle) in threads {
                let joined = handle.join().unwrap_or_else(|_| panic!("{name} panicked"));
                result = result.and(joined);
            }
            if let Some(publish) = publish {
                // The last generation, and the evaluation's last verdict, reach the store too.
                let mut publisher = publish.join().expect("the model upload panicked");
                if let Err(error) = publisher.publish_latest() {
                    tracing::warn!(
                        "the newest generation is not in the store ({error:#}); `ghast learn \
                         --resume` publishes it"
                    );
                }
            }
            result
        })?;
        progress.finish();
        if let Some(served) = &served {
            let (positions, batches) = served.merging();
            tracing::info!(
                "the inference server ran {positions:.1} positions per forward pass, merged \
                 from {batches:.2} threads' batches"
            );
        }
        Ok(RunSummary {
            generation: shared.generation.load(Ordering::Relaxed),
            steps: shared.steps.load(Ordering::Relaxed),
            games: shared.games.load(Ordering::Relaxed),
            positions: shared.positions.load(Ordering::Relaxed),
            reanalysed: shared.reanalysed.load(Ordering::Relaxed),
        })
    }
}

/// The boards self-play plays: `[game]`, and the other `[selfplay] sizes`.
pub(crate) fn boards<O: Clone + serde::Serialize + serde::de::DeserializeOwned>(
    config: &RunConfig<O>,
) -> Result<Boards<O>> {
    config
        .boards()
        .map_err(|error| anyhow::anyhow!("[selfplay] {error}"))
}

/// The game and options every shard of each board is stamped with, the run's own first.
pub(crate) fn origins<G: Planes>(boards: &Boards<G::Options>) -> Result<Vec<ShardOrigin>> {
    boards
        .all()
        .iter()
        .map(|options| {
            Ok(ShardOrigin {
                game: G::NAME.to_owned(),
                options_json: serde_json::to_string(options)?,
            })
        })
        .collect()
}

/// The trainer over `shards` (re-listed every `refresh_every`), from the newest checkpoint;
/// with the generation and step it starts at. `count_positions`: this process plays no games,
/// so the trainer counts the store's positions for the progress line.
fn trainer_loop<'a, G: Planes>(
    run: &'a RunDir,
    config: &RunConfig<G::Options>,
    shards: Box<dyn ShardStore>,
    refresh_every: Duration,
    count_positions: bool,
    origins: &[ShardOrigin],
    device: DeviceChoice,
) -> Result<(TrainerLoop<'a, G>, u64, u64)> {
    let device = device.torch_device();
    let started = Instant::now();
    let (trainer, generation, step, run_seconds_before) = start_trainer::<G>(run, config, device)?;
    let trainer_loop = TrainerLoop {
        run,
        trainer,
        window: Window::new(shards, config.window, origins.to_vec()),
        refresh_every,
        count_positions,
        generation,
        step,
        run_seconds_before,
        started,
        publish: !config.evaluation.gating,
        retention: config.run.clone(),
    };
    Ok((trainer_loop, generation, step))
}

/// The writers that keep finished games, one per board of `origins` (the run's own first),
/// each over a store `shards` opens: in its journal at once, in the store once a shard is
/// full. Each starts with the games a killed process left in its journal. The run's own
/// board's writer counts the games stored and draws the self-play curves; another board's
/// has a journal and a writer id of its own (ids [`rundir::WRITER_IDS`] apart), and merges
/// its old shards where `merge` asks for merging.
fn shard_writers<O>(
    run: &RunDir,
    config: &RunConfig<O>,
    origins: &[ShardOrigin],
    shards: impl Fn() -> Result<Box<dyn ShardStore>>,
    writer_id: u32,
    merge: bool,
) -> Result<Vec<ShardWriter<Box<dyn ShardStore>>>> {
    let mut writers = Vec::with_capacity(origins.len());
    for (board, origin) in origins.iter().enumerate() {
        let own = board == 0;
        let (journal_path, intent) = if own {
            (run.journal(), run.merge_intent())
        } else {
            (
                run.board_journal(&origin.options_json),
                run.board_merge_intent(&origin.options_json),
            )
        };
        let (journal, recovered) = open_journal(&journal_path)?;
        let merging = (merge && config.run.merged_shard_positions > 0).then_some(ShardMerging {
            intent,
            target_positions: config.run.merged_shard_positions,
        });
        let writer = ShardWriter::new(
            shards()?,
            journal,
            recovered,
            config.run.games_per_shard,
            origin.clone(),
            writer_id + rundir::WRITER_IDS * board as u32,
            merging,
        );
        writers.push(if own {
            writer.counting_in(run.clone())?
        } else {
            writer.without_curves()
        });
    }
    Ok(writers)
}

/// The reanalyse thread and the writer of the games it searched again.
struct Reanalysis<G: Planes> {
    thread: ReanalyseLoop<G>,
    writer: ShardWriter<Box<dyn ShardStore>>,
}

/// Where `[selfplay] reanalyse_share` asks for one, the reanalyse thread over the shards of
/// `origins` that `shards` opens (it searches the run's own board's games), and the writer of
/// its games: a journal of its own, and the writer id `writer_id` plus
/// [`rundir::REANALYSED_WRITER_IDS`].
fn reanalysis<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
    origins: &[ShardOrigin],
    shards: impl Fn() -> Result<Box<dyn ShardStore>>,
    writer_id: u32,
) -> Result<Option<Reanalysis<G>>> {
    if config.selfplay.reanalyse_share <= 0.0 {
        return Ok(None);
    }
    let own = origins[0].clone();
    let (journal, recovered) = open_journal(&run.reanalysed_journal())?;
    let writer = ShardWriter::new(
        shards()?,
        journal,
        recovered,
        config.run.games_per_shard,
        own.clone(),
        writer_id + rundir::REANALYSED_WRITER_IDS,
        None,
    )
    .reanalysed();
    let thread = ReanalyseLoop {
        options: config.game.clone(),
        origin: own,
        config: config.selfplay.clone(),
        window: Window::new(shards()?, config.window, origins.to_vec()),
        seed: 0,
    };
    tracing::info!(
        "a reanalyse thread searches the window's oldest games again with the newest network, \
         on {:.0}% of a core",
        100.0 * config.selfplay.reanalyse_share
    );
    Ok(Some(Reanalysis { thread, writer }))
}

/// A writer's journal, and the games a killed process left in it.
fn open_journal(path: &std::path::Path) -> Result<(Journal, Vec<GameRecord>)> {
    let (journal, recovered) = Journal::open(path)?;
    if !recovered.is_empty() {
        tracing::info!(
            "recovered {} finished games from the journal ({})",
            recovered.len(),
            path.display()
        );
    }
    Ok((journal, recovered))
}

/// The run folder's own replay store.
pub(crate) fn local_shards(run: &RunDir) -> Result<Box<dyn ShardStore>> {
    Ok(Box::new(LocalDirStore::open(run.shards())?))
}

/// The trainer on the newest checkpoint, or on a fresh network written as generation 0; with
/// the generation, training step and run seconds it starts from.
fn start_trainer<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
    device: tch::Device,
) -> Result<(Trainer<G>, u64, u64, u64)> {
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
            // With averaged weights the generation holds the average, and the trained weights
            // are kept beside it; a run that starts averaging starts from the generation.
            let trained = run.trainer_weights(generation);
            let (network, averaged) = if trained.is_file() {
                let network = checkpoint.network.duplicate();
                nn::checkpoint::load_weights(&network, &trained)
                    .with_context(|| format!("cannot resume from {}", trained.display()))?;
                (network, Some(checkpoint.network))
            } else {
                (checkpoint.network, None)
            };
            let trainer = Trainer::new(
                network,
                averaged,
                config.training.clone(),
                config.game.clone(),
                rng(step),
            )?;
            tracing::info!("resuming at generation {generation}, step {step}");
            // A checkpoint from before run seconds were recorded: the ladder then falls back
            // to the checkpoints' clock times.
            let run_seconds = checkpoint.provenance.run_seconds.unwrap_or(0);
            Ok((trainer, generation, step, run_seconds))
        }
        None => {
            let network = crate::initial_network::<G>(config, device)?;
            let trainer = Trainer::new(
                network,
                None,
                config.training.clone(),
                config.game.clone(),
                rng(0),
            )?;
            save_checkpoint(run, &trainer, 0, (0, 0), true)?;
            let size = config.network.size().map_err(anyhow::Error::msg)?;
            match &config.network.init_from {
                Some(source) => tracing::info!(
                    "new run: generation 0 is a {size} network with the weights of {}",
                    source.display()
                ),
                None => tracing::info!("new run: generation 0 is a {size} network"),
            }
            Ok((trainer, 0, 0, 0))
        }
    }
}
