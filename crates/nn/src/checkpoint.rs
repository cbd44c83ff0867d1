//! Checkpoints: weights as safetensors plus a JSON sidecar that says what they are.
//!
//! `model.safetensors` holds only the network's variables (no optimizer state: the trainer
//! keeps its own); `model.json` holds the architecture, the game and where in training the
//! weights come from. Both are written durably and atomically (`durable`), so a reader never
//! sees a half-written file.

use crate::config::NetConfig;
use crate::error::NetError;
use crate::model::Network;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use tch::{Device, Tensor};

/// Bumped whenever the sidecar or the variable naming changes incompatibly.
pub const FORMAT_VERSION: u32 = 1;

/// Where a set of weights comes from, stored beside the architecture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance<O> {
    /// The game's name, checked on load so that a model of one game never plays another.
    pub game: String,
    pub game_options: O,
    pub generation: u64,
    pub training_step: u64,
}

/// A loaded checkpoint.
#[derive(Debug)]
pub struct Checkpoint<O> {
    pub network: Network,
    pub provenance: Provenance<O>,
    /// Seconds since the Unix epoch when it was saved.
    pub unix_time: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sidecar<O> {
    format_version: u32,
    architecture: NetConfig,
    game: String,
    game_options: O,
    generation: u64,
    training_step: u64,
    unix_time: u64,
}

/// The sidecar that belongs to a weights file: same name, `.json` extension.
pub fn sidecar_path(weights: &Path) -> PathBuf {
    weights.with_extension("json")
}

/// Saves `network` to `weights` (which must end in `.safetensors`) and its sidecar.
pub fn save<O: Serialize>(
    network: &Network,
    provenance: &Provenance<O>,
    weights: &Path,
) -> Result<(), NetError> {
    check_weights_path(weights)?;
    let unix_time = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let sidecar = Sidecar {
        format_version: FORMAT_VERSION,
        architecture: network.config().clone(),
        game: provenance.game.clone(),
        game_options: &provenance.game_options,
        generation: provenance.generation,
        training_step: provenance.training_step,
        unix_time,
    };
    let json = serde_json::to_vec_pretty(&sidecar).expect("a sidecar always serialises");
    let tensors: Vec<(String, Tensor)> = network
        .var_store()
        .variables()
        .into_iter()
        .map(|(name, tensor)| (name, tensor.to_device(Device::Cpu)))
        .collect();

    // The weights go first: a checkpoint counts only once its sidecar is there too, so a kill
    // between the two leaves weights that nothing reads and the next save replaces.
    durable::write_with(weights, |temporary| {
        Tensor::write_safetensors(&tensors, temporary).map_err(std::io::Error::other)
    })
    .map_err(io_error(weights, "write"))?;
    let sidecar = sidecar_path(weights);
    durable::write(&sidecar, &json).map_err(io_error(&sidecar, "write"))
}

/// The name of the game a checkpoint was trained for, read from its sidecar: what a tool
/// that plays several games opens it as.
pub fn game_of(weights: &Path) -> Result<String, NetError> {
    #[derive(Deserialize)]
    struct GameField {
        game: String,
    }
    let sidecar_file = sidecar_path(weights);
    let text = fs::read(&sidecar_file).map_err(io_error(&sidecar_file, "read"))?;
    let field: GameField = serde_json::from_slice(&text).map_err(|source| NetError::Sidecar {
        path: sidecar_file,
        source,
    })?;
    Ok(field.game)
}

/// What a checkpoint's sidecar says about its weights, read without loading them.
#[derive(Clone, Debug, PartialEq)]
pub struct Description<O> {
    pub architecture: NetConfig,
    pub provenance: Provenance<O>,
    /// Seconds since the Unix epoch when it was saved.
    pub unix_time: u64,
}

/// Reads the sidecar of `weights`, a checkpoint of game `game`, without touching the weights:
/// for tools that list checkpoints (the ladder) and for [`load`].
pub fn describe<O: DeserializeOwned>(
    weights: &Path,
    game: &str,
) -> Result<Description<O>, NetError> {
    check_weights_path(weights)?;
    let sidecar_file = sidecar_path(weights);
    let text = fs::read(&sidecar_file).map_err(io_error(&sidecar_file, "read"))?;
    let sidecar: Sidecar<serde_json::Value> =
        serde_json::from_slice(&text).map_err(|source| NetError::Sidecar {
            path: sidecar_file.clone(),
            source,
        })?;
    if sidecar.format_version != FORMAT_VERSION {
        return Err(NetError::FormatVersion {
            path: sidecar_file,
            found: sidecar.format_version,
            expected: FORMAT_VERSION,
        });
    }
    if sidecar.game != game {
        return Err(NetError::WrongGame {
            path: sidecar_file,
            found: sidecar.game,
            expected: game.to_owned(),
        });
    }
    let game_options =
        serde_json::from_value(sidecar.game_options).map_err(|source| NetError::GameOptions {
            path: sidecar_file,
            source,
        })?;
    Ok(Description {
        architecture: sidecar.architecture,
        provenance: Provenance {
            game: sidecar.game,
            game_options,
            generation: sidecar.generation,
            training_step: sidecar.training_step,
        },
        unix_time: sidecar.unix_time,
    })
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

fn check_weights_path(weights: &Path) -> Result<(), NetError> {
    match weights.extension() {
        Some(extension) if extension == "safetensors" => Ok(()),
        _ => Err(NetError::WeightsPath {
            path: weights.to_owned(),
        }),
    }
}

/// A sibling name that no reader looks for.
fn io_error(path: &Path, action: &'static str) -> impl FnOnce(std::io::Error) -> NetError {
    let path = path.to_owned();
    move |source| NetError::Io {
        path,
        action,
        source,
    }
}
