//! Opening the bots with `play::Bundle`: a bundle folder, or a bare checkpoint file with play
//! settings.

use crate::bot::{Bot, BotPool};
use ghast::{Ghast, GhastOptions};
use nn::{EvaluatorSettings, NetEvaluator};
use play::{Bundle, PlayError};
use std::path::Path;

/// The bots ready to search, with the game and visits their bundle asks for.
pub struct LoadedBots {
    pub bots: BotPool<NetEvaluator<Ghast>>,
    pub options: GhastOptions,
    pub visits: u32,
}

/// Opens `path` (see [`Bundle::open`]) `count` times (at least once), one network per bot so
/// that searches run side by side, each on the first GPU if there is one, else on the CPU.
pub fn load_bots(path: &Path, count: usize) -> Result<LoadedBots, PlayError> {
    let mut bots = Vec::new();
    let mut settings = None;
    for _ in 0..count.max(1) {
        let bundle = Bundle::<Ghast>::open(path)?;
        // One game's search step sends at most `leaves_per_tree` leaves; larger batches would
        // only lengthen the warm-up.
        let evaluator_settings = EvaluatorSettings {
            max_batch: bundle.settings.search.leaves_per_tree.max(1) as usize,
            ..EvaluatorSettings::default()
        };
        let evaluator = NetEvaluator::new(
            bundle.checkpoint.network,
            &bundle.settings.game_options,
            evaluator_settings,
        )?;
        bots.push(Bot::new(evaluator, bundle.settings.search.clone()));
        settings = Some(bundle.settings);
    }
    let settings = settings.expect("at least one bot was loaded");
    Ok(LoadedBots {
        bots: BotPool::new(bots),
        options: settings.game_options,
        visits: settings.visits,
    })
}
