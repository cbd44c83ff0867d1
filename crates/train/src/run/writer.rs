//! The one writer of the replay store: finished games go to the journal at once and, every
//! `games_per_shard` games, into a shard that an uploader thread stores; all but the newest
//! shards are merged into large ones now and then (see `replay::Merger`); it also keeps the
//! self-play statistics.
//!
//! Storing a shard can be slow or fail for a while (an object store on the network), so it
//! happens beside the journal, never in its way: games keep being journaled while shards
//! wait, and a game leaves the journal only once the shard holding it is stored. A store
//! that fails is retried with backoff, with one log line when it fails and one when it is
//! back; nothing is lost if the process is killed meanwhile (a kill between a store and the
//! journal's rewrite can store those games twice, never lose them).

use super::shared::Shared;
use crate::journal::Journal;
use anyhow::Result;
use game::{Outcome, Side};
use replay::{GameRecord, Merger, Shard, ShardHeader, ShardOrigin, ShardStore};
use rundir::RunDir;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How often self-play statistics go to TensorBoard.
const STATS_INTERVAL: Duration = Duration::from_secs(10);
/// How often old shards are looked at for merging.
const MERGE_INTERVAL: Duration = Duration::from_secs(60);
/// The first wait after a failed store, doubled after each further failure up to the last.
const RETRY_WAITS: (Duration, Duration) = (Duration::from_secs(1), Duration::from_secs(60));

/// Merging old shards: where the intent file goes, and the positions per merged shard (also
/// the newest positions left in small shards).
pub struct ShardMerging {
    pub intent: PathBuf,
    pub target_positions: u64,
}

pub struct ShardWriter<S> {
    store: Arc<S>,
    journal: Journal,
    /// Games not yet sealed into a shard.
    pending: Vec<GameRecord>,
    /// Sealed shards the uploader has not yet stored, by sequence number.
    unstored: BTreeMap<u64, Vec<GameRecord>>,
    games_per_shard: usize,
    origin: ShardOrigin,
    /// This writer's id in shard names, distinct from every other writer of the store.
    writer_id: u32,
    seq: u64,
    merging: Option<ShardMerging>,
    /// The run folder that keeps the count of stored games, if this writer counts them.
    tally: Option<RunDir>,
    /// Games stored by this run folder's writers, this one and those before it.
    stored_games: u64,
    /// The number the first game of this process comes after: the games stored and those
    /// recovered from the journal when it started (the self-play curves' x-axis).
    games_before: u64,
    /// Whether this writer draws the self-play curves: one writer of a process does.
    curves: bool,
    /// Whether its games are reanalysed ones: counted apart from self-play's.
    reanalysed: bool,
}

impl<S: ShardStore + 'static> ShardWriter<S> {
    pub fn new(
        store: S,
        journal: Journal,
        recovered: Vec<GameRecord>,
        games_per_shard: usize,
        origin: ShardOrigin,
        writer_id: u32,
        merging: Option<ShardMerging>,
    ) -> ShardWriter<S> {
        ShardWriter {
            store: Arc::new(store),
            journal,
            pending: recovered,
            unstored: BTreeMap::new(),
            games_per_shard: games_per_shard.max(1),
            origin,
            writer_id,
            seq: 0,
            merging,
            tally: None,
            stored_games: 0,
            games_before: 0,
            curves: true,
            reanalysed: false,
        }
    }

    /// Draws no self-play curves: the writer of another board than the run's own, beside the
    /// writer that does (its games still count in the curves' games per second).
    pub fn without_curves(mut self) -> Self {
        self.curves = false;
        self
    }

    /// Stores reanalysed games: no curves, and counted apart (`Shared::reanalysed`), so that
    /// the progress line's games and positions stay self-play's.
    pub fn reanalysed(mut self) -> Self {
        self.curves = false;
        self.reanalysed = true;
        self
    }

    /// Keeps the count of stored games in `run` and numbers this process's games on from it
    /// and the games recovered from the journal, so that a resumed run's self-play curves go
    /// on where they stopped.
    pub fn counting_in(mut self, run: RunDir) -> Result<Self> {
        self.stored_games = run.games_stored()?;
        self.games_before = self.stored_games + self.pending.len() as u64;
        self.tally = Some(run);
        Ok(self)
    }

    /// Receives games until every sender is gone, then seals what is left and gives the
    /// uploader until the store has answered once more for each waiting shard.
    pub fn run(mut self, records: Receiver<GameRecord>, shared: &Shared) -> Result<()> {
        if let Some(merging) = &self.merging {
            Merger::new(&*self.store, &merging.intent, self.origin.clone()).recover()?;
        }
        let (shards, to_upload) = mpsc::channel();
        let (stored, acknowledgements) = mpsc::channel();
        let stopping = Arc::new(AtomicBool::new(false));
        let uploader = Uploader {
            store: Arc::clone(&self.store),
            stopping: Arc::clone(&stopping),
            counts_positions: !self.reanalysed,
        };
        std::thread::scope(|scope| -> Result<()> {
            let upload = scope.spawn(move || uploader.run(to_upload, stored, shared));
            let result = self.receive(&records, &shards, &acknowledgements, shared);
            let last = self.seal(&shards);
            stopping.store(true, Ordering::Relaxed);
            drop(shards);
            upload.join().expect("the shard uploader panicked");
            self.acknowledge(&acknowledgements)?;
            if !self.unstored.is_empty() {
                let games: usize = self.unstored.values().map(Vec::len).sum();
                tracing::warn!(
                    "{games} games could not be stored yet; they stay in the journal for the \
                     next start"
                );
            }
            result.and(last)
        })
    }

    fn receive(
        &mut self,
        records: &Receiver<GameRecord>,
        shards: &Sender<Shard>,
        acknowledgements: &Receiver<u64>,
        shared: &Shared,
    ) -> Result<()> {
        let mut stats = Stats::default();
        let mut last_log = Instant::now();
        let mut last_merge = Instant::now();
        let start = Instant::now();
        loop {
            match records.recv_timeout(Duration::from_millis(200)) {
                Ok(record) => {
                    self.journal.append(&record)?;
                    let count = if self.reanalysed {
                        &shared.reanalysed
                    } else {
                        &shared.games
                    };
                    count.fetch_add(1, Ordering::Relaxed);
                    stats.add(&record);
                    self.pending.push(record);
                    if self.pending.len() >= self.games_per_shard {
                        self.seal(shards)?;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(()),
            }
            self.acknowledge(acknowledgements)?;
            if last_merge.elapsed() >= MERGE_INTERVAL && self.unstored.is_empty() {
                last_merge = Instant::now();
                self.merge_old_shards()?;
            }
            if self.curves && last_log.elapsed() >= STATS_INTERVAL && stats.games > 0 {
                last_log = Instant::now();
                stats.log(shared, start.elapsed(), self.games_before);
                stats = Stats::default();
            }
        }
    }

    /// Hands the pending games to the uploader as one shard.
    fn seal(&mut self, shards: &Sender<Shard>) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.seq += 1;
        let generation = self.pending.iter().map(|r| r.generation).max().unwrap_or(0);
        let records = std::mem::take(&mut self.pending);
        self.unstored.insert(self.seq, records.clone());
        let shard = Shard {
            header: ShardHeader::now(&self.origin, generation, self.writer_id, self.seq),
            records,
        };
        shards
            .send(shard)
            .map_err(|_| anyhow::anyhow!("the shard uploader stopped early"))
    }

    /// Forgets the games of the shards the uploader has stored, and rewrites the journal
    /// without them.
    fn acknowledge(&mut self, acknowledgements: &Receiver<u64>) -> Result<()> {
        let mut any = false;
        while let Ok(seq) = acknowledgements.try_recv() {
            if let Some(games) = self.unstored.remove(&seq) {
                self.stored_games += games.len() as u64;
                any = true;
            }
        }
        if any {
            if let Some(run) = &self.tally {
                run.set_games_stored(self.stored_games)?;
            }
            let waiting: Vec<GameRecord> = self
                .unstored
                .values()
                .flatten()
                .chain(&self.pending)
                .cloned()
                .collect();
            self.journal.rewrite(&waiting)?;
        }
        Ok(())
    }

    fn merge_old_shards(&self) -> Result<()> {
        let Some(merging) = &self.merging else {
            return Ok(());
        };
        let merger = Merger::new(&*self.store, &merging.intent, self.origin.clone());
        let removed = merger.merge_old(merging.target_positions)?;
        if removed > 0 {
            tracing::info!("merged old shards: {removed} fewer files");
        }
        Ok(())
    }
}

/// Stores sealed shards in order, retrying a failing store with backoff.
struct Uploader<S> {
    store: Arc<S>,
    /// Set when the writer stops: then a shard gets one more try, no more waiting.
    stopping: Arc<AtomicBool>,
    /// Whether stored positions count in the progress line's (self-play's, not reanalysed).
    counts_positions: bool,
}

impl<S: ShardStore> Uploader<S> {
    fn run(self, shards: Receiver<Shard>, stored: Sender<u64>, shared: &Shared) {
        let mut failures = 0u32;
        for shard in shards {
            loop {
                match self.store.write_shard(&shard) {
                    Ok(name) => {
                        if failures > 0 {
                            tracing::info!(
                                "the replay store works again: stored {name} after {failures} \
                                 failed tries"
                            );
                            failures = 0;
                        }
                        if self.counts_positions {
                            shared
                                .positions
                                .fetch_add(shard.positions(), Ordering::Relaxed);
                        }
                        tracing::debug!("wrote {name} ({} games)", shard.records.len());
                        let _ = stored.send(shard.header.seq);
                        break;
                    }
                    Err(error) => {
                        failures += 1;
                        if failures == 1 {
                            tracing::warn!(
                                "cannot store a shard ({error}); its games stay in the \
                                 journal and the store is tried again with backoff"
                            );
                        }
                        if self.stopping.load(Ordering::Relaxed) {
                            break;
                        }
                        let wait = RETRY_WAITS.0.saturating_mul(1 << (failures - 1).min(6));
                        std::thread::sleep(wait.min(RETRY_WAITS.1));
                    }
                }
            }
        }
    }
}

/// Self-play statistics since the last report. Results and endings count the games between
/// equals (the balance of the game); handicap games are counted apart.
#[derive(Default)]
struct Stats {
    games: u64,
    moves: u64,
    /// Games between equals, and how they ended.
    even_games: u64,
    first_wins: u64,
    second_wins: u64,
    draws: u64,
    endings: BTreeMap<String, u64>,
    playthroughs: u64,
    false_positives: u64,
    handicap_games: u64,
    /// Handicap games the handicapped side won.
    handicapped_wins: u64,
}

impl Stats {
    fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        self.moves += record.moves.len() as u64;
        if let Some(handicap) = record.handicap {
            self.handicap_games += 1;
            self.handicapped_wins += u64::from(record.outcome == Outcome::Win(handicap.side));
            return;
        }
        self.even_games += 1;
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

    /// Logs the statistics at the run's game number: `games_before` this process, and its own.
    fn log(&self, shared: &Shared, elapsed: Duration, games_before: u64) {
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
        ];
        let even = self.even_games as f64;
        if self.even_games > 0 {
            scalars.extend([
                ("results/first_player_wins", self.first_wins as f64 / even),
                ("results/second_player_wins", self.second_wins as f64 / even),
                ("results/draws", self.draws as f64 / even),
            ]);
        }
        if self.handicap_games > 0 {
            let handicap = self.handicap_games as f64;
            scalars.extend([
                ("handicap/share_of_games", handicap / games),
                (
                    "handicap/handicapped_side_wins",
                    self.handicapped_wins as f64 / handicap,
                ),
            ]);
        }
        let ending_tags: Vec<(String, f64)> = self
            .endings
            .iter()
            .map(|(reason, &count)| (format!("endings/{reason}"), count as f64 / even))
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
        shared.log(games_before + total_games, &scalars);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::tests::record;
    use crate::metrics::Metrics;
    use replay::ObjectShardStore;

    fn origin() -> ShardOrigin {
        ShardOrigin {
            game: "test".into(),
            options_json: "{}".into(),
        }
    }

    fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
        let started = Instant::now();
        while !done() {
            assert!(started.elapsed() < Duration::from_secs(60), "no {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The balance of the game (results, endings) counts games between equals only.
    #[test]
    fn handicap_games_are_counted_apart_from_the_balance() {
        let mut stats = Stats::default();
        stats.add(&record(3));
        let mut handicapped = record(2);
        handicapped.handicap = Some(replay::Handicapped {
            side: Side::Second,
            random_decisions: 0.5,
        });
        stats.add(&handicapped);
        assert_eq!((stats.games, stats.moves), (2, 5));
        assert_eq!((stats.even_games, stats.first_wins), (1, 1));
        assert_eq!(stats.endings.values().sum::<u64>(), 1);
        assert_eq!((stats.handicap_games, stats.handicapped_wins), (1, 0));
    }

    #[test]
    fn games_wait_in_the_journal_while_the_store_is_down_and_go_up_when_it_is_back() {
        let mut server = loopback_s3::LoopbackS3::start();
        let open = || ObjectShardStore::open_with(&server.url("shards"), server.env()).unwrap();
        let (writer_store, reader) = (open(), open());
        let dir = tempfile::tempdir().unwrap();
        let journal_path = dir.path().join("journal.bin");
        let shared = Shared::new(Metrics::open(&dir.path().join("tensorboard")), 0, 0);
        let (journal, _) = Journal::open(&journal_path).unwrap();
        let writer = ShardWriter::new(writer_store, journal, Vec::new(), 2, origin(), 7, None);
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| {
            let writing = scope.spawn(|| writer.run(receiver, &shared));
            sender.send(record(3)).unwrap();
            sender.send(record(4)).unwrap();
            wait_for("first shard", || reader.list().unwrap().len() == 1);
            server.stop();
            for moves in [5, 6, 7] {
                sender.send(record(moves)).unwrap();
            }
            wait_for("journaled games", || {
                shared.games.load(Ordering::Relaxed) == 5
            });
            // The uploader fails at least once and backs off.
            std::thread::sleep(Duration::from_secs(2));
            server.resume();
            wait_for("second shard", || reader.list().unwrap().len() == 2);
            drop(sender);
            writing.join().unwrap().unwrap();
        });
        let names = reader.list().unwrap();
        assert_eq!(
            names.len(),
            3,
            "the last game went up when the writer stopped"
        );
        assert!(names.iter().all(|name| name.worker == 7), "{names:?}");
        let positions: u64 = names.iter().map(|name| name.positions).sum();
        assert_eq!(positions, 3 + 4 + 5 + 6 + 7);
        let (_, recovered) = Journal::open(&journal_path).unwrap();
        assert_eq!(recovered, [], "stored games leave the journal");
    }

    /// A resumed run's games are numbered on from the games stored before and those the
    /// journal kept, not from 0.
    #[test]
    fn a_resumed_writer_numbers_its_games_on_from_those_stored_and_journaled() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        run.create().unwrap();
        let shared = Shared::new(Metrics::open(&run.tensorboard()), 0, 0);
        let (journal, _) = Journal::open(&run.journal()).unwrap();
        let store = replay::LocalDirStore::open(run.shards()).unwrap();
        let writer = ShardWriter::new(store, journal, Vec::new(), 2, origin(), 0, None)
            .counting_in(run.clone())
            .unwrap();
        assert_eq!(writer.games_before, 0);
        let (sender, receiver) = mpsc::channel();
        for moves in [3, 4, 5] {
            sender.send(record(moves)).unwrap();
        }
        drop(sender);
        writer.run(receiver, &shared).unwrap();
        assert_eq!(run.games_stored().unwrap(), 3);

        // A game the killed process journaled but never stored.
        Journal::open(&run.journal())
            .unwrap()
            .0
            .append(&record(6))
            .unwrap();
        let (journal, recovered) = Journal::open(&run.journal()).unwrap();
        let store = replay::LocalDirStore::open(run.shards()).unwrap();
        let resumed = ShardWriter::new(store, journal, recovered, 2, origin(), 0, None)
            .counting_in(run.clone())
            .unwrap();
        assert_eq!(resumed.games_before, 4, "3 stored and 1 in the journal");
    }

    #[test]
    fn games_the_store_never_took_stay_in_the_journal_for_the_next_start() {
        let mut server = loopback_s3::LoopbackS3::start();
        let store = ObjectShardStore::open_with(&server.url("shards"), server.env()).unwrap();
        server.stop();
        let dir = tempfile::tempdir().unwrap();
        let journal_path = dir.path().join("journal.bin");
        let shared = Shared::new(Metrics::open(&dir.path().join("tensorboard")), 0, 0);
        let (journal, _) = Journal::open(&journal_path).unwrap();
        let writer = ShardWriter::new(store, journal, Vec::new(), 2, origin(), 1, None);
        let (sender, receiver) = mpsc::channel();
        for moves in [3, 4, 5] {
            sender.send(record(moves)).unwrap();
        }
        drop(sender);
        writer.run(receiver, &shared).unwrap();
        let (_, recovered) = Journal::open(&journal_path).unwrap();
        assert_eq!(recovered, [record(3), record(4), record(5)]);
    }
}
