//! An index over one loaded shard, so that sampling finds a position without scanning games.

use crate::Shard;

/// A shard with its positions numbered in order (game by game, move by move; later games are
/// treated as newer).
pub(crate) struct IndexedShard {
    shard: Shard,
    /// The number of the first position of each game.
    game_starts: Vec<usize>,
    /// The numbers of the positions searched in full, ascending: those with a policy target.
    full_searches: Vec<usize>,
}

impl IndexedShard {
    pub(crate) fn new(shard: Shard) -> Self {
        let mut game_starts = Vec::with_capacity(shard.records.len());
        let mut full_searches = Vec::new();
        let mut next = 0;
        for record in &shard.records {
            game_starts.push(next);
            for mv in &record.moves {
                if mv.full_search && !mv.chance {
                    full_searches.push(next);
                }
                next += 1;
            }
        }
        Self {
            shard,
            game_starts,
            full_searches,
        }
    }

    pub(crate) fn shard(&self) -> &Shard {
        &self.shard
    }

    pub(crate) fn full_searches(&self) -> &[usize] {
        &self.full_searches
    }

    /// The game and move index of position `number`, which must be below the position count.
    pub(crate) fn locate(&self, number: usize) -> (usize, usize) {
        let game = self.game_starts.partition_point(|&start| start <= number) - 1;
        (game, number - self.game_starts[game])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{GAME_LEN, numbered_shard};

    #[test]
    fn locates_every_position_and_lists_full_searches() {
        let index = IndexedShard::new(numbered_shard(0, 0, 3 * GAME_LEN - 2));
        let mut number = 0;
        for (game, record) in index.shard().records.iter().enumerate() {
            for (move_index, mv) in record.moves.iter().enumerate() {
                assert_eq!(index.locate(number), (game, move_index));
                assert_eq!(mv.action as usize, number);
                number += 1;
            }
        }
        assert_eq!(number, 3 * GAME_LEN as usize - 2);
        let even: Vec<usize> = (0..number).step_by(2).collect();
        assert_eq!(index.full_searches(), even);
    }

    #[test]
    fn empty_games_take_no_positions() {
        let mut shard = numbered_shard(0, 0, 2 * GAME_LEN);
        let mut empty = shard.records[0].clone();
        empty.moves.clear();
        shard.records.insert(1, empty);
        let index = IndexedShard::new(shard);
        assert_eq!(index.locate(GAME_LEN as usize), (2, 0));
        assert_eq!(
            index.locate(GAME_LEN as usize - 1),
            (0, GAME_LEN as usize - 1)
        );
    }
}
