//! Bots shared by the server's requests, several searching at once.

use game::Game;
use mcts::Evaluator;
use play::{Analysis, Bot, PlayError};
use std::sync::{Condvar, Mutex, PoisonError};

/// A search takes an idle bot, or waits for one, so at most as many searches run at once as
/// there are bots, and no request waits for a search that is not its own unless every bot is
/// busy. Each bot keeps its tree, so analysing a position and then asking the bot to move
/// there reuses the visits already spent when the same bot answers.
#[derive(Debug)]
pub struct BotPool<G: Game, E> {
    idle: Mutex<Vec<Bot<G, E>>>,
    returned: Condvar,
}

impl<G: Game, E: Evaluator<G>> BotPool<G, E> {
    /// A pool of `bots`, which must not be empty.
    pub fn new(bots: Vec<Bot<G, E>>) -> Self {
        assert!(!bots.is_empty(), "a bot pool needs at least one bot");
        BotPool {
            idle: Mutex::new(bots),
            returned: Condvar::new(),
        }
    }

    /// [`Bot::analyze`] with `visits` on the first bot that is free.
    pub fn analyze(&self, game: &G, visits: u32) -> Result<Analysis, PlayError> {
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
        let found = bot.analyze(game, Some(visits));
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(bot);
        self.returned.notify_one();
        found
    }
}
