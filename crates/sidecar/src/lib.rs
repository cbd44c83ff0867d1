//! A checkpoint's sidecar: `gen-NNNN.json` beside `gen-NNNN.safetensors`, saying what the
//! weights are (the architecture, the game and its options, where in training they come
//! from). Here, apart from the network, so that tools that list or check checkpoints (a run's
//! layout, the ladder) read them without linking libtorch.

mod architecture;

pub use architecture::{Activation, NetConfig, NetSize, POOLED_FEATURES, Preset, WDL};

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use thiserror::Error;

/// Bumped whenever the sidecar or the variable naming changes incompatibly.
pub const FORMAT_VERSION: u32 = 1;

/// Why a sidecar could not be read or written; every variant names the file.
#[derive(Debug, Error)]
pub enum SidecarError {
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },

    #[error("{}: a checkpoint's weights must be a `.safetensors` file", path.display())]
    WeightsPath { path: PathBuf },

    #[error("{}: not a network checkpoint sidecar: {source}", path.display())]
    Parse {
        path: PathBuf,
        source: serde_json::Error,
    },

    #[error("{}: checkpoint format version {found}, this build reads version {expected}", path.display())]
    FormatVersion {
        path: PathBuf,
        found: u32,
        expected: u32,
    },

    #[error("{}: checkpoint is for game `{found}`, not `{expected}`", path.display())]
    WrongGame {
        path: PathBuf,
        found: String,
        expected: String,
    },

    #[error("{}: not a network this build can make: {reason}", path.display())]
    Architecture { path: PathBuf, reason: String },

    #[error("{}: game options do not fit this game: {source}", path.display())]
    GameOptions {
        path: PathBuf,
        source: serde_json::Error,
    },
}

/// Where a set of weights comes from, stored beside the architecture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance<O> {
    /// The game's name, checked on load so that a model of one game never plays another.
    pub game: String,
    pub game_options: O,
    pub generation: u64,
    pub training_step: u64,
    /// Seconds the run had been running when it saved this checkpoint, summed over its
    /// resumes (so time a killed run lay stopped does not count); `None` in checkpoints that
    /// do not come from a run, and in sidecars written before it was recorded.
    pub run_seconds: Option<u64>,
}

/// What a checkpoint's sidecar says about its weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Description<O> {
    pub architecture: NetConfig,
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    run_seconds: Option<u64>,
}

/// The sidecar that belongs to a weights file: same name, `.json` extension.
pub fn sidecar_path(weights: &Path) -> PathBuf {
    weights.with_extension("json")
}

/// Checks that `weights` names a `.safetensors` file.
pub fn check_weights_path(weights: &Path) -> Result<(), SidecarError> {
    match weights.extension() {
        Some(extension) if extension == "safetensors" => Ok(()),
        _ => Err(SidecarError::WeightsPath {
            path: weights.to_owned(),
        }),
    }
}

/// Writes the sidecar of `weights`, durably and atomically, stamped with the time now. Write
/// it after the weights: a checkpoint counts only once its sidecar is there too.
pub fn write<O: Serialize>(
    weights: &Path,
    architecture: &NetConfig,
    provenance: &Provenance<O>,
) -> Result<(), SidecarError> {
    check_weights_path(weights)?;
    let unix_time = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let sidecar = Sidecar {
        format_version: FORMAT_VERSION,
        architecture: architecture.clone(),
        game: provenance.game.clone(),
        game_options: &provenance.game_options,
        generation: provenance.generation,
        training_step: provenance.training_step,
        unix_time,
        run_seconds: provenance.run_seconds,
    };
    let json = serde_json::to_vec_pretty(&sidecar).expect("a sidecar always serialises");
    let path = sidecar_path(weights);
    durable::write(&path, &json).map_err(|source| SidecarError::Io {
        path,
        action: "write",
        source,
    })
}

/// The name of the game a checkpoint was trained for: what a tool that plays several games
/// opens it as.
pub fn game_of(weights: &Path) -> Result<String, SidecarError> {
    #[derive(Deserialize)]
    struct GameField {
        game: String,
    }
    let (path, text) = read(weights)?;
    let field: GameField =
        serde_json::from_slice(&text).map_err(|source| SidecarError::Parse { path, source })?;
    Ok(field.game)
}

/// Reads the sidecar of `weights`, a checkpoint of game `game`, without touching the weights.
pub fn describe<O: DeserializeOwned>(
    weights: &Path,
    game: &str,
) -> Result<Description<O>, SidecarError> {
    check_weights_path(weights)?;
    let (path, text) = read(weights)?;
    let sidecar: Sidecar<serde_json::Value> =
        serde_json::from_slice(&text).map_err(|source| SidecarError::Parse {
            path: path.clone(),
            source,
        })?;
    if sidecar.format_version != FORMAT_VERSION {
        return Err(SidecarError::FormatVersion {
            path,
            found: sidecar.format_version,
            expected: FORMAT_VERSION,
        });
    }
    if sidecar.game != game {
        return Err(SidecarError::WrongGame {
            path,
            found: sidecar.game,
            expected: game.to_owned(),
        });
    }
    sidecar
        .architecture
        .validate()
        .map_err(|reason| SidecarError::Architecture {
            path: path.clone(),
            reason,
        })?;
    let game_options = serde_json::from_value(sidecar.game_options)
        .map_err(|source| SidecarError::GameOptions { path, source })?;
    Ok(Description {
        architecture: sidecar.architecture,
        provenance: Provenance {
            game: sidecar.game,
            game_options,
            generation: sidecar.generation,
            training_step: sidecar.training_step,
            run_seconds: sidecar.run_seconds,
        },
        unix_time: sidecar.unix_time,
    })
}

/// The sidecar's path and bytes.
fn read(weights: &Path) -> Result<(PathBuf, Vec<u8>), SidecarError> {
    let path = sidecar_path(weights);
    match fs::read(&path) {
        Ok(text) => Ok((path, text)),
        Err(source) => Err(SidecarError::Io {
            path,
            action: "read",
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::PolicyLayout;

    #[test]
    fn a_written_sidecar_describes_its_weights_and_names_its_game() {
        let dir = tempfile::tempdir().unwrap();
        let weights = dir.path().join("gen-0003.safetensors");
        let layout = PolicyLayout {
            spatial_planes: 1,
            global_actions: 2,
        };
        let architecture = NetConfig::preset(Preset::Tiny, 4, layout);
        let provenance = Provenance {
            game: "toy".to_owned(),
            game_options: vec![1, 2],
            generation: 3,
            training_step: 300,
            run_seconds: Some(42),
        };
        write(&weights, &architecture, &provenance).unwrap();
        assert_eq!(game_of(&weights).unwrap(), "toy");
        let description = describe::<Vec<i32>>(&weights, "toy").unwrap();
        assert_eq!(description.architecture, architecture);
        assert_eq!(description.provenance, provenance);
        let other = describe::<Vec<i32>>(&weights, "go")
            .unwrap_err()
            .to_string();
        assert!(
            other.ends_with("checkpoint is for game `toy`, not `go`"),
            "{other}"
        );
        let bad = describe::<String>(&weights, "toy").unwrap_err().to_string();
        assert!(bad.contains("game options do not fit this game"), "{bad}");
        assert!(write(&dir.path().join("w.pt"), &architecture, &provenance).is_err());
    }
}
