//! The policy/value network for any [`game::Planes`] game: a KataGo-style residual tower with
//! global pooling, its training losses, batched inference for search, and checkpoints.
//!
//! Nothing here knows a particular game: the input planes, the board mask, the legal actions
//! and the policy layout all come through the `game` traits. A simulated accelerator
//! ([`SimulatedDevice`]) can stand in for the network where a GPU is to be measured without one.

mod backend;
pub mod bench;
pub mod checkpoint;
mod device;
mod error;
mod evaluator;
mod failure;
mod host_batch;
mod losses;
mod model;
mod onnx_model;
mod outputs;
mod server;
mod simulated;
mod tensors;

pub use device::{DeviceChoice, best_device, cuda_is_available, device_name, load_cuda_backend};
pub use error::NetError;
pub use evaluator::{EvaluatorSettings, NetEvaluator, set_intra_op_threads};
pub use failure::{inject_failure_at_pass, on_device};
pub use host_batch::{BatchInputs, HostBatch};
pub use losses::{LossValues, LossWeights, Losses, Targets, losses};
pub use model::{ILLEGAL_LOGIT, Network};
pub use server::{InferenceServer, ServerClient};
pub use sidecar::{Activation, NetConfig, NetSize, Preset};
pub use simulated::SimulatedDevice;
pub use tensors::{Inputs, Output};
