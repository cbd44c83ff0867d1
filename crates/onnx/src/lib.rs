//! The policy/value network as an ONNX model (`model.onnx` in a bot bundle), for runtimes
//! outside the training stack: onnxruntime, tract, TensorRT.
//!
//! The graph is written here, from a checkpoint's weights (safetensors) and the architecture
//! its sidecar gives, rather than traced by libtorch and converted by torch.onnx: exporting
//! then needs neither libtorch nor Python, the graph holds only operators that every runtime
//! runs (opset 13: Conv, BatchNormalization, Relu, Sigmoid, Tanh, Gemm, ReduceSum, ReduceMax,
//! Softmax and shape plumbing), and the batch, the grid and the action count stay dynamic, so
//! one file serves every board size the network reads. The price is a second description of
//! the network beside `nn::model`'s; `tests/onnx_export.rs` runs both on random positions of
//! every game and holds their outputs within 1e-4.
//!
//! Inputs, by name: `planes` `[batch, channels, height, width]`, `board_mask`
//! `[batch, height, width]`, `illegal_bias` `[batch, actions]`. Outputs: `policy` and (where
//! the net has one) `soft_policy` `[batch, actions]` probabilities, `wdl` `[batch, 3]`
//! probabilities, `lead` `[batch]` and `ownership` `[batch, height, width]`. The model's
//! metadata carries the checkpoint's sidecar, so the file says what it is on its own.

mod graph;
mod network;
pub mod proto;
mod weights;

use prost::Message;
use sidecar::NetConfig;
use thiserror::Error;

/// The inputs of every exported model, in order.
pub const INPUTS: [&str; 3] = ["planes", "board_mask", "illegal_bias"];

/// The ONNX operator set the graph is written against, and the IR version that goes with it.
pub const OPSET: i64 = 13;
const IR_VERSION: i64 = 7;

/// Why a checkpoint could not be written as ONNX.
#[derive(Debug, Error)]
pub enum OnnxError {
    #[error("the architecture is invalid: {0}")]
    Architecture(String),
    #[error("the weights: {detail}")]
    Weights { detail: String },
    #[error("the weights' tensor `{name}`: {detail}")]
    Tensor { name: String, detail: String },
}

/// The ONNX model of the network `architecture` with the weights in `safetensors` (the
/// bytes of a checkpoint's `.safetensors` file), its metadata `metadata` (key, value). The
/// same inputs give the same bytes, so a bundle's file can be checked against its weights.
pub fn export(
    architecture: &NetConfig,
    safetensors: &[u8],
    metadata: &[(&str, &str)],
) -> Result<Vec<u8>, OnnxError> {
    architecture.validate().map_err(OnnxError::Architecture)?;
    let mut weights = weights::Weights::parse(safetensors)?;
    let graph = network::build(architecture, &mut weights)?;
    let model = proto::ModelProto {
        ir_version: IR_VERSION,
        producer_name: "ghast".into(),
        producer_version: env!("CARGO_PKG_VERSION").into(),
        doc_string: "A KataGo-style residual policy/value network trained by ghast's \
                     self-play; the inputs' and outputs' documentation says what each holds."
            .into(),
        graph: Some(graph.into_proto("network", "")),
        opset_import: vec![proto::OperatorSetIdProto {
            domain: String::new(),
            version: OPSET,
        }],
        metadata_props: metadata
            .iter()
            .map(|&(key, value)| proto::StringStringEntryProto {
                key: key.into(),
                value: value.into(),
            })
            .collect(),
    };
    Ok(model.encode_to_vec())
}

/// Reads a model's metadata back (key, value), or says why the bytes are no ONNX model.
pub fn metadata(model: &[u8]) -> Result<Vec<(String, String)>, String> {
    let model = proto::ModelProto::decode(model).map_err(|e| format!("not an ONNX model: {e}"))?;
    Ok(model
        .metadata_props
        .into_iter()
        .map(|entry| (entry.key, entry.value))
        .collect())
}
