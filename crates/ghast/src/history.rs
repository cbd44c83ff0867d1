//! Positions seen at turn ends, for the repetition rule.

/// Keys of the positions that stood at the start and after each turn, plus a 1024-bit filter
/// of key bits so that a position never seen before is recognised without scanning.
#[derive(Debug)]
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
}
