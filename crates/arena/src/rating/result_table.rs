//! Pairwise results among many players: the input to the Bradley-Terry fit.

use std::collections::{BTreeMap, HashMap};

use super::outcomes::Wdl;

/// Accumulated W/D/L for every pair of players that has met, keyed by player index.
#[derive(Debug, Clone, Default)]
pub struct ResultTable {
    names: Vec<String>,
    index: HashMap<String, usize>,
    /// Keyed by `(i, j)` with `i < j`; results from `i`'s point of view.
    pairs: BTreeMap<(usize, usize), Wdl>,
}

impl ResultTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// Index of `name`, adding it if new (a baseline can be listed before it has played).
    pub fn add_player(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// Adds `wdl`, seen from `player`'s side, to the results between the two.
    pub fn record(&mut self, player: &str, opponent: &str, wdl: Wdl) {
        assert_ne!(player, opponent, "a player cannot be rated against itself");
        let (i, j) = (self.add_player(player), self.add_player(opponent));
        let (key, oriented) = if i < j {
            ((i, j), wdl)
        } else {
            ((j, i), wdl.reversed())
        };
        *self.pairs.entry(key).or_default() += oriented;
    }

    pub fn players(&self) -> &[String] {
        &self.names
    }

    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Every pairing as `(i, j, results from i's side)` with `i < j`.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize, Wdl)> + '_ {
        self.pairs.iter().map(|(&(i, j), &wdl)| (i, j, wdl))
    }

    /// Games played by each player, in player order.
    pub fn games_per_player(&self) -> Vec<u32> {
        let mut games = vec![0; self.names.len()];
        for (i, j, wdl) in self.pairs() {
            games[i] += wdl.games();
            games[j] += wdl.games();
        }
        games
    }

    /// The same pairings with each pair's results replaced by `resample(results)`.
    pub(crate) fn map_results(&self, mut resample: impl FnMut(Wdl) -> Wdl) -> Self {
        Self {
            names: self.names.clone(),
            index: self.index.clone(),
            pairs: self
                .pairs
                .iter()
                .map(|(&key, &wdl)| (key, resample(wdl)))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_accumulate_from_either_side() {
        let mut table = ResultTable::new();
        table.record("a", "b", Wdl::new(3, 1, 0));
        table.record("b", "a", Wdl::new(2, 0, 1));
        // From a's side: 3 W 1 D 0 L plus (b's 2 W 0 D 1 L reversed) 1 W 0 D 2 L.
        assert_eq!(
            table.pairs().collect::<Vec<_>>(),
            [(0, 1, Wdl::new(4, 1, 2))]
        );
        assert_eq!(table.games_per_player(), [7, 7]);
    }

    #[test]
    fn players_keep_insertion_order() {
        let mut table = ResultTable::new();
        table.add_player("random");
        table.record("gen-2", "gen-1", Wdl::new(1, 0, 0));
        assert_eq!(table.players(), ["random", "gen-2", "gen-1"]);
        assert_eq!(table.player_index("gen-1"), Some(2));
        assert_eq!(table.games_per_player(), [0, 1, 1]);
    }
}
