//! Checkpoints: weights as safetensors plus a JSON sidecar that says what they are.
//!
//! `model.safetensors` holds only the network's variables (no optimizer state: the trainer
//! keeps its own); `model.json` holds the architecture, the game and where in training the
//! weights come from. Both are written durably and atomically (`durable`), so a reader never
//! sees a half-written file.

use crate::error::NetError;
use crate::model::Network;
use serde::{Serialize, de::DeserializeOwned};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use tch::{Device, Tensor};

pub use sidecar::{Description, FORMAT_VERSION, Provenance, describe, game_of, sidecar_path};

/// A loaded checkpoint.
#[derive(Debug)]
pub struct Checkpoint<O> {
    pub network: Network,
    pub provenance: Provenance<O>,
    /// Seconds since the Unix epoch when it was saved.
    pub unix_time: u64,
}

/// Saves `network` to `weights` (which must end in `.safetensors`) and its sidecar.
pub fn save<O: Serialize>(
    network: &Network,
    provenance: &Provenance<O>,
    weights: &Path,
) -> Result<(), NetError> {
    sidecar::check_weights_path(weights)?;
    // The weights go first: a checkpoint counts only once its sidecar is there too, so a kill
    // between the two leaves weights that nothing reads and the next save replaces.
    save_weights(network, weights)?;
    Ok(sidecar::write(weights, network.config(), provenance)?)
}

/// Loads a checkpoint of game `game` onto `device`: reads the sidecar, builds the network it
/// describes and fills it with the weights, after checking that every tensor is there with
/// the right shape and that there are no others.
pub fn load<O: DeserializeOwned>(
    weights: &Path,
    game: &str,
    device: Device,
) -> Result<Checkpoint<O>, NetError> {
    let description = describe(weights, game)?;
    let network = Network::new(description.architecture, device);
    let stored: HashMap<String, Tensor> = Tensor::read_safetensors(weights)
        .map_err(|source| NetError::Weights {
            path: weights.to_owned(),
            source,
        })?
        .into_iter()
        .collect();
    copy_checked(&network, &stored).map_err(|detail| NetError::Architecture {
        path: weights.to_owned(),
        detail,
    })?;
    Ok(Checkpoint {
        network,
        provenance: description.provenance,
        unix_time: description.unix_time,
    })
}

/// Saves `network`'s variables alone to `path`, with no sidecar: state that only the code that
/// wrote it reads back (the trainer's own weights beside an averaged generation).
pub fn save_weights(network: &Network, path: &Path) -> Result<(), NetError> {
    let tensors: Vec<(String, Tensor)> = network
        .var_store()
        .variables()
        .into_iter()
        .map(|(name, tensor)| (name, tensor.to_device(Device::Cpu)))
        .collect();
    durable::write_with(path, |temporary| {
        Tensor::write_safetensors(&tensors, temporary).map_err(std::io::Error::other)
    })
    .map_err(|source| NetError::Io {
        path: path.to_owned(),
        action: "write",
        source,
    })
}

/// Reads weights [`save_weights`] wrote into `network`, whose architecture they must have.
pub fn load_weights(network: &Network, path: &Path) -> Result<(), NetError> {
    let stored: HashMap<String, Tensor> = Tensor::read_safetensors(path)
        .map_err(|source| NetError::Weights {
            path: path.to_owned(),
            source,
        })?
        .into_iter()
        .map(|(name, tensor)| (name, tensor.to_device(network.device())))
        .collect();
    copy_checked(network, &stored).map_err(|detail| NetError::Architecture {
        path: path.to_owned(),
        detail,
    })
}

/// Copies `stored` into the network's variables if names and shapes match exactly; otherwise
/// says which do not. (tch's own `VarStore::load` would accept a broadcastable shape.)
fn copy_checked(network: &Network, stored: &HashMap<String, Tensor>) -> Result<(), String> {
    let variables = network.var_store().variables();
    let mut problems: Vec<String> = stored
        .keys()
        .filter(|name| !variables.contains_key(*name))
        .map(|name| format!("unexpected tensor `{name}`"))
        .collect();
    for (name, variable) in &variables {
        match stored.get(name) {
            None => problems.push(format!("missing tensor `{name}`")),
            Some(tensor) if !tensor.is_floating_point() => problems.push(format!(
                "tensor `{name}` is {:?}, not floating point",
                tensor.kind()
            )),
            Some(tensor) if tensor.size() != variable.size() => problems.push(format!(
                "tensor `{name}` has shape {:?}, the network needs {:?}",
                tensor.size(),
                variable.size()
            )),
            Some(_) => {}
        }
    }
    if !problems.is_empty() {
        let problems: BTreeSet<String> = problems.into_iter().collect();
        let shown: Vec<&str> = problems.iter().take(5).map(String::as_str).collect();
        let more = problems.len().saturating_sub(shown.len());
        let suffix = if more > 0 {
            format!(" (and {more} more)")
        } else {
            String::new()
        };
        return Err(format!("{}{suffix}", shown.join("; ")));
    }
    tch::no_grad(|| {
        for (name, mut variable) in variables {
            variable.copy_(&stored[&name]);
        }
    });
    Ok(())
}
