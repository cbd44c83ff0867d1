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
    /// The strengths a person may choose (`ghast gtp --level N`), weakest first; the bundle's
    /// own settings above are its full strength. `ghast ladder --bot DIR --levels` measures
    /// them and writes them here with their ratings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<Level>,
}

/// One strength of a bot: fewer visits, a move drawn by its visits rather than the most
/// visited, and for the weakest a share of random moves. A bot has no human games to learn
/// levels from (KataGo's human-like play), so levels weaken the search and the move choice,
/// and the ladder says what each is worth against fixed anchors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Visits per move.
    pub visits: u32,
    /// Moves are drawn with probability proportional to the search's policy^(1/temperature)
    /// (under Gumbel search the improved policy); 0 plays the most visited.
    #[serde(default, serialize_with = "as_written")]
    pub temperature: f32,
    /// The share of moves played uniformly at random among the legal ones, in [0, 1].
    #[serde(default, serialize_with = "as_written")]
    pub random_moves: f32,
    /// Where the ladder measured it, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<LevelRating>,
}

/// An `f32` as its shortest decimal (`0.8`, not the `0.800000011920929` of its `f64`), so
/// that `bot.toml` reads as it was written.
fn as_written<S: serde::Serializer>(value: &f32, serializer: S) -> Result<S::Ok, S::Error> {
    let shortest: f64 = value
        .to_string()
        .parse()
        .expect("an f32 prints as a number");
    serializer.serialize_f64(shortest)
}

/// A level's Elo on its anchors' scale, with a 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    /// The player rated 0 on this scale (the ladder's first anchor, usually `random`).
    pub zero: String,
    /// The anchors that placed it (the nearest ones it played), by their `ghast arena`
    /// names.
    pub anchors: Vec<String>,
    /// Games it played, all anchors together.
    pub games: u32,
}

impl Level {
    /// The bundle's full strength: its visits, the most visited move, no random moves.
    pub fn full(visits: u32) -> Level {
        Level {
            visits,
            temperature: 0.0,
            random_moves: 0.0,
            rating: None,
        }
    }

    /// Why the level cannot be played, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        if self.visits == 0 {
            return Err("visits 0: expected at least 1".into());
        }
        if !(self.temperature.is_finite() && self.temperature >= 0.0) {
            return Err(format!(
                "temperature {}: expected a number of at least 0",
                self.temperature
            ));
        }
        if !(0.0..=1.0).contains(&self.random_moves) {
            return Err(format!(
                "random_moves {}: expected a share from 0 to 1",
                self.random_moves
            ));
        }
        Ok(())
    }
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
            levels: Vec::new(),
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
        for (index, level) in settings.levels.iter().enumerate() {
            level
                .check()
                .map_err(|e| malformed(format!("[[levels]] {}: {e}", index + 1)))?;
        }
        Ok(settings)
    }

    /// Level `number` (1 is the weakest, as `ghast gtp --level` counts), or an error that
    /// says which levels there are.
    pub fn level(&self, number: usize) -> Result<&Level, PlayError> {
        number
            .checked_sub(1)
            .and_then(|index| self.levels.get(index))
            .ok_or(PlayError::NoLevel {
                level: number,
                levels: self.levels.len(),
            })
    }

    fn check_visits(&self) -> Result<(), PlayError> {
        match self.visits {
            0 => Err(PlayError::Visits(0)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_is_written_as_its_numbers_were_given() {
        let level = Level {
            temperature: 0.3,
            random_moves: 0.8,
            ..Level::full(16)
        };
        let text = toml::to_string(&level).unwrap();
        assert!(text.contains("temperature = 0.3\n"), "{text}");
        assert!(text.contains("random_moves = 0.8\n"), "{text}");
        let read: Level = toml::from_str(&text).unwrap();
        assert_eq!(read, level);
    }
}
