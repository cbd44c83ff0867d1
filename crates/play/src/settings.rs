//! `bot.toml`: how a bundle's bot plays, and which game it was exported for.

use crate::error::PlayError;
use game::Game;
use mcts::{ResignRule, SearchConfig};
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
pub struct BotSettings<O> {
    pub format_version: u32,
    /// The game's name (`ghast`, `ghodak`), checked against the checkpoint's.
    pub game: String,
    /// Visits per move.
    pub visits: u32,
    /// The game the bot plays by default: GTP's `boardsize` and `komi` start from these.
    pub game_options: O,
    pub search: SearchConfig,
    /// When the bot gives a game up (left out: never, as bundles from before it resigned).
    #[serde(default)]
    pub resign: ResignRule,
}

impl<O: Serialize + serde::de::DeserializeOwned> BotSettings<O> {
    /// Play settings ([`SearchConfig::play`]) for game `G` with `options`, with `visits` per
    /// move.
    pub fn new<G: Game<Options = O>>(game_options: O, visits: u32) -> Result<Self, PlayError> {
        let settings = BotSettings {
            format_version: SETTINGS_VERSION,
            game: G::NAME.to_owned(),
            visits,
            game_options,
            search: SearchConfig::play(),
            resign: ResignRule::NEVER,
        };
        settings.check_visits()?;
        Ok(settings)
    }

    pub(crate) fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("bot settings always serialise")
    }

    /// Parses and checks `text`, read from `path` (named in errors), as the settings of a bot
    /// for game `G`.
    pub fn parse<G: Game<Options = O>>(text: &str, path: &Path) -> Result<Self, PlayError> {
        let malformed = |detail: String| PlayError::Settings {
            path: path.to_owned(),
            detail,
        };
        // The game first, so that a bot of another game is named as such rather than by the
        // first of its options this game does not know.
        #[derive(Deserialize)]
        struct GameField {
            game: String,
        }
        let name = G::NAME;
        if let Ok(GameField { game }) = toml::from_str::<GameField>(text)
            && game != name
        {
            return Err(PlayError::GameMismatch {
                path: path.to_owned(),
                detail: format!("the bot is for game `{game}`, not `{name}`"),
            });
        }
        let settings: BotSettings<O> = toml::from_str(text).map_err(|e| {
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
        settings
            .check_visits()
            .map_err(|e| malformed(e.to_string()))?;
        settings
            .search
            .validate_guided()
            .map_err(|e| malformed(format!("[search] {e}")))?;
        Ok(settings)
    }

    fn check_visits(&self) -> Result<(), PlayError> {
        match self.visits {
            0 => Err(PlayError::Visits(0)),
            _ => Ok(()),
        }
    }
}
