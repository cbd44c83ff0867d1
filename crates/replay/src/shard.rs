//! A shard: the unit self-play writes and the store moves, a batch of games from one worker.

use crate::{GameRecord, ShardName};
use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// What every game in a shard shares: which game it is and who wrote it when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// The game's name (e.g. "ghast"), so a trainer never mixes games.
    pub game: String,
    /// The game's options as JSON, kept as text so this crate needs no game types.
    pub options_json: String,
    pub created_unix_millis: u64,
    /// The newest model generation the worker had loaded when it wrote the shard; each record
    /// names the generation that actually played it.
    pub generation: u32,
    pub worker: u32,
    /// The worker's running count of shards.
    pub seq: u64,
}

/// The game and options a run plays: every shard it writes carries them, and its trainer
/// takes only shards that carry the same, so games of another run never leak into training.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardOrigin {
    pub game: String,
    /// The options as the run serialises them; compared as text, so a shard written under
    /// options that differ in any field is foreign.
    pub options_json: String,
}

impl std::fmt::Display for ShardOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.game, self.options_json)
    }
}

impl ShardHeader {
    /// A header stamped with the current time.
    pub fn now(origin: &ShardOrigin, generation: u32, worker: u32, seq: u64) -> Self {
        let created_unix_millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_millis() as u64);
        Self {
            game: origin.game.clone(),
            options_json: origin.options_json.clone(),
            created_unix_millis,
            generation,
            worker,
            seq,
        }
    }

    /// The game and options this shard's games were played under.
    pub fn origin(&self) -> ShardOrigin {
        ShardOrigin {
            game: self.game.clone(),
            options_json: self.options_json.clone(),
        }
    }
}

/// A header and the games written with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    pub header: ShardHeader,
    pub records: Vec<GameRecord>,
}

impl Shard {
    /// The number of positions (moves over all games).
    pub fn positions(&self) -> u64 {
        self.records
            .iter()
            .map(|record| record.positions() as u64)
            .sum()
    }

    /// The name this shard is stored under; derived from the content so a store can check
    /// that a name tells the truth about the shard behind it.
    pub fn name(&self) -> ShardName {
        ShardName {
            created_unix_millis: self.header.created_unix_millis,
            worker: self.header.worker,
            seq: self.header.seq,
            positions: self.positions(),
        }
    }
}
