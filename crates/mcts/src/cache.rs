//! KataGo's NN cache: evaluations remembered by position hash, so a position reached again
//! (a transposition, a position another game in flight also reached, the root after a move)
//! costs a table lookup instead of a network evaluation.

use crate::batch::recycle;
use game::Game;
use game::{DeviceError, Evaluation, Evaluator, PipelinedEvaluator};
use std::collections::VecDeque;

/// An [`Evaluator`] that answers repeated positions from a fixed-size table and sends only
/// the others to the evaluator it wraps.
///
/// The table is direct-mapped by [`Game::hash`] (which covers everything a network reads: for
/// Ghast the board, side to move, turn, passes and pending veto), a newer entry replacing an
/// older one in its slot. Policies are stored densely, as many floats an entry as the widest
/// policy seen, so memory is `entries x num_actions x 4` bytes, allocated at the first call
/// (and again, emptied, when a wider one comes: a run that mixes board sizes). An entry is
/// keyed by the hash and the action count together, so a position of one board size never
/// answers for another's; ownership, where
/// it is asked for ([`Evaluator::want_ownership`]), a cell's float more an entry, allocated at
/// the first evaluation that has it. While ownership is asked for, an entry without it is a
/// miss.
#[derive(Debug)]
pub struct CachedEvaluator<E> {
    inner: E,
    entries: usize,
    /// Hash of each slot's position; [`EMPTY`] for a free slot.
    keys: Vec<u64>,
    values: Vec<f32>,
    leads: Vec<f32>,
    policies: Vec<f32>,
    /// Floats per entry in `policies`: the widest policy seen.
    stride: usize,
    /// Each slot's action count (its policy's length).
    actions: Vec<u32>,
    /// Whether evaluations must carry ownership, and each slot's ownership where it has one.
    ownership_wanted: bool,
    has_ownership: Vec<bool>,
    ownerships: Vec<f32>,
    cells: usize,
    misses: Vec<usize>,
    miss_out: Vec<Evaluation>,
    positions: Vec<&'static ()>,
    stats: CacheStats,
    /// Batches submitted through [`PipelinedEvaluator`] and not yet received, oldest first.
    in_flight: VecDeque<InFlight>,
    spare_in_flight: Vec<InFlight>,
}

/// Lookups and hits since the cache was made or its statistics were taken.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub lookups: u64,
    pub hits: u64,
}

impl CacheStats {
    pub fn hit_rate(&self) -> f64 {
        self.hits as f64 / self.lookups.max(1) as f64
    }
}

/// Marks a free slot; a real hash equal to it is stored as [`EMPTY_STAND_IN`].
const EMPTY: u64 = 0;
const EMPTY_STAND_IN: u64 = 1;

impl<E> CachedEvaluator<E> {
    /// A cache of `entries` positions (rounded up to a power of two) in front of `inner`.
    pub fn new(inner: E, entries: usize) -> Self {
        Self {
            inner,
            entries: entries.max(1).next_power_of_two(),
            keys: Vec::new(),
            values: Vec::new(),
            leads: Vec::new(),
            policies: Vec::new(),
            stride: 0,
            actions: Vec::new(),
            ownership_wanted: false,
            has_ownership: Vec::new(),
            ownerships: Vec::new(),
            cells: 0,
            misses: Vec::new(),
            miss_out: Vec::new(),
            positions: Vec::new(),
            stats: CacheStats::default(),
            in_flight: VecDeque::new(),
            spare_in_flight: Vec::new(),
        }
    }

    /// Swaps in a new evaluator (a new network generation) and forgets every entry, keeping
    /// the table's memory. No batch may be in flight.
    pub fn replace_inner(&mut self, inner: E) {
        assert!(
            self.in_flight.is_empty(),
            "a batch in flight would be received from the new evaluator"
        );
        self.inner = inner;
        self.clear();
    }

    /// Forgets every entry, keeping the table's memory (KataGo's `clear_cache`).
    pub fn clear(&mut self) {
        self.keys.fill(EMPTY);
    }

    pub fn inner(&self) -> &E {
        &self.inner
    }

    /// Returns the statistics gathered since the last call and starts counting afresh.
    pub fn take_stats(&mut self) -> CacheStats {
        std::mem::take(&mut self.stats)
    }

    fn allocate(&mut self, stride: usize) {
        self.stride = stride;
        self.keys = vec![EMPTY; self.entries];
        self.values = vec![0.0; self.entries];
        self.leads = vec![0.0; self.entries];
        self.policies = vec![0.0; self.entries * stride];
        self.actions = vec![0; self.entries];
    }
}

/// The slot of `key` in a table of `entries` (a power of two) slots. Fibonacci hashing
/// spreads hashes that are not uniform (small counters, a toy game's) as well as Zobrist keys.
fn slot(key: u64, entries: usize) -> usize {
    let bits = entries.trailing_zeros();
    if bits == 0 {
        return 0;
    }
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

fn stored_key(hash: u64) -> u64 {
    if hash == EMPTY { EMPTY_STAND_IN } else { hash }
}

/// A position's key in the table and its action count: its hash, mixed with the action count
/// so that positions of two board sizes with one hash (the empty boards) take two slots.
fn key_of<G: Game>(position: &G) -> (u64, usize) {
    let actions = position.num_actions();
    let mixed = position.hash() ^ (actions as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (stored_key(mixed), actions)
}

impl<E> CachedEvaluator<E> {
    /// Looks every position up, handing each hit to `hit` with its index and its slot, and
    /// leaves the indices of the misses in `misses`.
    fn look_up<G: Game>(
        &mut self,
        positions: &[&G],
        misses: &mut Vec<usize>,
        mut hit: impl FnMut(&Self, usize, usize),
    ) {
        misses.clear();
        let Some(widest) = positions
            .iter()
            .map(|position| position.num_actions())
            .max()
        else {
            return;
        };
        if widest > self.stride {
            self.allocate(widest);
        }
        for (index, position) in positions.iter().enumerate() {
            let (key, actions) = key_of(*position);
            let slot = slot(key, self.entries);
            if self.keys[slot] == key
                && self.actions[slot] as usize == actions
                && (!self.ownership_wanted || self.has_ownership[slot])
            {
                hit(self, index, slot);
            } else {
                misses.push(index);
            }
        }
        self.stats.lookups += positions.len() as u64;
        self.stats.hits += (positions.len() - misses.len()) as u64;
    }

    /// Writes the entry in `slot` into `evaluation`.
    fn read(&self, slot: usize, evaluation: &mut Evaluation) {
        let n = self.actions[slot] as usize;
        evaluation.policy.clear();
        evaluation
            .policy
            .extend_from_slice(&self.policies[slot * self.stride..][..n]);
        evaluation.value = self.values[slot];
        evaluation.lead = self.leads[slot];
        evaluation.ownership.clear();
        if self.ownership_wanted {
            evaluation
                .ownership
                .extend_from_slice(&self.ownerships[slot * self.cells..][..self.cells]);
        }
    }

    /// The positions at `misses`, in the buffer kept for them (hand it back with
    /// [`recycle`] into `self.positions`).
    fn missed<'p, G>(&mut self, positions: &[&'p G], misses: &[usize]) -> Vec<&'p G> {
        let mut missed = recycle(std::mem::take(&mut self.positions));
        missed.extend(misses.iter().map(|&index| positions[index]));
        missed
    }

    /// Has `evaluate` write the evaluations of the positions at `misses` (of a batch whose
    /// position `i` has the key and action count `key(i)`), remembers each, and moves it into
    /// `out`.
    fn answer_misses(
        &mut self,
        misses: &[usize],
        key: impl Fn(usize) -> (u64, usize),
        out: &mut [Evaluation],
        evaluate: impl FnOnce(&mut E, &mut [Evaluation]) -> Result<(), DeviceError>,
    ) -> Result<(), DeviceError> {
        if self.miss_out.len() < misses.len() {
            self.miss_out.resize_with(misses.len(), Evaluation::default);
        }
        let mut miss_out = std::mem::take(&mut self.miss_out);
        evaluate(&mut self.inner, &mut miss_out[..misses.len()])?;
        for (evaluation, &index) in miss_out.iter_mut().zip(misses) {
            self.store(key(index), evaluation);
            std::mem::swap(&mut out[index], evaluation);
        }
        self.miss_out = miss_out;
        Ok(())
    }

    /// Remembers `evaluation` for the position whose key and action count are `key`.
    fn store(&mut self, (key, n): (u64, usize), evaluation: &Evaluation) {
        let slot = slot(key, self.entries);
        self.keys[slot] = key;
        self.actions[slot] = n as u32;
        self.values[slot] = evaluation.value;
        self.leads[slot] = evaluation.lead;
        let stored = &mut self.policies[slot * self.stride..][..n];
        stored.fill(0.0);
        let len = evaluation.policy.len().min(n);
        stored[..len].copy_from_slice(&evaluation.policy[..len]);
        let cells = evaluation.ownership.len();
        if cells > 0 {
            if cells != self.cells {
                self.cells = cells;
                self.ownerships = vec![0.0; self.entries * cells];
                self.has_ownership = vec![false; self.entries];
            }
            self.ownerships[slot * cells..][..cells].copy_from_slice(&evaluation.ownership);
            self.has_ownership[slot] = true;
        } else if let Some(has) = self.has_ownership.get_mut(slot) {
            *has = false;
        }
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for CachedEvaluator<E> {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        let mut misses = std::mem::take(&mut self.misses);
        self.look_up(positions, &mut misses, |cache, index, slot| {
            cache.read(slot, &mut out[index]);
        });
        if !misses.is_empty() {
            let missed = self.missed(positions, &misses);
            let key = |index: usize| key_of(positions[index]);
            self.answer_misses(&misses, key, out, |inner, answers| {
                inner.evaluate(&missed, answers)
            })?;
            self.positions = recycle(missed);
        }
        self.misses = misses;
        Ok(())
    }

    fn want_ownership(&mut self, wanted: bool) -> bool {
        let predicts = self.inner.want_ownership(wanted);
        self.ownership_wanted = wanted && predicts;
        if self.ownership_wanted && self.has_ownership.len() != self.entries {
            // No entry has ownership yet.
            self.has_ownership = vec![false; self.entries];
        }
        predicts
    }
}

/// A batch the cache has looked up and whose misses are in flight in the evaluator it wraps.
#[derive(Debug, Default)]
struct InFlight {
    /// Each position's key and action count, to store its evaluation under.
    keys: Vec<(u64, usize)>,
    /// Indices of the positions sent on.
    misses: Vec<usize>,
    /// The answers to the hits, read when the batch was looked up (a later batch may
    /// overwrite their slots before this one is received).
    answers: Vec<Evaluation>,
}

impl<G: Game, E: PipelinedEvaluator<G>> PipelinedEvaluator<G> for CachedEvaluator<E> {
    fn submit(&mut self, positions: &[&G]) -> Result<(), DeviceError> {
        let mut batch = self.spare_in_flight.pop().unwrap_or_default();
        batch.keys.clear();
        batch
            .keys
            .extend(positions.iter().map(|position| key_of(*position)));
        batch
            .answers
            .resize_with(positions.len(), Evaluation::default);
        let InFlight {
            misses, answers, ..
        } = &mut batch;
        self.look_up(positions, misses, |cache, index, slot| {
            cache.read(slot, &mut answers[index]);
        });
        if !batch.misses.is_empty() {
            let missed = self.missed(positions, &batch.misses);
            self.inner.submit(&missed)?;
            self.positions = recycle(missed);
        }
        self.in_flight.push_back(batch);
        Ok(())
    }

    fn receive(&mut self, out: &mut [Evaluation]) -> Result<(), DeviceError> {
        let mut batch = self
            .in_flight
            .pop_front()
            .expect("receive follows a submit");
        assert_eq!(
            batch.answers.len(),
            out.len(),
            "one evaluation per position"
        );
        for (out, answer) in out.iter_mut().zip(&mut batch.answers) {
            std::mem::swap(out, answer);
        }
        if !batch.misses.is_empty() {
            let key = |index: usize| batch.keys[index];
            self.answer_misses(&batch.misses, key, out, |inner, answers| {
                inner.receive(answers)
            })?;
        }
        self.spare_in_flight.push(batch);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::Nim;

    /// Counts the positions it is asked about and answers with the position's hash folded
    /// into the value, so a wrong cache answer shows.
    #[derive(Default)]
    struct Counting {
        asked: usize,
    }

    impl Evaluator<Nim> for Counting {
        fn evaluate(
            &mut self,
            positions: &[&Nim],
            out: &mut [Evaluation],
        ) -> Result<(), DeviceError> {
            self.asked += positions.len();
            for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
                evaluation.policy = vec![0.5; position.num_actions()];
                evaluation.value = (position.hash() % 1000) as f32 / 1000.0;
                evaluation.lead = (position.hash() % 7) as f32;
            }
            Ok(())
        }
    }

    fn evaluate(cache: &mut CachedEvaluator<Counting>, positions: &[Nim]) -> Vec<Evaluation> {
        let refs: Vec<&Nim> = positions.iter().collect();
        let mut out = vec![Evaluation::default(); positions.len()];
        cache.evaluate(&refs, &mut out).unwrap();
        out
    }

    fn positions() -> Vec<Nim> {
        let start = Nim::start(10, 3, None);
        let mut legal = Vec::new();
        start.legal_actions(&mut legal);
        legal
            .iter()
            .map(|&action| {
                let mut next = start.clone();
                next.apply(action);
                next
            })
            .collect()
    }

    #[test]
    fn a_repeated_position_is_answered_from_the_table_with_the_same_evaluation() {
        let positions = positions();
        assert!(positions.len() >= 2);
        let mut cache = CachedEvaluator::new(Counting::default(), 1 << 10);
        let first = evaluate(&mut cache, &positions);
        assert_eq!(cache.inner().asked, positions.len());
        let second = evaluate(&mut cache, &positions);
        assert_eq!(cache.inner().asked, positions.len(), "all hits");
        assert_eq!(first, second);
        let stats = cache.take_stats();
        assert_eq!(stats.lookups, 2 * positions.len() as u64);
        assert_eq!(stats.hits, positions.len() as u64);
        assert_eq!(cache.take_stats(), CacheStats::default());
    }

    /// A run that mixes board sizes: two positions with one hash and different action counts
    /// (Nim taking up to 3 or up to 5 stones) are two entries, each answered with its own
    /// policy, in one batch and from the table.
    #[test]
    fn positions_of_two_action_counts_with_one_hash_are_kept_apart() {
        let (narrow, wide) = (Nim::start(10, 3, None), Nim::start(10, 5, None));
        assert_eq!(narrow.hash(), wide.hash());
        let mut cache = CachedEvaluator::new(Counting::default(), 1 << 10);
        let both = [narrow, wide];
        let first = evaluate(&mut cache, &both);
        assert_eq!(
            (first[0].policy.len(), first[1].policy.len()),
            (3, 5),
            "each its own policy"
        );
        let again = evaluate(&mut cache, &both);
        assert_eq!(cache.inner().asked, 2, "the second batch is all hits");
        assert_eq!(first, again);
    }

    #[test]
    fn a_new_evaluator_starts_with_an_empty_table() {
        let positions = positions();
        let mut cache = CachedEvaluator::new(Counting::default(), 1 << 10);
        evaluate(&mut cache, &positions);
        cache.replace_inner(Counting::default());
        evaluate(&mut cache, &positions);
        assert_eq!(cache.inner().asked, positions.len());
    }

    #[test]
    fn a_one_entry_table_keeps_the_newest_position_only() {
        let positions = positions();
        let mut cache = CachedEvaluator::new(Counting::default(), 1);
        let answers = evaluate(&mut cache, &positions[..2]);
        let again = evaluate(&mut cache, &positions[1..2]);
        assert_eq!(cache.inner().asked, 2);
        assert_eq!(again[0], answers[1]);
        evaluate(&mut cache, &positions[..1]);
        assert_eq!(cache.inner().asked, 3);
    }
}
