//! Playing a trained network: bot bundles and a GTP engine.
//!
//! A [`Bundle`] is a folder that holds everything a bot needs (the weights, their checkpoint
//! sidecar, the game options and the search settings), so that a model can be shipped and
//! played without the run that trained it. [`Bot`] searches with the bundle's network;
//! [`gtp::GtpEngine`] speaks the Go Text Protocol over any reader and writer, so that GUIs,
//! tournament managers and tests drive it alike.

mod bot;
mod bundle;
mod error;
pub mod gtp;
mod settings;
mod untrained;

pub use bot::{Analysis, Bot, MoveStats, Runtime};
pub use bundle::{
    BOT_FILE, Bundle, ONNX_FILE, SIDECAR_FILE, WEIGHTS_FILE, game_of, onnx_of, options_of,
    weights_of, write_onnx, write_settings,
};
pub use error::PlayError;
pub use settings::{BotSettings, DEFAULT_VISITS, Level, LevelRating};
pub use untrained::tiny_config;
#[cfg(feature = "torch")]
pub use untrained::{save_generation_zero, save_untrained};
