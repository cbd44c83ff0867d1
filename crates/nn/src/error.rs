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

    /// The sidecar beside the weights, unreadable or of another game.
    #[error(transparent)]
    Sidecar(#[from] sidecar::SidecarError),

    #[cfg(feature = "torch")]
    #[error("{}: cannot read the weights (truncated, or not a safetensors file): {source}", path.display())]
    Weights {
        path: PathBuf,
        source: tch::TchError,
    },

    #[error("{}: weights do not match the architecture in the sidecar: {detail}", path.display())]
    Architecture { path: PathBuf, detail: String },

    /// The device failed while the network was readied (its warm-up passes).
    #[error(transparent)]
    Device(#[from] game::DeviceError),

    #[error("{}: not a network this build can run: {detail}", path.display())]
    Onnx { path: PathBuf, detail: String },

    #[error("the network expects {expected}, but the game has {found}")]
    GameMismatch { expected: String, found: String },
}
