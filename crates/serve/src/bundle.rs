//! Opening the bot with `play::Bundle`: a bundle folder, or a bare checkpoint file with play
//! settings.

use crate::bot::Bot;
use ghast::{Ghast, GhastOptions};
use nn::{EvaluatorSettings, NetEvaluator};
use play::{Bundle, PlayError};
use std::path::Path;

/// The bot ready to search, with the game and visits its bundle asks for.
pub struct LoadedBot {
    pub bot: Bot<NetEvaluator<Ghast>>,
    pub options: GhastOptions,
    pub visits: u32,
}

/// Opens `path` (see [`Bundle::open`]) and puts its network on the first GPU if there is
/// one, else on the CPU.
pub fn load_bot(path: &Path) -> Result<LoadedBot, PlayError> {
    let bundle = Bundle::open(path)?;
    let settings = bundle.settings;
    // One game's search step sends at most `leaves_per_tree` leaves; larger batches would only
    // lengthen the warm-up.
    let evaluator_settings = EvaluatorSettings {
        max_batch: settings.search.leaves_per_tree.max(1) as usize,
        ..EvaluatorSettings::default()
    };
    let evaluator = NetEvaluator::new(
        bundle.checkpoint.network,
        &settings.game_options,
        evaluator_settings,
    )?;
    Ok(LoadedBot {
        bot: Bot::new(evaluator, settings.search),
        options: settings.game_options,
        visits: settings.visits,
    })
}
