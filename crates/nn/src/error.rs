//! Everything that can go wrong when loading, saving or pairing a network with a game.

use std::io;
use std::path::PathBuf;
use thiserror::Error;

/// A network-crate error; every variant that concerns a file names it.
#[derive(Debug, Error)]
pub enum NetError {
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        path: PathBuf,
        action: &'static str,
        source: io::Error,
    },

    #[error("{}: a checkpoint's weights must be a `.safetensors` file", path.display())]
    WeightsPath { path: PathBuf },

    #[error("{}: not a network checkpoint sidecar: {source}", path.display())]
    Sidecar {
        path: PathBuf,
        source: serde_json::Error,
    },

    #[error("{}: checkpoint format version {found}, this build reads version {expected}", path.display())]
    FormatVersion {
        path: PathBuf,
        found: u32,
        expected: u32,
    },

    #[error("{}: checkpoint is for game `{found}`, not `{expected}`", path.display())]
    WrongGame {
        path: PathBuf,
        found: String,
        expected: String,
    },

    #[error("{}: game options do not fit this game: {source}", path.display())]
    GameOptions {
        path: PathBuf,
        source: serde_json::Error,
    },

    #[error("{}: cannot read the weights (truncated, or not a safetensors file): {source}", path.display())]
    Weights {
        path: PathBuf,
        source: tch::TchError,
    },

    #[error("{}: weights do not match the architecture in the sidecar: {detail}", path.display())]
    Architecture { path: PathBuf, detail: String },

    #[error("the network expects {expected}, but the game has {found}")]
    GameMismatch { expected: String, found: String },
}
