//! Everything that can go wrong when exporting, loading or starting a bot.

use std::io;
use std::path::PathBuf;
use thiserror::Error;

/// A bundle or bot error; every variant that concerns a file names it.
#[derive(Debug, Error)]
pub enum PlayError {
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        path: PathBuf,
        action: &'static str,
        source: io::Error,
    },

    #[error(
        "no bot at {}: expected a bundle folder (`ghast export` writes one) or a .safetensors \
         checkpoint with its .json sidecar beside it",
        path.display()
    )]
    NoBot { path: PathBuf },

    #[error(
        "{}: a checkpoint needs its sidecar {} beside it (the trainer writes both)",
        weights.display(),
        sidecar.display()
    )]
    NoSidecar { weights: PathBuf, sidecar: PathBuf },

    #[error("{}: not a bot bundle: {} is missing", dir.display(), file.display())]
    MissingFile { dir: PathBuf, file: PathBuf },

    #[error(
        "{}: the bundle has no model.onnx to run without libtorch: write it with `ghast export \
         --bundle {0} --onnx`",
        dir.display()
    )]
    NoOnnx { dir: PathBuf },

    #[error("{}: malformed bot settings: {detail}", path.display())]
    Settings { path: PathBuf, detail: String },

    #[error("{}: {detail}", path.display())]
    GameMismatch { path: PathBuf, detail: String },

    #[error("{}: cannot be written as ONNX: {source}", weights.display())]
    Onnx {
        weights: PathBuf,
        source: onnx::OnnxError,
    },

    #[error("visits must be at least 1, got {0}")]
    Visits(u32),

    #[error(
        "level {level}: the bot has {levels} levels (1 to {levels}; `ghast ladder --bot DIR \
         --levels` measures and writes them)"
    )]
    NoLevel { level: usize, levels: usize },

    #[error("malformed level: {detail}")]
    Level { detail: String },

    #[error("the game is over")]
    GameOver,

    #[error(transparent)]
    Net(#[from] nn::NetError),

    /// The device the network runs on failed: the bot cannot search again.
    #[error(transparent)]
    Device(#[from] game::DeviceError),
}

/// Wraps an I/O error with the path and what was being done to it.
pub(crate) fn io_error(
    path: impl Into<PathBuf>,
    action: &'static str,
) -> impl FnOnce(io::Error) -> PlayError {
    let path = path.into();
    move |source| PlayError::Io {
        path,
        action,
        source,
    }
}
