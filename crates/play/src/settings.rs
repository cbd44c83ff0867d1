//! `bot.toml`: how a bundle's bot plays, and which game it was exported for.

use crate::error::PlayError;
use ghast::GhastOptions;
use mcts::SearchConfig;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Bumped whenever `bot.toml` changes incompatibly.
pub const SETTINGS_VERSION: u32 = 1;

/// Visits used when neither the bundle nor the command line says otherwise: enough for a
/// sensible move from a small net on a CPU in about a second.
pub const DEFAULT_VISITS: u32 = 400;

/// A bot's default search: the bundle's `bot.toml`. Command-line flags override `visits`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSettings {
    pub format_version: u32,
    /// The game's name (`ghast`), checked against the checkpoint's.
    pub game: String,
    /// Visits per move.
    pub visits: u32,
    /// The game the bot plays by default: GTP's `boardsize` and `komi` start from these.
    pub game_options: GhastOptions,
    pub search: SearchConfig,
}

impl BotSettings {
    /// Play settings ([`SearchConfig::play`]) for `options`, with `visits` per move.
    pub fn new(game_options: GhastOptions, visits: u32) -> Result<Self, PlayError> {
        let settings = BotSettings {
            format_version: SETTINGS_VERSION,
            game: <ghast::Ghast as game::Game>::NAME.to_owned(),
            visits,
            game_options,
            search: SearchConfig::play(),
        };
        settings.check_visits()?;
        Ok(settings)
    }

    pub(crate) fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("bot settings always serialise")
    }

    /// Parses and checks `text`, read from `path` (named in errors).
    pub fn parse(text: &str, path: &Path) -> Result<Self, PlayError> {
        let malformed = |detail: String| PlayError::Settings {
            path: path.to_owned(),
            detail,
        };
        let settings: BotSettings = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map_or(0, |span| text[..span.start].lines().count().max(1));
            malformed(format!("line {line}: {}", e.message()))
        })?;
        if settings.format_version != SETTINGS_VERSION {
            return Err(malformed(format!(
                "format version {}, this build reads version {SETTINGS_VERSION}",
                settings.format_version
            )));
        }
        let name = <ghast::Ghast as game::Game>::NAME;
        if settings.game != name {
            return Err(PlayError::GameMismatch {
                path: path.to_owned(),
                detail: format!("the bot is for game `{}`, not `{name}`", settings.game),
            });
        }
        settings
            .check_visits()
            .map_err(|e| malformed(e.to_string()))?;
        Ok(settings)
    }

    fn check_visits(&self) -> Result<(), PlayError> {
        match self.visits {
            0 => Err(PlayError::Visits(0)),
            _ => Ok(()),
        }
    }
}
