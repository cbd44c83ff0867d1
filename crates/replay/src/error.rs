//! The one error type of the crate; every message starts with the file it is about.

use std::io;
use thiserror::Error;

/// Why a shard could not be read, written or listed. `file` is wherever the store says the
/// shard lives (a path for the local backend, a URL for an object store).
#[derive(Debug, Error)]
pub enum ReplayError {
    #[error("{file}: cannot {action}: {source}")]
    Io {
        file: String,
        action: &'static str,
        source: io::Error,
    },
    #[error(transparent)]
    Storage(#[from] storage::StorageError),
    #[error("{file}: not a replay shard (wrong magic bytes)")]
    NotAShard { file: String },
    #[error("{file}: truncated: {len} bytes is too short for the magic and version")]
    Truncated { file: String, len: usize },
    #[error("{file}: format version {found}, this build reads {supported}")]
    UnsupportedVersion {
        file: String,
        found: u32,
        supported: u32,
    },
    #[error("{file}: corrupt or truncated compressed data: {source}")]
    Decompress { file: String, source: io::Error },
    #[error("{file}: corrupt records: {source}")]
    Decode {
        file: String,
        source: bincode::error::DecodeError,
    },
    #[error("{file}: corrupt records: {detail}")]
    Invalid { file: String, detail: String },
    #[error("{file}: more than {limit} bytes of records; not a shard this build wrote")]
    TooLarge { file: String, limit: usize },
    #[error("{file}: corrupt records: {trailing} unexpected bytes after the last record")]
    TrailingBytes { file: String, trailing: usize },
    #[error("{file}: cannot encode records: {source}")]
    Encode {
        file: String,
        source: bincode::error::EncodeError,
    },
    /// The shard holds games of another game or other options than the reader's run.
    #[error("{file}: games of another run ({found}; this run plays {expected})")]
    Foreign {
        file: String,
        found: String,
        expected: String,
    },
    /// The shard's own header disagrees with its name, which listing trusts for creation order
    /// and position counts.
    #[error("{file}: its header describes a different shard, {actual}")]
    NameMismatch { file: String, actual: String },
}
