//! The policy/value network for any [`game::Planes`] game: a KataGo-style residual tower with
//! global pooling, its training losses, batched inference for search, and checkpoints.
//!
//! Nothing here knows a particular game: the input planes, the board mask, the legal actions
//! and the policy layout all come through the `game` traits. A simulated accelerator
//! ([`SimulatedDevice`]) can stand in for the network where a GPU is to be measured without one.
//!
//! Three backends run a forward pass behind one [`NetEvaluator`]: the network on libtorch,
//! a bundle's `model.onnx` on tract, and the simulated accelerator. Everything that needs
//! libtorch (the network itself, checkpoints, losses, the libtorch backend) is behind the
//! `torch` feature, on by default; without it the crate plays from `model.onnx` alone, so a
//! binary that only plays links no libtorch.

mod backend;
#[cfg(feature = "torch")]
pub mod bench;
#[cfg(feature = "torch")]
pub mod checkpoint;
mod device;
mod error;
mod evaluator;
mod failure;
mod host_batch;
#[cfg(feature = "torch")]
mod losses;
#[cfg(feature = "torch")]
mod model;
mod onnx_model;
mod outputs;
#[cfg(feature = "torch")]
mod precision;
mod server;
mod simulated;
#[cfg(feature = "torch")]
mod tensors;

pub use device::DeviceChoice;
#[cfg(feature = "torch")]
pub use device::{best_device, cuda_is_available, device_name, load_cuda_backend};
pub use error::NetError;
#[cfg(feature = "torch")]
pub use evaluator::EvaluatorSettings;
pub use evaluator::{NetEvaluator, set_intra_op_threads};
pub use failure::{inject_failure_at_pass, on_device};
pub use host_batch::{HostBatch, ILLEGAL_LOGIT};
#[cfg(feature = "torch")]
pub use losses::{LossValues, LossWeights, Losses, Targets, losses};
#[cfg(feature = "torch")]
pub use model::Network;
#[cfg(feature = "torch")]
pub use precision::{InferencePrecision, Precision, autocast, autocast_is_on, bf16_is_fast_on};
pub use server::{InferenceServer, ServerClient};
pub use sidecar::{Activation, NetConfig, NetSize, Preset};
pub use simulated::SimulatedDevice;
#[cfg(feature = "torch")]
pub use tensors::{BatchInputs, Inputs, Output};
