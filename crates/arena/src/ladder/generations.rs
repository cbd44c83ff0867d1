//! The generation checkpoints of a training run: `RUN/models/gen-NNNN.safetensors`, each with
//! a JSON sidecar that gives its generation, game options and the unix time it was saved.

use game::Game;
use ghast::{Ghast, GhastOptions};
use serde::Deserialize;
use std::fs;
use std::path::{Path, PathBuf};

/// One checkpoint of a run, read from its sidecar without loading the weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    pub generation: u64,
    pub weights: PathBuf,
    pub game_options: GhastOptions,
    /// Seconds since the Unix epoch when the checkpoint was saved.
    pub unix_time: u64,
}

/// The sidecar fields the ladder needs (nn's sidecar has more; they are ignored).
#[derive(Deserialize)]
struct Sidecar {
    generation: u64,
    game_options: GhastOptions,
    unix_time: u64,
}

/// Every `gen-*.safetensors` under `models`, by generation; an error names the file at fault.
pub fn find_generations(models: &Path) -> Result<Vec<Generation>, String> {
    let entries = fs::read_dir(models).map_err(|e| format!("{}: {e}", models.display()))?;
    let mut generations = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("{}: {e}", models.display()))?
            .path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if !(name.starts_with("gen-") && name.ends_with(".safetensors")) {
            continue;
        }
        let sidecar_path = nn::checkpoint::sidecar_path(&path);
        let game = nn::checkpoint::game_of(&path).map_err(|e| e.to_string())?;
        if game != Ghast::NAME {
            return Err(format!(
                "{}: a checkpoint of {game}; the ladder rates Ghast runs only so far",
                sidecar_path.display()
            ));
        }
        let text =
            fs::read(&sidecar_path).map_err(|e| format!("{}: {e}", sidecar_path.display()))?;
        let sidecar: Sidecar = serde_json::from_slice(&text)
            .map_err(|e| format!("{}: not a checkpoint sidecar: {e}", sidecar_path.display()))?;
        generations.push(Generation {
            generation: sidecar.generation,
            weights: path,
            game_options: sidecar.game_options,
            unix_time: sidecar.unix_time,
        });
    }
    generations.sort_by_key(|g| g.generation);
    Ok(generations)
}
