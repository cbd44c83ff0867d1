//! The bots: PUCT search over any evaluator, several at once.
//!
//! `play::Bot` does the same for a bundle's network only; this one is generic so that the API
//! is tested with `mcts::UniformEvaluator`, without a checkpoint.

use ghast::Ghast;
use mcts::{ChildStats, Evaluator, Search, SearchConfig, SearchResult};
use std::sync::{Condvar, Mutex, PoisonError};

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

/// Bots shared by the server's requests: a search takes an idle bot, or waits for one, so at
/// most as many searches run at once as there are bots, and no request waits for a search
/// that is not its own unless every bot is busy.
#[derive(Debug)]
pub struct BotPool<E> {
    idle: Mutex<Vec<Bot<E>>>,
    returned: Condvar,
}

impl<E: Evaluator<Ghast>> BotPool<E> {
    /// A pool of `bots`, which must not be empty.
    pub fn new(bots: Vec<Bot<E>>) -> Self {
        assert!(!bots.is_empty(), "a bot pool needs at least one bot");
        BotPool {
            idle: Mutex::new(bots),
            returned: Condvar::new(),
        }
    }

    /// [`Bot::search`] on the first bot that is free.
    pub fn search(&self, game: &Ghast, visits: u32) -> (SearchResult, Vec<ChildStats>) {
        let mut bot = {
            let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                match idle.pop() {
                    Some(bot) => break bot,
                    None => {
                        idle = self
                            .returned
                            .wait(idle)
                            .unwrap_or_else(PoisonError::into_inner)
                    }
                }
            }
        };
        let found = bot.search(game, visits);
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(bot);
        self.returned.notify_one();
        found
    }
}
