//! Shard names: the only metadata listing needs.
//!
//! A name carries the creation time, the writer and the position count, so a store can be
//! listed (a directory read or one object-store LIST call) and the newest N positions chosen
//! without opening a single shard.

use std::fmt;

/// The name of a shard, e.g. `shard-1712345678901-w0003-000042-p5120.bin`.
///
/// Ordering is by creation time, then writer, then sequence number, so sorting names sorts
/// shards oldest first. The zero padding makes the text sort the same way for the next few
/// centuries, which keeps object-store listings (sorted by key) in creation order too.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShardName {
    pub created_unix_millis: u64,
    /// The self-play worker that wrote it; workers on different machines need distinct ids.
    pub worker: u32,
    /// The writer's running count of shards, so one worker never reuses a name.
    pub seq: u64,
    /// The number of positions (moves over all games) in the shard.
    pub positions: u64,
}

impl ShardName {
    /// Parses a name written by [`fmt::Display`]; anything else (temporary files, files of
    /// other tools, hand-renamed shards) is `None`, so listing can ignore it.
    pub fn parse(text: &str) -> Option<Self> {
        let fields = text.strip_prefix("shard-")?.strip_suffix(".bin")?;
        let mut parts = fields.split('-');
        let name = Self {
            created_unix_millis: parts.next()?.parse().ok()?,
            worker: parts.next()?.strip_prefix('w')?.parse().ok()?,
            seq: parts.next()?.parse().ok()?,
            positions: parts.next()?.strip_prefix('p')?.parse().ok()?,
        };
        // Exactly one spelling per name: "+5" or missing padding would break text ordering.
        (parts.next().is_none() && name.to_string() == text).then_some(name)
    }
}

impl fmt::Display for ShardName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shard-{:013}-w{:04}-{:06}-p{}.bin",
            self.created_unix_millis, self.worker, self.seq, self.positions
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn spells_a_known_name() {
        let name = ShardName {
            created_unix_millis: 1_712_345_678_901,
            worker: 3,
            seq: 42,
            positions: 5120,
        };
        assert_eq!(
            name.to_string(),
            "shard-1712345678901-w0003-000042-p5120.bin"
        );
    }

    #[test]
    fn rejects_other_files() {
        for text in [
            ".shard-1712345678901-w0003-000042-p5120.bin.tmp",
            "shard-1712345678901-w0003-000042-p5120.bin.tmp",
            "shard-1712345678901-w3-000042-p5120.bin",
            "shard-1712345678901-w0003-000042-p+5120.bin",
            "shard-1712345678901-w0003-000042-p5120-x.bin",
            "shard-1712345678901-w0003-000042.bin",
            "README.md",
        ] {
            assert_eq!(ShardName::parse(text), None, "{text}");
        }
    }

    proptest! {
        #[test]
        fn round_trips_and_sorts_like_its_text(
            a in (0..10_000_000_000_000u64, 0..10_000u32, 0..1_000_000u64, any::<u64>()),
            b in (0..10_000_000_000_000u64, 0..10_000u32, 0..1_000_000u64, any::<u64>()),
        ) {
            let [a, b] = [a, b].map(|(created_unix_millis, worker, seq, positions)| ShardName {
                created_unix_millis, worker, seq, positions,
            });
            prop_assert_eq!(ShardName::parse(&a.to_string()), Some(a));
            if (a.created_unix_millis, a.worker, a.seq) != (b.created_unix_millis, b.worker, b.seq) {
                prop_assert_eq!(a.cmp(&b), a.to_string().cmp(&b.to_string()));
            }
        }
    }
}
