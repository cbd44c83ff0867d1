//! The ONNX backend: a bundle's `model.onnx` (crates/onnx writes it) run by tract on the CPU,
//! with no libtorch in the pass. tract optimises a graph best for concrete shapes, so each
//! batch shape (rows, grid, actions) gets its own plan, made on first use; the evaluator pads
//! batches to a few buckets, so there are only a few.

use crate::error::NetError;
use crate::host_batch::HostBatch;
use crate::outputs::Outputs;
use sidecar::NetConfig;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tract_onnx::prelude::{
    Datum, Framework, InferenceFact, InferenceModel, InferenceModelExt, IntoRunnable, IntoTValue,
    TValue, Tensor as TractTensor, TypedRunnableModel, tvec,
};

/// A loaded `model.onnx` and its plans by batch shape.
pub(crate) struct OnnxModel {
    path: PathBuf,
    model: InferenceModel,
    /// The architecture from the model's metadata (the checkpoint's sidecar).
    architecture: NetConfig,
    /// Plans by `[rows, height, width, actions]`.
    plans: Mutex<HashMap<[usize; 4], Arc<TypedRunnableModel>>>,
}

impl std::fmt::Debug for OnnxModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxModel")
            .field("path", &self.path)
            .finish()
    }
}

impl OnnxModel {
    /// Reads `path`, a `model.onnx` that `ghast export --onnx` wrote for the game `game`.
    pub(crate) fn load(path: &Path, game: &str) -> Result<OnnxModel, NetError> {
        let error = |detail: String| NetError::Onnx {
            path: path.to_owned(),
            detail,
        };
        let bytes = std::fs::read(path).map_err(|source| NetError::Io {
            path: path.to_owned(),
            action: "read",
            source,
        })?;
        let metadata = onnx::metadata(&bytes).map_err(error)?;
        let field = |key: &str| {
            metadata
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, value)| value.as_str())
                .ok_or_else(|| error(format!("no `{key}` in its metadata: not written by ghast")))
        };
        let written_for = field("ghast.game")?;
        if written_for != game {
            return Err(error(format!("a network of {written_for}, not of {game}")));
        }
        let sidecar: serde_json::Value = serde_json::from_str(field("ghast.sidecar")?)
            .map_err(|e| error(format!("its sidecar metadata is not JSON: {e}")))?;
        let architecture: NetConfig = serde_json::from_value(sidecar["architecture"].clone())
            .map_err(|e| error(format!("its sidecar metadata has no architecture: {e}")))?;
        let model = tract_onnx::onnx()
            .model_for_read(&mut bytes.as_slice())
            .map_err(|e| error(format!("{e:#}")))?;
        Ok(OnnxModel {
            path: path.to_owned(),
            model,
            architecture,
            plans: Mutex::new(HashMap::new()),
        })
    }

    pub(crate) fn architecture(&self) -> &NetConfig {
        &self.architecture
    }

    /// Runs the batch in `host` (its first `used` rows positions), leaving the outputs of
    /// those rows in `out`, ownership too where asked.
    pub(crate) fn forward(
        &self,
        host: &HostBatch,
        used: usize,
        ownership: bool,
        out: &mut Outputs,
    ) -> Result<(), String> {
        let (shape, actions) = host.layout().expect("an encoded batch");
        let rows = host.rows();
        let plan = self.plan([rows, shape.height, shape.width, actions])?;
        let tensor = |dims: &[usize], values: &[f32]| -> Result<TValue, String> {
            TractTensor::from_shape(dims, values)
                .map(|t| t.into_tvalue())
                .map_err(|e| format!("{e:#}"))
        };
        let (h, w) = (shape.height, shape.width);
        let inputs = tvec![
            tensor(&[rows, shape.channels, h, w], host.planes())?,
            tensor(&[rows, h, w], host.board_mask())?,
            tensor(&[rows, actions], host.illegal_bias())?,
        ];
        let outputs = plan.run(inputs).map_err(|e| format!("{e:#}"))?;
        // policy, the soft policy where there is one, wdl, lead, ownership: crates/onnx's order.
        let last = outputs.len() - 1;
        let floats = |index: usize, values: usize| -> Result<&[f32], String> {
            let all = outputs[index]
                .try_as_plain_ram()
                .and_then(|view| view.as_slice::<f32>())
                .map_err(|e| format!("{e:#}"))?;
            Ok(&all[..values])
        };
        copy(floats(0, used * actions)?, &mut out.policy);
        copy(floats(last - 2, used * 3)?, &mut out.wdl);
        copy(floats(last - 1, used)?, &mut out.lead);
        if ownership {
            copy(floats(last, used * h * w)?, &mut out.ownership);
        } else {
            out.ownership.clear();
        }
        Ok(())
    }

    /// The plan for `[rows, height, width, actions]`, made the first time it is asked for.
    fn plan(&self, key: [usize; 4]) -> Result<Arc<TypedRunnableModel>, String> {
        let mut plans = self
            .plans
            .lock()
            .expect("no plan maker panics holding the lock");
        if let Some(plan) = plans.get(&key) {
            return Ok(plan.clone());
        }
        let [rows, h, w, actions] = key;
        let channels = self.architecture.input_channels;
        let fact = |dims: &[usize]| InferenceFact::dt_shape(f32::datum_type(), dims);
        let plan = self
            .model
            .clone()
            .with_input_fact(0, fact(&[rows, channels, h, w]))
            .and_then(|m| m.with_input_fact(1, fact(&[rows, h, w])))
            .and_then(|m| m.with_input_fact(2, fact(&[rows, actions])))
            .and_then(|m| m.into_optimized())
            .and_then(|m| m.into_runnable())
            .map_err(|e| format!("cannot plan a batch of {rows} on {h} x {w}: {e:#}"))?;
        plans.insert(key, plan.clone());
        Ok(plan)
    }
}

fn copy(values: &[f32], buffer: &mut Vec<f32>) {
    buffer.clear();
    buffer.extend_from_slice(values);
}
