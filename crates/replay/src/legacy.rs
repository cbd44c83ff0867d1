//! Records as format version 2 wrote them (before chance outcomes were marked), read so that
//! the shards and journals of runs begun by an older build keep training.

use crate::{GameRecord, MoveRecord, ResignPlaythrough, Shard, ShardHeader};
use game::Outcome;
use serde::Deserialize;

/// The format version whose records lack [`MoveRecord::chance`].
pub(crate) const VERSION_2: u32 = 2;

#[derive(Deserialize)]
struct MoveRecordV2 {
    action: u32,
    policy: Vec<(u32, u32)>,
    root_value: f32,
    full_search: bool,
    surprise: f32,
}

#[derive(Deserialize)]
pub(crate) struct GameRecordV2 {
    generation: u32,
    moves: Vec<MoveRecordV2>,
    outcome: Outcome,
    end_reason: String,
    final_position: String,
    resign_playthrough: Option<ResignPlaythrough>,
}

#[derive(Deserialize)]
pub(crate) struct ShardV2 {
    header: ShardHeader,
    records: Vec<GameRecordV2>,
}

impl From<GameRecordV2> for GameRecord {
    /// Every game before version 3 was of a game without chance.
    fn from(old: GameRecordV2) -> Self {
        GameRecord {
            generation: old.generation,
            moves: old
                .moves
                .into_iter()
                .map(|m| MoveRecord {
                    action: m.action,
                    policy: m.policy,
                    root_value: m.root_value,
                    full_search: m.full_search,
                    surprise: m.surprise,
                    chance: false,
                })
                .collect(),
            outcome: old.outcome,
            end_reason: old.end_reason,
            final_position: old.final_position,
            resign_playthrough: old.resign_playthrough,
        }
    }
}

impl From<ShardV2> for Shard {
    fn from(old: ShardV2) -> Self {
        Shard {
            header: old.header,
            records: old.records.into_iter().map(GameRecord::from).collect(),
        }
    }
}
