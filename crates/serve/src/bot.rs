//! The bot: PUCT search over any evaluator.
//!
//! `play::Bot` does the same for a bundle's network only; this one is generic so that the API
//! is tested with `mcts::UniformEvaluator`, without a checkpoint.

use ghast::Ghast;
use mcts::{ChildStats, Evaluator, Search, SearchConfig, SearchResult};

/// A search that keeps its tree between calls, so analysing a position and then asking the
/// bot to move there reuses the visits already spent.
#[derive(Debug)]
pub struct Bot<E> {
    evaluator: E,
    search: Search<Ghast>,
}

/// The seed of the search's tie breaks: a fixed one makes the bot repeatable.
const SEED: u64 = 7;

impl<E: Evaluator<Ghast>> Bot<E> {
    /// A bot searching with `config` (a bundle's, or [`SearchConfig::play`]).
    pub fn new(evaluator: E, config: SearchConfig) -> Self {
        Bot {
            evaluator,
            search: Search::new(config, SEED),
        }
    }

    /// Searches `game` (not over) with `visits` (at least 1) and returns the result and the
    /// statistics of every legal move at the root.
    pub fn search(&mut self, game: &Ghast, visits: u32) -> (SearchResult, Vec<ChildStats>) {
        let result = self.search.run(game, &mut self.evaluator, visits);
        let children = self
            .search
            .tree()
            .map(|tree| tree.root_children().collect())
            .unwrap_or_default();
        (result, children)
    }
}
