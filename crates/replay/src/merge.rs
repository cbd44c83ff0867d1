//! Merging old shards. A long run writes a shard every few seconds, and tens of thousands of
//! small files make listings slow. The window samples the newest positions whatever shards
//! hold them, so merging small shards into large ones changes nothing it draws; it only reads
//! each merged shard once. Only the newest shards stay small, so the store holds about one
//! file per merged shard's worth of positions, whatever the run's length.
//!
//! A merge is made safe against a kill at any moment by an intent file, written before the
//! merged shard and removed after the last source is deleted: [`Merger::recover`] finishes an
//! interrupted merge (the merged shard exists: delete what is left of its sources) or forgets
//! it (the merged shard never appeared: the sources are intact), so no game is lost or counted
//! twice once it has run.

use crate::{ReplayError, Shard, ShardName, ShardOrigin, ShardStore};
use std::io;
use std::path::PathBuf;

/// Groups of consecutive shards to merge, oldest first. Only shards older than the newest
/// `keep_positions` positions take part; runs of shards each under `target` positions are cut
/// into groups as soon as they reach `target`, and a run still short of it waits for more. A
/// shard of `target` positions or more (already merged) or of none ends a run.
pub fn plan_merges(names: &[ShardName], keep_positions: u64, target: u64) -> Vec<Vec<ShardName>> {
    let mut sorted = names.to_vec();
    sorted.sort_unstable();
    let mut newest = 0;
    while newest < keep_positions {
        match sorted.pop() {
            Some(name) => newest += name.positions,
            None => break,
        }
    }
    let mut groups = Vec::new();
    let mut group = Vec::new();
    let mut positions = 0;
    for name in sorted {
        if name.positions == 0 || name.positions >= target {
            group.clear();
            positions = 0;
            continue;
        }
        positions += name.positions;
        group.push(name);
        // Each member is under `target`, so a group that reaches it has at least two.
        if positions >= target {
            groups.push(std::mem::take(&mut group));
            positions = 0;
        }
    }
    groups
}

/// Merges shards of one run's store, with its intent file at `intent`.
pub struct Merger<'a, S> {
    store: &'a S,
    intent: PathBuf,
    origin: ShardOrigin,
}

impl<'a, S: ShardStore> Merger<'a, S> {
    /// A merger for the shards of `origin` in `store`; shards of other runs are left alone.
    pub fn new(store: &'a S, intent: impl Into<PathBuf>, origin: ShardOrigin) -> Self {
        Merger {
            store,
            intent: intent.into(),
            origin,
        }
    }

    /// Finishes or forgets a merge that a kill interrupted (see the module documentation).
    pub fn recover(&self) -> Result<(), ReplayError> {
        let Some((merged, sources)) = self.read_intent()? else {
            return Ok(());
        };
        if self.store.list()?.contains(&merged) {
            for source in &sources {
                self.store.delete(source)?;
            }
            tracing::info!(
                "finished an interrupted merge of {} shards into {merged}",
                sources.len()
            );
        }
        durable::remove(&self.intent).map_err(|source| self.intent_error("remove", source))
    }

    /// Merges the shards older than the newest `target` positions into shards of about
    /// `target` positions; returns how many files the store lost.
    pub fn merge_old(&self, target: u64) -> Result<usize, ReplayError> {
        let mut removed = 0;
        for group in plan_merges(&self.store.list()?, target, target) {
            if self.merge(&group)? {
                removed += group.len() - 1;
            }
        }
        Ok(removed)
    }

    /// Merges `group` into one shard named after its newest member (with the summed position
    /// count), so it sorts where the group stood. A group with a shard that cannot be read or
    /// belongs to another run is left as it is.
    fn merge(&self, group: &[ShardName]) -> Result<bool, ReplayError> {
        let mut shards = Vec::with_capacity(group.len());
        for name in group {
            match self.store.read_shard(name) {
                Ok(shard) if shard.header.origin() == self.origin => shards.push(shard),
                Ok(_) => return Ok(false),
                Err(error) => {
                    tracing::warn!("not merging an unreadable shard: {error}");
                    return Ok(false);
                }
            }
        }
        let Some(newest) = shards.last() else {
            return Ok(false);
        };
        let merged = Shard {
            header: newest.header.clone(),
            records: shards.into_iter().flat_map(|shard| shard.records).collect(),
        };
        let name = merged.name();
        self.write_intent(&name, group)?;
        self.store.write_shard(&merged)?;
        for source in group {
            self.store.delete(source)?;
        }
        durable::remove(&self.intent).map_err(|source| self.intent_error("remove", source))?;
        Ok(true)
    }

    /// The intent: `merged NAME`, then one `source NAME` line per source.
    fn write_intent(&self, merged: &ShardName, sources: &[ShardName]) -> Result<(), ReplayError> {
        let mut text = format!("merged {merged}\n");
        for source in sources {
            text.push_str(&format!("source {source}\n"));
        }
        durable::write(&self.intent, text.as_bytes())
            .map_err(|source| self.intent_error("write", source))
    }

    fn read_intent(&self) -> Result<Option<(ShardName, Vec<ShardName>)>, ReplayError> {
        let text = match std::fs::read_to_string(&self.intent) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(self.intent_error("read", error)),
        };
        let mut merged = None;
        let mut sources = Vec::new();
        for line in text.lines() {
            let parsed = match line.split_once(' ') {
                Some(("merged", name)) => ShardName::parse(name).map(|name| merged = Some(name)),
                Some(("source", name)) => ShardName::parse(name).map(|name| sources.push(name)),
                _ => None,
            };
            if parsed.is_none() {
                let reason = format!("not a merge intent line: {line:?}");
                return Err(self.intent_error("read", io::Error::other(reason)));
            }
        }
        match merged {
            Some(merged) => Ok(Some((merged, sources))),
            None => Err(self.intent_error("read", io::Error::other("no merged shard named"))),
        }
    }

    fn intent_error(&self, action: &'static str, source: io::Error) -> ReplayError {
        ReplayError::Io {
            file: self.intent.display().to_string(),
            action,
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LocalDirStore;
    use crate::test_support::{numbered_shard, test_origin};

    fn name(created: u64, positions: u64) -> ShardName {
        ShardName {
            created_unix_millis: created,
            worker: 0,
            seq: 0,
            positions,
        }
    }

    #[test]
    fn plans_runs_of_small_old_shards_up_to_the_target() {
        let names: Vec<_> = [
            (1, 40),
            (2, 40),
            (3, 40),
            (4, 500),
            (5, 60),
            (6, 50),
            (7, 10),
            (8, 90),
        ]
        .map(|(created, positions)| name(created, positions))
        .to_vec();
        // The newest 90 positions (shard 8) stay; shard 4 is large and ends a run; shards 5
        // and 6 reach 100; shard 7 waits.
        assert_eq!(
            plan_merges(&names, 90, 100),
            vec![vec![names[0], names[1], names[2]], vec![names[4], names[5]]]
        );
        assert!(
            plan_merges(&names, 10_000, 100).is_empty(),
            "all are recent"
        );
    }

    struct Fixture {
        dir: tempfile::TempDir,
        store: LocalDirStore,
    }

    impl Fixture {
        fn new(shards: u64) -> Fixture {
            let dir = tempfile::tempdir().unwrap();
            let store = LocalDirStore::open(dir.path().join("shards")).unwrap();
            for k in 0..shards {
                store
                    .write_shard(&numbered_shard(1_000 + k, (k * 10) as u32, 10))
                    .unwrap();
            }
            Fixture { dir, store }
        }

        fn merger(&self) -> Merger<'_, LocalDirStore> {
            Merger::new(&self.store, self.dir.path().join("merge"), test_origin())
        }

        /// Every action in the store, oldest shard first.
        fn actions(&self) -> Vec<u32> {
            let mut names = self.store.list().unwrap();
            names.sort_unstable();
            names
                .iter()
                .flat_map(|name| self.store.read_shard(name).unwrap().records)
                .flat_map(|record| record.moves.into_iter().map(|m| m.action))
                .collect()
        }
    }

    #[test]
    fn merging_keeps_every_game_in_order_and_the_newest_shards_apart() {
        let fixture = Fixture::new(12);
        let before = fixture.actions();
        // Shards of 10 positions: the newest 5 stay small, the oldest 5 become one, and the 2
        // between them wait for more.
        let removed = fixture.merger().merge_old(50).unwrap();
        assert_eq!(removed, 4, "five old shards became one");
        assert_eq!(fixture.store.list().unwrap().len(), 8);
        assert_eq!(fixture.actions(), before);
        assert!(!fixture.dir.path().join("merge").exists());
    }

    #[test]
    fn a_merge_killed_after_the_merged_shard_is_finished_on_recovery() {
        let fixture = Fixture::new(3);
        let before = fixture.actions();
        let mut sources = fixture.store.list().unwrap();
        sources.sort_unstable();
        let shards: Vec<Shard> = sources
            .iter()
            .map(|name| fixture.store.read_shard(name).unwrap())
            .collect();
        let merged = Shard {
            header: shards[2].header.clone(),
            records: shards.into_iter().flat_map(|s| s.records).collect(),
        };
        let merger = fixture.merger();
        // Killed after the merged shard and one deletion.
        merger.write_intent(&merged.name(), &sources).unwrap();
        fixture.store.write_shard(&merged).unwrap();
        fixture.store.delete(&sources[0]).unwrap();
        merger.recover().unwrap();
        assert_eq!(fixture.store.list().unwrap(), vec![merged.name()]);
        assert_eq!(fixture.actions(), before);
        assert!(!fixture.dir.path().join("merge").exists());
    }

    #[test]
    fn a_merge_killed_before_the_merged_shard_leaves_the_sources() {
        let fixture = Fixture::new(3);
        let before = fixture.actions();
        let sources = fixture.store.list().unwrap();
        let merger = fixture.merger();
        merger.write_intent(&name(9_999, 30), &sources).unwrap();
        merger.recover().unwrap();
        assert_eq!(fixture.actions(), before);
        assert!(!fixture.dir.path().join("merge").exists());
    }

    #[test]
    fn a_garbled_intent_is_an_error_naming_the_file() {
        let fixture = Fixture::new(1);
        std::fs::write(fixture.dir.path().join("merge"), "merged nonsense\n").unwrap();
        let error = fixture.merger().recover().unwrap_err().to_string();
        assert!(
            error.contains("merge: cannot read: not a merge intent line"),
            "{error}"
        );
    }
}
