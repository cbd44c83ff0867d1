//! The shard file format.
//!
//! `MAGIC`, the format version as a little-endian u32, then a zstd frame holding the
//! [`Shard`] as bincode 2 (serde, standard config). The uncompressed prefix lets a reader tell
//! a foreign file or a shard from a newer build apart from corruption before decompressing.

use crate::legacy::{GameRecordV2, GameRecordV3, ShardV2, ShardV3, VERSION_2, VERSION_3};
use crate::{GameRecord, ReplayError, Shard};
use serde::de::DeserializeOwned;
use std::io::Read;

/// The first bytes of every shard.
pub const MAGIC: [u8; 8] = *b"GHASTRPL";
/// The version this build writes and the newest it reads (it reads versions 2 and 3 too).
/// Bump it whenever a serialized type changes: bincode is not self-describing, so old readers
/// would misread new fields. Version 3 marks chance's outcomes
/// ([`crate::MoveRecord::chance`]), version 4 handicap games ([`crate::GameRecord::handicap`]).
pub const FORMAT_VERSION: u32 = 4;

const PREFIX_LEN: usize = MAGIC.len() + size_of::<u32>();
const ZSTD_LEVEL: i32 = 3;

/// The most bytes of records a shard may hold (a merged shard of 50,000 positions holds
/// about 15 MB). Reading stops there, so neither a compression bomb nor a corrupt length
/// field can make a reader allocate without bound: bincode checks every length it reads
/// against this before allocating for it.
pub const MAX_RECORD_BYTES: usize = 1 << 28;

/// Checks what bincode cannot: every float is one self-play could have written.
fn check_records(shard: &Shard) -> Result<(), String> {
    for (game, record) in shard.records.iter().enumerate() {
        if let Some(defect) = record.defect() {
            return Err(format!("game {game}, {defect}"));
        }
    }
    Ok(())
}

/// Serializes and compresses a shard; the error names the shard.
pub fn encode_shard(shard: &Shard) -> Result<Vec<u8>, ReplayError> {
    let records =
        bincode::serde::encode_to_vec(shard, bincode::config::standard()).map_err(|source| {
            ReplayError::Encode {
                file: shard.name().to_string(),
                source,
            }
        })?;
    let mut bytes = Vec::with_capacity(PREFIX_LEN + records.len() / 4);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    zstd::stream::copy_encode(records.as_slice(), &mut bytes, ZSTD_LEVEL).map_err(|source| {
        ReplayError::Io {
            file: shard.name().to_string(),
            action: "compress",
            source,
        }
    })?;
    Ok(bytes)
}

/// Parses the bytes of a shard; `file` names it in errors.
pub fn decode_shard(file: &str, bytes: &[u8]) -> Result<Shard, ReplayError> {
    let file = || file.to_owned();
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(ReplayError::NotAShard { file: file() });
    }
    let Some((version, compressed)) = bytes[MAGIC.len().min(bytes.len())..].split_first_chunk()
    else {
        return Err(ReplayError::Truncated {
            file: file(),
            len: bytes.len(),
        });
    };
    let version = u32::from_le_bytes(*version);
    if ![VERSION_2, VERSION_3, FORMAT_VERSION].contains(&version) {
        return Err(ReplayError::UnsupportedVersion {
            file: file(),
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    let mut records = Vec::new();
    zstd::stream::read::Decoder::new(compressed)
        .and_then(|decoder| {
            decoder
                .take(MAX_RECORD_BYTES as u64 + 1)
                .read_to_end(&mut records)
        })
        .map_err(|source| ReplayError::Decompress {
            file: file(),
            source,
        })?;
    if records.len() > MAX_RECORD_BYTES {
        return Err(ReplayError::TooLarge {
            file: file(),
            limit: MAX_RECORD_BYTES,
        });
    }
    let (shard, read) = match version {
        VERSION_2 => decode_as::<ShardV2, Shard>(&records),
        VERSION_3 => decode_as::<ShardV3, Shard>(&records),
        _ => decode_as::<Shard, Shard>(&records),
    }
    .map_err(|source| ReplayError::Decode {
        file: file(),
        source,
    })?;
    if read != records.len() {
        return Err(ReplayError::TrailingBytes {
            file: file(),
            trailing: records.len() - read,
        });
    }
    check_records(&shard).map_err(|detail| ReplayError::Invalid {
        file: file(),
        detail,
    })?;
    Ok(shard)
}

/// One game alone, as a journal keeps it until its shard is stored: bincode of this build's
/// records, with no header (the journal marks its own entries).
pub fn encode_record(record: &GameRecord) -> Result<Vec<u8>, bincode::error::EncodeError> {
    bincode::serde::encode_to_vec(record, bincode::config::standard())
}

/// Reads a game written by [`encode_record`] of format `version` (this build's
/// [`FORMAT_VERSION`], or 2 or 3 from an older build's journal).
pub fn decode_record(
    bytes: &[u8],
    version: u32,
) -> Result<GameRecord, bincode::error::DecodeError> {
    let (record, _) = match version {
        VERSION_2 => decode_as::<GameRecordV2, GameRecord>(bytes),
        VERSION_3 => decode_as::<GameRecordV3, GameRecord>(bytes),
        _ => decode_as::<GameRecord, GameRecord>(bytes),
    }?;
    Ok(record)
}

/// Decodes `bytes` as `Written` (this build's type or an older format's), converted to this
/// build's `Current`, with the number of bytes read.
fn decode_as<Written: DeserializeOwned, Current: From<Written>>(
    bytes: &[u8],
) -> Result<(Current, usize), bincode::error::DecodeError> {
    let config = bincode::config::standard().with_limit::<MAX_RECORD_BYTES>();
    let (written, read) = bincode::serde::decode_from_slice::<Written, _>(bytes, config)?;
    Ok((written.into(), read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{arb_shard, numbered_shard};
    use proptest::prelude::*;

    const FILE: &str = "dir/shard.bin";

    fn decode_err(bytes: &[u8]) -> ReplayError {
        decode_shard(FILE, bytes).expect_err("decoding should fail")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn shards_round_trip(shard in arb_shard()) {
            let bytes = encode_shard(&shard).unwrap();
            prop_assert_eq!(decode_shard(FILE, &bytes).unwrap(), shard);
        }
    }

    #[test]
    fn starts_with_magic_and_version() {
        let bytes = encode_shard(&numbered_shard(0, 0, 3)).unwrap();
        assert_eq!(&bytes[..8], b"GHASTRPL");
        assert_eq!(&bytes[8..12], &FORMAT_VERSION.to_le_bytes());
    }

    /// The file an older build wrote of `old`, a shard in format `version`.
    fn legacy_file(old: impl serde::Serialize, version: u32) -> Vec<u8> {
        let body = bincode::serde::encode_to_vec(old, bincode::config::standard()).unwrap();
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.extend(zstd::encode_all(body.as_slice(), 0).unwrap());
        bytes
    }

    /// A shard written by a build before chance outcomes were marked still reads, every move
    /// a decision.
    #[test]
    fn version_2_shards_read_with_no_chance_outcomes() {
        let shard = numbered_shard(0, 0, 5);
        let bytes = legacy_file(crate::legacy::ShardV2::from(&shard), 2);
        assert_eq!(decode_shard(FILE, &bytes).unwrap(), shard);
    }

    /// A shard written by a build before handicap games were marked still reads, no game
    /// handicapped.
    #[test]
    fn version_3_shards_read_with_no_handicap() {
        let shard = numbered_shard(0, 0, 5);
        let bytes = legacy_file(crate::legacy::ShardV3::from(&shard), 3);
        assert_eq!(decode_shard(FILE, &bytes).unwrap(), shard);
    }

    #[test]
    fn foreign_files_are_not_shards() {
        let err = decode_err(b"PK\x03\x04 a zip file");
        assert!(matches!(err, ReplayError::NotAShard { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "dir/shard.bin: not a replay shard (wrong magic bytes)"
        );
    }

    #[test]
    fn a_prefix_of_the_magic_is_truncated() {
        for bytes in [&b""[..], b"GHAST", b"GHASTRPL\x01"] {
            let err = decode_err(bytes);
            assert!(matches!(err, ReplayError::Truncated { .. }), "{err}");
        }
    }

    #[test]
    fn newer_versions_are_refused_by_number() {
        let mut bytes = encode_shard(&numbered_shard(0, 0, 3)).unwrap();
        bytes[8..12].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(
            decode_err(&bytes).to_string(),
            format!("dir/shard.bin: format version 7, this build reads {FORMAT_VERSION}")
        );
    }

    #[test]
    fn truncation_anywhere_is_an_error_naming_the_file() {
        let bytes = encode_shard(&numbered_shard(0, 0, 40)).unwrap();
        for len in 0..bytes.len() {
            let err = decode_err(&bytes[..len]);
            assert!(err.to_string().starts_with("dir/shard.bin: "), "{err}");
        }
    }

    #[test]
    fn corrupt_compressed_data_is_an_error() {
        let mut bytes = encode_shard(&numbered_shard(0, 0, 40)).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle..].iter_mut().for_each(|byte| *byte ^= 0x5a);
        let err = decode_err(&bytes);
        assert!(matches!(err, ReplayError::Decompress { .. }), "{err}");
    }

    #[test]
    fn well_compressed_garbage_is_a_decode_error() {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend(zstd::encode_all(&[0xff_u8; 64][..], 0).unwrap());
        let err = decode_err(&bytes);
        assert!(matches!(err, ReplayError::Decode { .. }), "{err}");
    }

    /// Found by `scripts/fuzz.sh`: a string whose length field claims 1.8 TB made bincode
    /// allocate it, which aborted the process instead of failing the read.
    #[test]
    fn a_length_claim_beyond_the_records_is_a_decode_error() {
        let bytes = include_bytes!("../tests/data/fuzz-huge-length-claim.bin");
        let err = decode_err(bytes);
        assert!(matches!(err, ReplayError::Decode { .. }), "{err}");
    }

    /// Found by `scripts/fuzz.sh`: a root value of NaN decoded into a shard, where it would
    /// have poisoned the trainer's running statistics.
    #[test]
    fn a_move_with_a_nan_float_is_corrupt() {
        let bytes = include_bytes!("../tests/data/fuzz-nan-root-value.bin");
        let err = decode_err(bytes);
        assert!(matches!(err, ReplayError::Invalid { .. }), "{err}");
        assert!(err.to_string().contains("root value NaN"), "{err}");
    }

    #[test]
    fn a_compression_bomb_stops_at_the_limit() {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let zeros = vec![0u8; MAX_RECORD_BYTES + 1];
        bytes.extend(zstd::encode_all(zeros.as_slice(), 19).unwrap());
        let err = decode_err(&bytes);
        assert!(matches!(err, ReplayError::TooLarge { .. }), "{err}");
        assert!(
            err.to_string().contains("more than 268435456 bytes"),
            "{err}"
        );
    }

    #[test]
    fn trailing_bytes_are_an_error() {
        let shard = numbered_shard(0, 0, 3);
        let mut records =
            bincode::serde::encode_to_vec(&shard, bincode::config::standard()).unwrap();
        records.push(0);
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend(zstd::encode_all(records.as_slice(), 0).unwrap());
        let err = decode_err(&bytes);
        assert!(
            matches!(err, ReplayError::TrailingBytes { trailing: 1, .. }),
            "{err}"
        );
    }
}
