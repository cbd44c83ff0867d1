//! Shards and records for tests.

use crate::{
    GameRecord, Handicapped, MoveRecord, ResignPlaythrough, Shard, ShardHeader, ShardOrigin,
};
use game::{Outcome, Side};
use proptest::prelude::*;

/// The game and options of every [`numbered_shard`].
pub fn test_origin() -> ShardOrigin {
    ShardOrigin {
        game: "test".into(),
        options_json: "{}".into(),
    }
}

/// Moves per game in [`numbered_shard`], small so that shards hold several games.
pub const GAME_LEN: u32 = 7;

/// A shard whose moves carry the actions `first_action..first_action + positions` in order,
/// so a sampled position says where it came from; games of [`GAME_LEN`] moves (the last one
/// shorter); the moves with even actions are full searches.
pub fn numbered_shard(created_unix_millis: u64, first_action: u32, positions: u32) -> Shard {
    let actions: Vec<u32> = (first_action..first_action + positions).collect();
    let records = actions
        .chunks(GAME_LEN as usize)
        .map(|game| GameRecord {
            generation: 1,
            moves: game.iter().map(|&action| numbered_move(action)).collect(),
            outcome: Outcome::Draw,
            end_reason: "limit".into(),
            final_position: "final".into(),
            resign_playthrough: None,
            handicap: None,
        })
        .collect();
    Shard {
        header: ShardHeader {
            game: test_origin().game,
            options_json: test_origin().options_json,
            created_unix_millis,
            generation: 1,
            worker: 0,
            seq: 0,
        },
        records,
    }
}

fn numbered_move(action: u32) -> MoveRecord {
    let full_search = action % 2 == 0;
    MoveRecord {
        action,
        policy: if full_search {
            vec![(action, 10)]
        } else {
            Vec::new()
        },
        root_value: 0.0,
        full_search,
        surprise: 0.0,
        chance: false,
    }
}

fn arb_side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::First), Just(Side::Second)]
}

fn arb_move() -> impl Strategy<Value = MoveRecord> {
    (
        any::<u32>(),
        prop::collection::vec(any::<(u32, u32)>(), 0..8),
        -1.0f32..=1.0,
        any::<bool>(),
        0.0f32..10.0,
        any::<bool>(),
    )
        .prop_map(
            |(action, policy, root_value, full_search, surprise, chance)| MoveRecord {
                action,
                // Chance's outcomes have no search, as self-play writes them.
                policy: if chance { Vec::new() } else { policy },
                root_value,
                full_search: full_search && !chance,
                surprise,
                chance,
            },
        )
}

fn arb_record() -> impl Strategy<Value = GameRecord> {
    (
        any::<u32>(),
        prop::collection::vec(arb_move(), 0..40),
        prop_oneof![Just(Outcome::Draw), arb_side().prop_map(Outcome::Win)],
        "[a-z]{0,12}",
        "\\PC{0,60}",
        prop::option::of((arb_side(), any::<u32>())),
        prop::option::of((arb_side(), 0.0f32..=1.0)),
    )
        .prop_map(
            |(generation, moves, outcome, end_reason, final_position, resign, handicap)| {
                GameRecord {
                    generation,
                    moves,
                    outcome,
                    end_reason,
                    final_position,
                    resign_playthrough: resign
                        .map(|(side, move_index)| ResignPlaythrough { side, move_index }),
                    handicap: handicap.map(|(side, random_decisions)| Handicapped {
                        side,
                        random_decisions,
                    }),
                }
            },
        )
}

/// Any shard, with any Unicode in its text fields.
pub fn arb_shard() -> impl Strategy<Value = Shard> {
    (
        (
            "\\PC{0,10}",
            "\\PC{0,40}",
            any::<u64>(),
            any::<u32>(),
            any::<u32>(),
            any::<u64>(),
        ),
        prop::collection::vec(arb_record(), 0..6),
    )
        .prop_map(
            |((game, options_json, created_unix_millis, generation, worker, seq), records)| Shard {
                header: ShardHeader {
                    game,
                    options_json,
                    created_unix_millis,
                    generation,
                    worker,
                    seq,
                },
                records,
            },
        )
}
