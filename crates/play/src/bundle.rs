//! Bot bundles: a folder with the weights, their sidecar and `bot.toml`.
//!
//! Export copies the checkpoint's files byte for byte (so the sidecar keeps its training
//! provenance) and writes `bot.toml` last; every file goes to a temporary name first and is
//! renamed into place, so an interrupted export never leaves a bundle that looks complete.

use crate::error::{PlayError, io_error};
use crate::settings::{BotSettings, DEFAULT_VISITS};
use game::Game;
use sidecar::{Description, sidecar_path};
use std::fs;
use std::path::{Path, PathBuf};

/// The network's weights inside a bundle.
pub const WEIGHTS_FILE: &str = "model.safetensors";
/// The checkpoint sidecar inside a bundle (architecture, game options, provenance).
pub const SIDECAR_FILE: &str = "model.json";
/// The bot's search settings and game options inside a bundle.
pub const BOT_FILE: &str = "bot.toml";
/// The network as ONNX inside a bundle (`ghast export --onnx`), for runtimes without libtorch.
pub const ONNX_FILE: &str = "model.onnx";

/// A loaded, checked bot: what its network is, the network itself in a libtorch build (on the
/// CPU until a [`crate::Bot`] moves it), and how it plays. A build without libtorch reads the
/// network from the bundle's `model.onnx` when the bot starts.
#[derive(Debug)]
pub struct Bundle<G: Game> {
    /// The weights' sidecar: architecture, game options, where in training they come from.
    pub description: Description<G::Options>,
    #[cfg(feature = "torch")]
    pub network: nn::Network,
    pub settings: BotSettings<G::Options>,
    /// The folder or checkpoint file it was loaded from: names the bot.
    pub source: PathBuf,
    /// The weights file (its sidecar lies beside it), copied by [`Bundle::save`].
    pub weights: PathBuf,
}

impl<G: Game> Bundle<G> {
    /// A folder is read as a bundle ([`Bundle::load`]), anything else as a checkpoint's
    /// weights file with play settings and [`DEFAULT_VISITS`] ([`Bundle::from_checkpoint`]).
    pub fn open(path: &Path) -> Result<Self, PlayError> {
        weights_of(path)?;
        if path.is_dir() {
            Bundle::load(path)
        } else {
            Bundle::from_checkpoint(path, DEFAULT_VISITS)
        }
    }

    /// Loads the bundle in `dir`, checking that every file is there, that the weights load
    /// into the sidecar's architecture (in a libtorch build), and that `bot.toml` and the
    /// sidecar agree on the game.
    pub fn load(dir: &Path) -> Result<Self, PlayError> {
        if !dir.is_dir() {
            return Err(PlayError::Io {
                path: dir.to_owned(),
                action: "open the bundle folder",
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such folder"),
            });
        }
        for file in [BOT_FILE, WEIGHTS_FILE, SIDECAR_FILE] {
            if !dir.join(file).is_file() {
                return Err(PlayError::MissingFile {
                    dir: dir.to_owned(),
                    file: file.into(),
                });
            }
        }
        let settings_path = dir.join(BOT_FILE);
        let text = fs::read_to_string(&settings_path).map_err(io_error(&settings_path, "read"))?;
        let settings = BotSettings::parse::<G>(&text, &settings_path)?;
        let weights = dir.join(WEIGHTS_FILE);
        let description = describe::<G>(&weights)?;
        if description.provenance.game_options != settings.game_options {
            return Err(PlayError::GameMismatch {
                path: settings_path,
                detail: format!(
                    "game options {:?} differ from the checkpoint's {:?}",
                    settings.game_options, description.provenance.game_options
                ),
            });
        }
        Bundle::with(description, settings, dir.to_owned(), weights)
    }

    /// A bot straight from a checkpoint (`gen-0042.safetensors` and its sidecar), with play
    /// settings and `visits` per move: the arena rates generations without exporting each.
    pub fn from_checkpoint(weights: &Path, visits: u32) -> Result<Self, PlayError> {
        let description = describe::<G>(&weights_of(weights)?)?;
        let settings = BotSettings::new::<G>(description.provenance.game_options.clone(), visits)?;
        Bundle::with(
            description,
            settings,
            weights.to_owned(),
            weights.to_owned(),
        )
    }

    /// The bundle of `description`'s weights, loaded into its network in a libtorch build.
    fn with(
        description: Description<G::Options>,
        settings: BotSettings<G::Options>,
        source: PathBuf,
        weights: PathBuf,
    ) -> Result<Self, PlayError> {
        Ok(Bundle {
            #[cfg(feature = "torch")]
            network: nn::checkpoint::load::<G::Options>(&weights, G::NAME, tch::Device::Cpu)?
                .network,
            description,
            settings,
            source,
            weights,
        })
    }

    /// Writes a bundle of the checkpoint `weights` into `out` with play settings and `visits`
    /// per move, after checking that the checkpoint loads (its sidecar without libtorch);
    /// returns the bundle written.
    pub fn export(weights: &Path, out: &Path, visits: u32) -> Result<Self, PlayError> {
        let bundle = Bundle::from_checkpoint(weights, visits)?;
        bundle.save(out)?;
        Ok(bundle)
    }

    /// Writes this bot as a bundle into `out` (created if needed): the weights and sidecar
    /// it was loaded from, byte for byte, and its settings. A `model.onnx` already there is
    /// removed first, since it holds other weights ([`write_onnx`] writes the new one).
    pub fn save(&self, out: &Path) -> Result<(), PlayError> {
        fs::create_dir_all(out).map_err(io_error(out, "create the bundle folder"))?;
        let onnx = out.join(ONNX_FILE);
        durable::remove(&onnx).map_err(io_error(&onnx, "remove the stale"))?;
        copy_atomically(&self.weights, &out.join(WEIGHTS_FILE))?;
        let sidecar = sidecar_path(&self.weights);
        copy_atomically(&sidecar, &out.join(SIDECAR_FILE))?;
        write_atomically(&out.join(BOT_FILE), self.settings.to_toml().as_bytes())
    }
}

/// Replaces the `bot.toml` of the bundle folder `dir` with `settings` (its levels, measured
/// by the ladder), atomically.
pub fn write_settings<O: serde::Serialize + serde::de::DeserializeOwned>(
    dir: &Path,
    settings: &BotSettings<O>,
) -> Result<(), PlayError> {
    write_atomically(&dir.join(BOT_FILE), settings.to_toml().as_bytes())
}

/// Writes `model.onnx` into the bundle folder `dir` from its weights and sidecar, and returns
/// its path. Its metadata holds the game's name and the sidecar's text, so the file says on
/// its own what it plays.
pub fn write_onnx<G: Game>(dir: &Path) -> Result<PathBuf, PlayError> {
    let weights = weights_of(dir)?;
    let description = describe::<G>(&weights)?;
    let sidecar_path = sidecar_path(&weights);
    let sidecar = fs::read_to_string(&sidecar_path).map_err(io_error(&sidecar_path, "read"))?;
    let bytes = fs::read(&weights).map_err(io_error(&weights, "read"))?;
    let metadata = [("ghast.game", G::NAME), ("ghast.sidecar", sidecar.as_str())];
    let model = onnx::export(&description.architecture, &bytes, &metadata).map_err(|source| {
        PlayError::Onnx {
            weights: weights.clone(),
            source,
        }
    })?;
    let path = dir.join(ONNX_FILE);
    write_atomically(&path, &model)?;
    Ok(path)
}

/// The `model.onnx` of the bundle folder `dir`, or an error that says how to write it.
pub fn onnx_of(dir: &Path) -> Result<PathBuf, PlayError> {
    let model = dir.join(ONNX_FILE);
    if !model.is_file() {
        return Err(PlayError::NoOnnx {
            dir: dir.to_owned(),
        });
    }
    Ok(model)
}

/// The name of the game the bot in `path` (a bundle folder or a checkpoint's weights file)
/// plays, from the weights' sidecar, so that a tool can open it as that game.
pub fn game_of(path: &Path) -> Result<String, PlayError> {
    Ok(sidecar::game_of(&weights_of(path)?).map_err(nn::NetError::from)?)
}

/// The game options a bundle folder or checkpoint file plays with, read from its sidecar
/// without loading the weights (a bundle's `bot.toml` must agree, see [`Bundle::load`]).
pub fn options_of<G: Game>(path: &Path) -> Result<G::Options, PlayError> {
    Ok(describe::<G>(&weights_of(path)?)?.provenance.game_options)
}

/// The weights file of a bundle folder, or the checkpoint file itself; the error says what a
/// bot is when `path` is neither, and which file a bundle or a checkpoint lacks.
pub fn weights_of(path: &Path) -> Result<PathBuf, PlayError> {
    if path.is_dir() {
        for file in [WEIGHTS_FILE, SIDECAR_FILE] {
            if !path.join(file).is_file() {
                return Err(PlayError::MissingFile {
                    dir: path.to_owned(),
                    file: file.into(),
                });
            }
        }
        return Ok(path.join(WEIGHTS_FILE));
    }
    if !path.is_file() || path.extension().is_none_or(|e| e != "safetensors") {
        return Err(PlayError::NoBot {
            path: path.to_owned(),
        });
    }
    let sidecar = sidecar_path(path);
    if !sidecar.is_file() {
        return Err(PlayError::NoSidecar {
            weights: path.to_owned(),
            sidecar,
        });
    }
    Ok(path.to_owned())
}

/// The sidecar of `weights`, which must be a network of `G`.
fn describe<G: Game>(weights: &Path) -> Result<Description<G::Options>, PlayError> {
    Ok(sidecar::describe::<G::Options>(weights, G::NAME).map_err(nn::NetError::from)?)
}

fn copy_atomically(from: &Path, to: &Path) -> Result<(), PlayError> {
    let bytes = fs::read(from).map_err(io_error(from, "read"))?;
    write_atomically(to, &bytes)
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), PlayError> {
    durable::write(path, bytes).map_err(io_error(path, "write"))
}
