//! The reanalyse thread (`[selfplay] reanalyse_share`; MuZero Reanalyze, LightZero's
//! `reanalyze_ratio`): searches the window's oldest games again with the newest network and
//! hands them, with that search's policy targets, to a shard writer of their own.
//!
//! The oldest games are the next to leave the window, so their positions stay in it for
//! another stretch with targets a better net searched. The copy is a new shard: it counts in
//! the store's positions, so it grows the window and the trainer's sample cap as a self-play
//! game of its length would. The original stays until it ages out. Each game (known by its
//! moves) is searched again once per process, the copy included.

use super::shared::Shared;
use super::workers::{ServedNetwork, load_latest};
use crate::RunDir;
use anyhow::Result;
use game::{Evaluator, Planes};
use nn::{EvaluatorSettings, NetEvaluator};
use replay::{GameRecord, ShardOrigin, ShardStore, Window};
use selfplay::{ReanalyseError, Reanalyser, SelfplayConfig};
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// How often the thread re-lists the store while it has games to search: the window moves
/// slowly, and each listing reads the shards that entered it...
const REFRESH: Duration = Duration::from_secs(30);
/// ...and while it has none (early in a run, or when it has caught up).
const IDLE_REFRESH: Duration = Duration::from_secs(2);
/// How often its curves are written.
const LOG_INTERVAL: Duration = Duration::from_secs(30);
/// The longest nap between checks of the stop flag.
const NAP: Duration = Duration::from_millis(100);

/// What the thread reanalyses: the games of the run's own board (`origin`, played under
/// `options`) in `window`, searched as self-play's full searches are (`config`).
pub struct ReanalyseLoop<G: Planes> {
    pub options: G::Options,
    pub origin: ShardOrigin,
    pub config: SelfplayConfig,
    pub window: Window<Box<dyn ShardStore>>,
    pub seed: u64,
}

impl<G: Planes> ReanalyseLoop<G> {
    /// Reanalyses until the run stops, through the inference server where self-play uses one,
    /// otherwise through a copy of the newest network of its own, run as `own_copy` says.
    pub fn run(
        self,
        run: &RunDir,
        shared: &Shared,
        records: Sender<GameRecord>,
        served: Option<&ServedNetwork<G>>,
        own_copy: EvaluatorSettings,
    ) -> Result<()> {
        match served {
            Some(served) => self.reanalyse(shared, records, |current| {
                Ok(served.newer_client(current.unwrap_or(u64::MAX)))
            }),
            None => {
                let options = self.options.clone();
                self.reanalyse(shared, records, |current| {
                    let latest = run.latest_generation()?;
                    if latest.is_none() || latest == current {
                        return Ok(None);
                    }
                    let (generation, network) = load_latest::<G>(run)?;
                    let evaluator = NetEvaluator::<G>::new(network, &options, own_copy)?;
                    Ok(Some((generation, evaluator)))
                })
            }
        }
    }

    /// The loop itself: `newer` gives the evaluator of a newer generation than the current one
    /// (none yet: `None`), if there is one.
    fn reanalyse<E: Evaluator<G>>(
        mut self,
        shared: &Shared,
        records: Sender<GameRecord>,
        mut newer: impl FnMut(Option<u64>) -> Result<Option<(u64, E)>>,
    ) -> Result<()> {
        let share = self.config.reanalyse_share;
        let mut reanalyser = Reanalyser::<G>::new(self.config.clone(), self.seed);
        let mut current: Option<(u64, E)> = None;
        let mut done = HashSet::new();
        let mut last_refresh: Option<Instant> = None;
        let mut idle = false;
        let mut curves = Curves::new();
        while !shared.stopping() {
            if let Some(next) = newer(current.as_ref().map(|(generation, _)| *generation))? {
                current = Some(next);
                // A new network: the games the last one played are stale now.
                last_refresh = None;
            }
            let refresh_every = if idle { IDLE_REFRESH } else { REFRESH };
            if last_refresh.is_none_or(|at| at.elapsed() >= refresh_every) {
                last_refresh = Some(Instant::now());
                match self.window.refresh() {
                    Ok(()) => {
                        let present: HashSet<u64> = self
                            .window
                            .games()
                            .map(|(_, record)| identity(record))
                            .collect();
                        done.retain(|game| present.contains(game));
                    }
                    Err(error) => {
                        tracing::warn!("reanalyse cannot list new games, goes on without: {error}")
                    }
                }
            }
            curves.log_if_due(shared);
            let stale = current.as_mut().and_then(|(generation, evaluator)| {
                oldest_stale(&self.window, &self.origin, *generation, &done)
                    .map(|record| (*generation, evaluator, record))
            });
            idle = stale.is_none();
            let Some((generation, evaluator, record)) = stale else {
                nap(shared, NAP * 5);
                continue;
            };
            done.insert(identity(record));
            let started = Instant::now();
            match reanalyser.reanalyse(&self.options, record, generation as u32, evaluator) {
                Ok(fresh) => {
                    curves.add(generation - u64::from(record.generation));
                    if records.send(fresh).is_err() {
                        return Ok(());
                    }
                }
                Err(ReanalyseError::Device(error)) => return Err(error.into()),
                Err(error @ ReanalyseError::DoesNotReplay { .. }) => {
                    tracing::warn!("a stored game is not reanalysed: {error}");
                }
            }
            // Throttled to its share of a core: it rests as long, relative to its work, as
            // the rest of the core's time.
            if share < 1.0 {
                nap(shared, started.elapsed().mul_f64((1.0 - share) / share));
            }
        }
        Ok(())
    }
}

/// The game to search again: of those of the run's own board in `window` with a policy
/// target that a network older than `generation` played and that are not `done`, the one of
/// the oldest generation, the oldest of those.
fn oldest_stale<'w>(
    window: &'w Window<Box<dyn ShardStore>>,
    origin: &ShardOrigin,
    generation: u64,
    done: &HashSet<u64>,
) -> Option<&'w GameRecord> {
    window
        .games()
        .enumerate()
        .filter(|(_, (header, record))| {
            header.game == origin.game
                && header.options_json == origin.options_json
                && u64::from(record.generation) < generation
                && record
                    .moves
                    .iter()
                    .any(|played| played.full_search && !played.policy.is_empty())
                && !done.contains(&identity(record))
        })
        // `games` lists the newest shards first: the later of two equal generations is older.
        .min_by_key(|&(order, (_, record))| (record.generation, std::cmp::Reverse(order)))
        .map(|(_, (_, record))| record)
}

/// A game's identity across shards (merging renames them) and across its reanalysed copies:
/// its moves.
fn identity(record: &GameRecord) -> u64 {
    let mut hasher = DefaultHasher::new();
    for played in &record.moves {
        played.action.hash(&mut hasher);
    }
    hasher.finish()
}

/// Sleeps `duration` in naps, returning early once the run stops.
fn nap(shared: &Shared, duration: Duration) {
    let until = Instant::now() + duration;
    while !shared.stopping() {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(NAP));
    }
}

/// The reanalysed games since the last curve point, and how many generations old they were.
struct Curves {
    since: Instant,
    games: u64,
    generations_behind: u64,
}

impl Curves {
    fn new() -> Self {
        Curves {
            since: Instant::now(),
            games: 0,
            generations_behind: 0,
        }
    }

    fn add(&mut self, generations_behind: u64) {
        self.games += 1;
        self.generations_behind += generations_behind;
    }

    /// Writes `reanalyse/games_per_minute` and `reanalyse/generations_behind` (the mean gap
    /// between the generation that played a game and the one that searched it again) at the
    /// trainer's step, every [`LOG_INTERVAL`].
    fn log_if_due(&mut self, shared: &Shared) {
        let elapsed = self.since.elapsed();
        if elapsed < LOG_INTERVAL || self.games == 0 {
            return;
        }
        shared.log(
            shared.steps.load(Ordering::Relaxed),
            &[
                (
                    "reanalyse/games_per_minute",
                    self.games as f64 * 60.0 / elapsed.as_secs_f64(),
                ),
                (
                    "reanalyse/generations_behind",
                    self.generations_behind as f64 / self.games as f64,
                ),
            ],
        );
        *self = Curves::new();
    }
}
