//! The replay store: what self-play writes and what the trainer samples from.
//!
//! Self-play workers append finished games as immutable *shards* (one file or object each);
//! the trainer keeps a [`Window`] over the newest shards and draws positions uniformly from
//! it. Everything here is game-agnostic: actions are dense indices and a shard names its game
//! and options as text, so the same store serves any game behind `game::Game`.
//!
//! Layers, each in its own module: [`GameRecord`] (what one game leaves behind), the shard
//! file format ([`encode_shard`], [`decode_shard`]), the [`ShardStore`] trait that moves shard
//! bytes by [`ShardName`] (with [`LocalDirStore`] as the local backend), the sliding
//! [`Window`] sized by [`WindowConfig`], and the [`Merger`] that folds shards long behind the
//! window into large ones.

mod error;
mod format;
mod legacy;
mod local;
mod merge;
mod name;
mod object;
mod record;
mod shard;
mod shard_index;
mod store;
mod window;
mod window_size;

#[cfg(test)]
mod test_support;

pub use error::ReplayError;
pub use format::{FORMAT_VERSION, MAGIC, decode_record, decode_shard, encode_record, encode_shard};
pub use legacy::{encode_record_v2, encode_record_v3};
pub use local::LocalDirStore;
pub use merge::{Merger, plan_merges};
pub use name::ShardName;
pub use object::ObjectShardStore;
pub use record::{
    GameRecord, Handicapped, MoveRecord, POLICY_WEIGHT_TOTAL, ResignPlaythrough, quantise_policy,
};
pub use shard::{Shard, ShardHeader, ShardOrigin};
pub use store::{ShardStore, open_store};
pub use window::{Position, Targets, Window};
pub use window_size::WindowConfig;
