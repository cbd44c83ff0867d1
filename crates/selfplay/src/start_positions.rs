//! Positions self-play games may start from, taken from records (KataGo's
//! `startPosesFromSgfDir`, Lc0's opening books): what a small run cannot reach by itself (a
//! lost game's middle, a human opening) it then plays from.

use rand::Rng;

/// The records' openings: each a game's actions from the start of the game, and the share of
/// games that start from one.
#[derive(Clone, Debug, Default)]
pub struct StartPositions {
    records: Vec<Vec<usize>>,
    share: f64,
}

impl StartPositions {
    /// Records (each a game's actions from its start) that games start from with probability
    /// `share`. A record of fewer than two actions has no position inside it and is left out.
    pub fn new(records: Vec<Vec<usize>>, share: f64) -> Self {
        StartPositions {
            records: records.into_iter().filter(|r| r.len() >= 2).collect(),
            share,
        }
    }

    /// How many records games may start from.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// With probability `share`, a start: a record drawn uniformly, cut after a number of its
    /// actions drawn uniformly from 1 to all but its last (a record's last action ends it).
    pub(crate) fn draw(&self, rng: &mut impl Rng) -> Option<&[usize]> {
        if self.records.is_empty() || !rng.random_bool(self.share.clamp(0.0, 1.0)) {
            return None;
        }
        let record = &self.records[rng.random_range(..self.records.len())];
        Some(&record[..rng.random_range(1..record.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn draws_cut_records_at_the_share_asked() {
        let starts = StartPositions::new(vec![vec![1], vec![1, 2, 3], vec![4, 5]], 0.5);
        assert_eq!(starts.len(), 2, "a one-action record has no inner position");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut drawn = 0;
        for _ in 0..2000 {
            if let Some(start) = starts.draw(&mut rng) {
                drawn += 1;
                assert!(
                    [&[1][..], &[1, 2], &[4]].contains(&start),
                    "a proper prefix: {start:?}"
                );
            }
        }
        assert!((850..1150).contains(&drawn), "about half: {drawn}");
        let never = StartPositions::new(vec![vec![1, 2]], 0.0);
        assert!((0..100).all(|_| never.draw(&mut rng).is_none()));
        let empty = StartPositions::new(Vec::new(), 1.0);
        assert!(empty.draw(&mut rng).is_none());
    }
}
