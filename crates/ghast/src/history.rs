//! Positions seen at turn ends, for the repetition rule.

/// Keys of the positions that stood at the start and after each turn, plus a 1024-bit filter
/// of key bits so that a position never seen before is recognised without scanning.
#[derive(Debug, Default)]
pub(crate) struct History {
    keys: Vec<u64>,
    filter: [u64; 16],
}

impl Clone for History {
    /// Keeps the full capacity, which a derived clone would drop, so that a cloned game still
    /// never allocates while it is played.
    fn clone(&self) -> Self {
        let mut keys = Vec::with_capacity(self.keys.capacity());
        keys.extend_from_slice(&self.keys);
        History {
            keys,
            filter: self.filter,
        }
    }

    /// Reuses this history's buffer, growing it to the source's capacity at most once, so
    /// that search, which copies the root game into the same scratch game on every descent,
    /// does not allocate.
    fn clone_from(&mut self, source: &Self) {
        self.keys.clear();
        self.keys.reserve(source.keys.capacity());
        self.keys.extend_from_slice(&source.keys);
        self.filter = source.filter;
    }
}

impl History {
    /// Room for `turns` turns after the start position.
    pub fn new(start: u64, turns: usize) -> Self {
        let mut history = History {
            keys: Vec::with_capacity(turns + 1),
            filter: [0; 16],
        };
        history.record(start);
        history
    }

    /// Records `key` and returns how many times it has now occurred, this time included.
    #[inline]
    pub fn record(&mut self, key: u64) -> usize {
        let bit = (key >> 54) as usize;
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        let seen = if self.filter[word] & mask != 0 {
            self.keys.iter().filter(|&&k| k == key).count()
        } else {
            self.filter[word] |= mask;
            0
        };
        self.keys.push(key);
        seen + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_occurrences_including_the_start() {
        let mut history = History::new(7, 4);
        assert_eq!(history.record(9), 1);
        assert_eq!(history.record(7), 2);
        assert_eq!(history.record(9 | 1 << 60), 1);
        assert_eq!(history.record(7), 3);
    }

    #[test]
    fn clone_from_keeps_the_buffer_and_the_capacity() {
        let mut source = History::new(7, 40);
        source.record(9);
        let mut copy = History::new(1, 100);
        let buffer = copy.keys.as_ptr();
        copy.clone_from(&source);
        assert_eq!(copy.keys, source.keys);
        assert_eq!(copy.filter, source.filter);
        assert_eq!(copy.keys.as_ptr(), buffer);
        let mut small = History::new(1, 0);
        small.clone_from(&source);
        assert!(small.keys.capacity() >= source.keys.capacity());
        assert_eq!(small.record(9), 2);
    }
}
