//! `--backend`: what runs a bot's network, for the commands that play a bundle.

use crate::InputError;
use nn::DeviceChoice;
use play::Runtime;

/// The `--backend` of a command that plays a bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// libtorch, on CUDA when there is one (the libtorch build only).
    Torch,
    /// The bundle's model.onnx on tract, on the CPU (`ghast export --onnx` writes it).
    Onnx,
}

impl Backend {
    /// libtorch where this build links it, else ONNX.
    pub const DEFAULT: Backend = if cfg!(feature = "torch") {
        Backend::Torch
    } else {
        Backend::Onnx
    };

    /// The runtime of this backend on `device` (`--device`, or the CPU for `--cpu`). tract
    /// runs on the CPU only, and a build without libtorch has no `torch`: both are refused
    /// with what to do instead.
    pub fn runtime(self, device: DeviceChoice) -> Result<Runtime, InputError> {
        match self {
            Backend::Onnx if device == DeviceChoice::Best || device == DeviceChoice::cpu() => {
                Ok(Runtime::Onnx)
            }
            Backend::Onnx => Err(InputError(format!(
                "--backend onnx runs on the CPU: --device {device:?} is for --backend torch"
            ))),
            #[cfg(feature = "torch")]
            Backend::Torch => Ok(Runtime::Torch(device)),
            #[cfg(not(feature = "torch"))]
            Backend::Torch => Err(InputError(
                "--backend torch: this ghast was built without libtorch; it plays bundles' \
                 model.onnx (--backend onnx), and `cargo build --release` builds one with it"
                    .into(),
            )),
        }
    }
}
