//! The one writer of the replay store: finished games go to the journal at once and into a
//! shard every `games_per_shard` games, and all but the newest shards are merged into large
//! ones now and then (see `replay::Merger`); it also keeps the self-play statistics.

use super::shared::Shared;
use crate::journal::Journal;
use anyhow::Result;
use game::{Outcome, Side};
use replay::{GameRecord, LocalDirStore, Merger, Shard, ShardHeader, ShardOrigin, ShardStore};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often self-play statistics go to TensorBoard.
const STATS_INTERVAL: Duration = Duration::from_secs(10);
/// How often old shards are looked at for merging.
const MERGE_INTERVAL: Duration = Duration::from_secs(60);

/// Merging old shards: where the intent file goes, and the positions per merged shard (also
/// the newest positions left in small shards).
pub struct ShardMerging {
    pub intent: PathBuf,
    pub target_positions: u64,
}

pub struct ShardWriter {
    store: LocalDirStore,
    journal: Journal,
    pending: Vec<GameRecord>,
    games_per_shard: usize,
    origin: ShardOrigin,
    seq: u64,
    merging: Option<ShardMerging>,
}

impl ShardWriter {
    pub fn new(
        store: LocalDirStore,
        journal: Journal,
        recovered: Vec<GameRecord>,
        games_per_shard: usize,
        origin: ShardOrigin,
        merging: Option<ShardMerging>,
    ) -> ShardWriter {
        ShardWriter {
            store,
            journal,
            pending: recovered,
            games_per_shard: games_per_shard.max(1),
            origin,
            seq: 0,
            merging,
        }
    }

    /// Receives games until every sender is gone, then writes what is left.
    pub fn run(mut self, records: Receiver<GameRecord>, shared: &Shared) -> Result<()> {
        if let Some(merging) = &self.merging {
            Merger::new(&self.store, &merging.intent, self.origin.clone()).recover()?;
        }
        let mut stats = Stats::default();
        let mut last_log = Instant::now();
        let mut last_merge = Instant::now();
        let start = Instant::now();
        loop {
            match records.recv_timeout(Duration::from_millis(200)) {
                Ok(record) => {
                    self.journal.append(&record)?;
                    shared.games.fetch_add(1, Ordering::Relaxed);
                    stats.add(&record);
                    self.pending.push(record);
                    if self.pending.len() >= self.games_per_shard {
                        self.flush(shared)?;
                        if last_merge.elapsed() >= MERGE_INTERVAL {
                            last_merge = Instant::now();
                            self.merge_old_shards()?;
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if last_log.elapsed() >= STATS_INTERVAL && stats.games > 0 {
                last_log = Instant::now();
                stats.log(shared, start.elapsed());
                stats = Stats::default();
            }
        }
        self.flush(shared)
    }

    /// Writes the pending games as one shard, then empties the journal.
    fn flush(&mut self, shared: &Shared) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let generation = shared.generation.load(Ordering::Relaxed) as u32;
        self.seq += 1;
        let shard = Shard {
            header: ShardHeader::now(&self.origin, generation, 0, self.seq),
            records: std::mem::take(&mut self.pending),
        };
        let name = self.store.write_shard(&shard)?;
        shared
            .positions
            .fetch_add(shard.positions(), Ordering::Relaxed);
        self.journal.clear()?;
        tracing::debug!("wrote {name} ({} games)", shard.records.len());
        Ok(())
    }

    fn merge_old_shards(&self) -> Result<()> {
        let Some(merging) = &self.merging else {
            return Ok(());
        };
        let merger = Merger::new(&self.store, &merging.intent, self.origin.clone());
        let removed = merger.merge_old(merging.target_positions)?;
        if removed > 0 {
            tracing::info!("merged old shards: {removed} fewer files");
        }
        Ok(())
    }
}

/// Self-play statistics since the last report.
#[derive(Default)]
struct Stats {
    games: u64,
    moves: u64,
    first_wins: u64,
    second_wins: u64,
    draws: u64,
    endings: BTreeMap<String, u64>,
    playthroughs: u64,
    false_positives: u64,
}

impl Stats {
    fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        self.moves += record.moves.len() as u64;
        match record.outcome {
            Outcome::Win(Side::First) => self.first_wins += 1,
            Outcome::Win(Side::Second) => self.second_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
        *self.endings.entry(record.end_reason.clone()).or_default() += 1;
        if let Some(false_positive) = record.resign_false_positive() {
            self.playthroughs += 1;
            self.false_positives += u64::from(false_positive);
        }
    }

    fn log(&self, shared: &Shared, elapsed: Duration) {
        let games = self.games as f64;
        let total_games = shared.games.load(Ordering::Relaxed);
        let seconds = elapsed.as_secs_f64().max(1e-9);
        let mut scalars = vec![
            ("selfplay/games_per_sec", total_games as f64 / seconds),
            (
                "selfplay/evals_per_sec",
                shared.evaluations.load(Ordering::Relaxed) as f64 / seconds,
            ),
            (
                "selfplay/cache_hit_rate",
                shared.cache_hits.load(Ordering::Relaxed) as f64
                    / shared.evaluations.load(Ordering::Relaxed).max(1) as f64,
            ),
            ("selfplay/mean_game_length", self.moves as f64 / games),
            ("results/first_player_wins", self.first_wins as f64 / games),
            (
                "results/second_player_wins",
                self.second_wins as f64 / games,
            ),
            ("results/draws", self.draws as f64 / games),
        ];
        let ending_tags: Vec<(String, f64)> = self
            .endings
            .iter()
            .map(|(reason, &count)| (format!("endings/{reason}"), count as f64 / games))
            .collect();
        scalars.extend(
            ending_tags
                .iter()
                .map(|(tag, share)| (tag.as_str(), *share)),
        );
        if self.playthroughs > 0 {
            let rate = self.false_positives as f64 / self.playthroughs as f64;
            scalars.push(("selfplay/resign_false_positive_rate", rate));
        }
        shared.log(total_games, &scalars);
    }
}
