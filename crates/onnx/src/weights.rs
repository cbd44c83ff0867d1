//! A checkpoint's tensors, read from safetensors and checked against the shapes the
//! architecture gives them.

use crate::OnnxError;
use safetensors::{Dtype, SafeTensors};
use std::collections::BTreeSet;

/// The tensors of a checkpoint by the names libtorch's variable store gives them
/// (`tower.0.first.conv.weight`); every one must be read exactly once, so that a tensor the
/// graph does not use is an error, not a silently different network.
pub(crate) struct Weights<'a> {
    tensors: SafeTensors<'a>,
    unread: BTreeSet<String>,
}

/// One tensor, as f32 values, row-major.
pub(crate) struct Tensor {
    pub(crate) shape: Vec<usize>,
    pub(crate) values: Vec<f32>,
}

impl<'a> Weights<'a> {
    pub(crate) fn parse(bytes: &'a [u8]) -> Result<Weights<'a>, OnnxError> {
        let tensors = SafeTensors::deserialize(bytes).map_err(|e| OnnxError::Weights {
            detail: format!("not a safetensors file: {e:?}"),
        })?;
        let unread = tensors.names().into_iter().cloned().collect();
        Ok(Weights { tensors, unread })
    }

    /// The tensor `name`, which must have shape `shape` and be f32.
    pub(crate) fn get(&mut self, name: &str, shape: &[usize]) -> Result<Tensor, OnnxError> {
        let error = |detail: String| OnnxError::Tensor {
            name: name.to_owned(),
            detail,
        };
        let view = self
            .tensors
            .tensor(name)
            .map_err(|_| error("missing from the weights".into()))?;
        if view.dtype() != Dtype::F32 {
            return Err(error(format!("{:?}, where f32 was expected", view.dtype())));
        }
        if view.shape() != shape {
            return Err(error(format!(
                "shape {:?}, where the sidecar's architecture has {shape:?}",
                view.shape()
            )));
        }
        self.unread.remove(name);
        let values = view
            .data()
            .chunks_exact(4)
            .map(|bytes| f32::from_le_bytes(bytes.try_into().expect("4 bytes")))
            .collect();
        Ok(Tensor {
            shape: shape.to_vec(),
            values,
        })
    }

    /// Marks the tensors under `prefixes` read, for parts of the network that a graph
    /// leaves out because nothing it outputs depends on them.
    pub(crate) fn unused(&mut self, prefixes: &[&str]) {
        self.unread
            .retain(|name| !prefixes.iter().any(|prefix| name.starts_with(prefix)));
    }

    /// Fails if a tensor was never read.
    pub(crate) fn all_read(&self) -> Result<(), OnnxError> {
        let unread = &self.unread;
        match unread.first() {
            None => Ok(()),
            Some(name) => Err(OnnxError::Tensor {
                name: name.clone(),
                detail: format!(
                    "in the weights but not in the sidecar's architecture ({} such)",
                    unread.len()
                ),
            }),
        }
    }
}
