//! Opening the bots with `play::Bundle`: a bundle folder, or a bare checkpoint file with play
//! settings.

use crate::bot::BotPool;
use game::Planes;
use nn::NetEvaluator;
use play::{Bot, Bundle, Level, PlayError, Runtime};
use std::path::Path;

/// The seed of the searches' tie breaks: a fixed one makes the bots repeatable.
const SEED: u64 = 7;

/// The bots ready to search, with the game options, visits and levels of play their bundle
/// has.
pub struct LoadedBots<G: Planes> {
    pub bots: BotPool<G, NetEvaluator<G>>,
    pub options: G::Options,
    pub visits: u32,
    pub levels: Vec<Level>,
}

/// Opens `path` (see [`Bundle::open`]) as a bot of game `G`, `count` times (at least once):
/// one network per bot so that searches run side by side, each on `runtime`.
pub fn load_bots<G: Planes>(
    path: &Path,
    count: usize,
    runtime: Runtime,
) -> Result<LoadedBots<G>, PlayError> {
    let mut bots = Vec::new();
    let mut settings = None;
    for _ in 0..count.max(1) {
        let bundle = Bundle::<G>::open(path)?;
        settings = Some(bundle.settings.clone());
        bots.push(Bot::new(bundle, runtime, SEED)?);
    }
    let settings = settings.expect("at least one bot was loaded");
    Ok(LoadedBots {
        bots: BotPool::new(bots),
        options: settings.game_options,
        visits: settings.visits,
        levels: settings.levels,
    })
}
