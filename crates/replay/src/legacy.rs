//! Records as format versions 2 (before chance outcomes were marked) and 3 (before handicap
//! games were marked) wrote them, read so that the shards and journals of runs begun by an
//! older build keep training.

use crate::{GameRecord, MoveRecord, ResignPlaythrough, Shard, ShardHeader};
use game::Outcome;
use serde::{Deserialize, Serialize};

/// The format version whose records lack [`MoveRecord::chance`].
pub(crate) const VERSION_2: u32 = 2;

/// The format version whose records lack [`GameRecord::handicap`].
pub(crate) const VERSION_3: u32 = 3;

#[derive(Serialize, Deserialize)]
struct MoveRecordV2 {
    action: u32,
    policy: Vec<(u32, u32)>,
    root_value: f32,
    full_search: bool,
    surprise: f32,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct GameRecordV2 {
    generation: u32,
    moves: Vec<MoveRecordV2>,
    outcome: Outcome,
    end_reason: String,
    final_position: String,
    resign_playthrough: Option<ResignPlaythrough>,
}

/// A shard of an older format: the same header, that format's records.
#[derive(Serialize, Deserialize)]
pub(crate) struct LegacyShard<R> {
    header: ShardHeader,
    records: Vec<R>,
}

pub(crate) type ShardV2 = LegacyShard<GameRecordV2>;
pub(crate) type ShardV3 = LegacyShard<GameRecordV3>;

impl<R> From<LegacyShard<R>> for Shard
where
    GameRecord: From<R>,
{
    fn from(old: LegacyShard<R>) -> Self {
        Shard {
            header: old.header,
            records: old.records.into_iter().map(GameRecord::from).collect(),
        }
    }
}

impl<'a, R: From<&'a GameRecord>> From<&'a Shard> for LegacyShard<R> {
    /// The shard as that format held it, for tests that such old data still reads.
    fn from(shard: &'a Shard) -> Self {
        LegacyShard {
            header: shard.header.clone(),
            records: shard.records.iter().map(R::from).collect(),
        }
    }
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
            handicap: None,
        }
    }
}

impl From<&GameRecord> for GameRecordV2 {
    /// The record as format 2 held it: the same, without the chance marks.
    fn from(record: &GameRecord) -> Self {
        GameRecordV2 {
            generation: record.generation,
            moves: record
                .moves
                .iter()
                .map(|m| MoveRecordV2 {
                    action: m.action,
                    policy: m.policy.clone(),
                    root_value: m.root_value,
                    full_search: m.full_search,
                    surprise: m.surprise,
                })
                .collect(),
            outcome: record.outcome,
            end_reason: record.end_reason.clone(),
            final_position: record.final_position.clone(),
            resign_playthrough: record.resign_playthrough,
        }
    }
}

/// `record` as a build before format 3 wrote it into a journal ([`crate::encode_record`]'s
/// bytes then), for tests that such old data still reads. Its chance marks are dropped.
pub fn encode_record_v2(record: &GameRecord) -> Vec<u8> {
    bincode::serde::encode_to_vec(GameRecordV2::from(record), bincode::config::standard())
        .expect("a record always encodes")
}

#[derive(Serialize, Deserialize)]
pub(crate) struct GameRecordV3 {
    generation: u32,
    moves: Vec<MoveRecord>,
    outcome: Outcome,
    end_reason: String,
    final_position: String,
    resign_playthrough: Option<ResignPlaythrough>,
}

impl From<GameRecordV3> for GameRecord {
    /// Every game before version 4 was played between equals.
    fn from(old: GameRecordV3) -> Self {
        GameRecord {
            generation: old.generation,
            moves: old.moves,
            outcome: old.outcome,
            end_reason: old.end_reason,
            final_position: old.final_position,
            resign_playthrough: old.resign_playthrough,
            handicap: None,
        }
    }
}

impl From<&GameRecord> for GameRecordV3 {
    /// The record as format 3 held it: the same, without the handicap.
    fn from(record: &GameRecord) -> Self {
        GameRecordV3 {
            generation: record.generation,
            moves: record.moves.clone(),
            outcome: record.outcome,
            end_reason: record.end_reason.clone(),
            final_position: record.final_position.clone(),
            resign_playthrough: record.resign_playthrough,
        }
    }
}

/// `record` as a build of format 3 wrote it into a journal, for tests that such old data
/// still reads. Its handicap is dropped.
pub fn encode_record_v3(record: &GameRecord) -> Vec<u8> {
    bincode::serde::encode_to_vec(GameRecordV3::from(record), bincode::config::standard())
        .expect("a record always encodes")
}
