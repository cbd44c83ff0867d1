//! The sliding window the trainer samples from: the newest positions of the store.

use crate::shard_index::IndexedShard;
use crate::{
    GameRecord, MoveRecord, ReplayError, Shard, ShardHeader, ShardName, ShardOrigin, ShardStore,
    WindowConfig,
};
use rand::Rng;
use std::collections::{HashMap, HashSet};

/// Which positions a sample may land on.
///
/// The window's size always counts every position, so it spans the same stretch of
/// self-play whatever the playout cap; `PolicyTarget` then draws uniformly among the full
/// searches inside it. KataGo trains on full searches only (`PolicyTarget`); `Any` lets a
/// trainer also use the cheap searches for the value target and mask their policy loss.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Targets {
    Any,
    PolicyTarget,
}

/// One sampled position: the state before `record.moves[move_index]` was played.
#[derive(Copy, Clone, Debug)]
pub struct Position<'a> {
    /// The header of the shard, which names the game and its options.
    pub header: &'a ShardHeader,
    pub record: &'a GameRecord,
    pub move_index: usize,
}

impl Position<'_> {
    /// The move played from this position, with its search targets.
    pub fn played(&self) -> &MoveRecord {
        &self.record.moves[self.move_index]
    }
}

/// A shard in the window, of which only the positions from `first` on are inside it.
struct Span {
    name: ShardName,
    shard: IndexedShard,
    first: usize,
    /// Where the full searches from `first` on start in the shard's list of full searches.
    first_full: usize,
}

impl Span {
    fn new(name: ShardName, shard: IndexedShard, first: usize) -> Self {
        let first_full = shard
            .full_searches()
            .partition_point(|&number| number < first);
        Self {
            name,
            shard,
            first,
            first_full,
        }
    }

    fn len(&self, targets: Targets) -> u64 {
        let len = match targets {
            Targets::Any => self.name.positions as usize - self.first,
            Targets::PolicyTarget => self.shard.full_searches().len() - self.first_full,
        };
        len as u64
    }

    /// The `offset`-th position of this span that `targets` allows.
    fn position(&self, targets: Targets, offset: usize) -> Position<'_> {
        let number = match targets {
            Targets::Any => self.first + offset,
            Targets::PolicyTarget => self.shard.full_searches()[self.first_full + offset],
        };
        let (game, move_index) = self.shard.locate(number);
        let shard = self.shard.shard();
        Position {
            header: &shard.header,
            record: &shard.records[game],
            move_index,
        }
    }
}

/// The newest positions of a store, sized by [`WindowConfig`], kept in memory for uniform
/// sampling.
///
/// [`Window::refresh`] re-lists the store: it loads shards that entered the window, keeps
/// those still in it without reading them again and drops the rest. The oldest shard in the
/// window is usually cut: only its newest positions count, so a position never comes back
/// once newer data has pushed it out. A shard that cannot be read is skipped with a warning
/// and never retried (shards are immutable), and older shards fill its place: one bad file
/// must not stop training. A shard of another game, or of options none of the run's, counts
/// as unreadable.
pub struct Window<S> {
    store: S,
    config: WindowConfig,
    /// The games and options the run plays (one, or several board sizes of a mix); every
    /// position sampled says which through its [`ShardHeader`].
    origins: Vec<ShardOrigin>,
    spans: Vec<Span>,
    /// Per target, the running total of allowed positions over `spans`.
    ends_any: Vec<u64>,
    ends_policy: Vec<u64>,
    rejected: HashSet<ShardName>,
    total_positions: u64,
}

impl<S: ShardStore> Window<S> {
    /// An empty window over the shards of `origins` in `store`; call [`Window::refresh`] to
    /// fill it.
    pub fn new(store: S, config: WindowConfig, origins: Vec<ShardOrigin>) -> Self {
        Self {
            store,
            config,
            origins,
            spans: Vec::new(),
            ends_any: Vec::new(),
            ends_policy: Vec::new(),
            rejected: HashSet::new(),
            total_positions: 0,
        }
    }

    /// Re-lists the store and moves the window to its newest positions. Fails only when the
    /// store cannot be listed; unreadable shards are skipped.
    pub fn refresh(&mut self) -> Result<(), ReplayError> {
        let mut names = self.store.list()?;
        names.sort_unstable_by(|a, b| b.cmp(a));
        self.total_positions = names.iter().map(|name| name.positions).sum();
        let mut remaining = self.config.size(self.total_positions);
        let mut kept: HashMap<ShardName, IndexedShard> = self
            .spans
            .drain(..)
            .map(|span| (span.name, span.shard))
            .collect();
        for name in names {
            if remaining == 0 {
                break;
            }
            if name.positions == 0 || self.rejected.contains(&name) {
                continue;
            }
            let shard = match kept.remove(&name) {
                Some(shard) => shard,
                None => match self.read_own_shard(&name) {
                    Ok(shard) => IndexedShard::new(shard),
                    Err(err) => {
                        tracing::warn!("skipping replay shard: {err}");
                        self.rejected.insert(name);
                        continue;
                    }
                },
            };
            let taken = remaining.min(name.positions);
            remaining -= taken;
            let first = (name.positions - taken) as usize;
            self.spans.push(Span::new(name, shard, first));
        }
        self.ends_any = running_totals(&self.spans, Targets::Any);
        self.ends_policy = running_totals(&self.spans, Targets::PolicyTarget);
        Ok(())
    }

    /// Reads a shard, refusing one that another run's game or options wrote.
    fn read_own_shard(&self, name: &ShardName) -> Result<Shard, ReplayError> {
        let shard = self.store.read_shard(name)?;
        let origin = shard.header.origin();
        if !self.origins.contains(&origin) {
            let expected: Vec<String> = self.origins.iter().map(ToString::to_string).collect();
            return Err(ReplayError::Foreign {
                file: self.store.locate(name),
                found: origin.to_string(),
                expected: expected.join(" or "),
            });
        }
        Ok(shard)
    }

    /// The number of positions ever written to the store (as of the last refresh): the `N`
    /// the window size grows with. The trainer can also use its growth to cap training
    /// samples per new position.
    pub fn total_positions(&self) -> u64 {
        self.total_positions
    }

    /// How many positions of the window `targets` allows.
    pub fn len(&self, targets: Targets) -> u64 {
        self.ends(targets).last().copied().unwrap_or(0)
    }

    pub fn is_empty(&self, targets: Targets) -> bool {
        self.len(targets) == 0
    }

    /// A position drawn uniformly from those of the window that `targets` allows; `None`
    /// when there are none.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R, targets: Targets) -> Option<Position<'_>> {
        let ends = self.ends(targets);
        let len = self.len(targets);
        if len == 0 {
            return None;
        }
        let pick = rng.random_range(0..len);
        let span = ends.partition_point(|&end| end <= pick);
        let before = span.checked_sub(1).map_or(0, |previous| ends[previous]);
        Some(self.spans[span].position(targets, (pick - before) as usize))
    }

    /// The games with a position in the window, newest shard first, each with its shard's
    /// header: what a reanalyse thread chooses from.
    pub fn games(&self) -> impl Iterator<Item = (&ShardHeader, &GameRecord)> {
        self.spans.iter().flat_map(|span| {
            let shard = span.shard.shard();
            let first_game = if span.first < span.name.positions as usize {
                span.shard.locate(span.first).0
            } else {
                shard.records.len()
            };
            shard.records[first_game..]
                .iter()
                .map(move |record| (&shard.header, record))
        })
    }

    fn ends(&self, targets: Targets) -> &[u64] {
        match targets {
            Targets::Any => &self.ends_any,
            Targets::PolicyTarget => &self.ends_policy,
        }
    }
}

fn running_totals(spans: &[Span], targets: Targets) -> Vec<u64> {
    spans
        .iter()
        .scan(0, |total, span| {
            *total += span.len(targets);
            Some(*total)
        })
        .collect()
}

#[cfg(test)]
mod tests;
