//! A tiny untrained bot on a small board, exported as a bundle into a temporary folder.
#![allow(dead_code)] // Each test binary uses a different part of this module.

use ghast::{GhastOptions, RawOptions};
use play::{Bot, Bundle, gtp::GtpEngine};
use std::path::{Path, PathBuf};
use tch::Device;

/// Size 3 with a short game, so that whole games take a few dozen moves.
pub fn small_options(vetoes: [i64; 2]) -> GhastOptions {
    RawOptions {
        size: 3,
        win_margin: 3,
        vetoes,
        max_turns: Some(30),
        ..RawOptions::default()
    }
    .validate()
    .unwrap()
}

/// Saves an untrained tiny network for `options` in `dir` and returns its weights file.
pub fn checkpoint(dir: &Path, options: &GhastOptions) -> PathBuf {
    let weights = dir.join("gen-0000.safetensors");
    play::save_untrained::<ghast::Ghast>(
        &weights,
        options,
        play::tiny_config::<ghast::Ghast>(options),
    )
    .unwrap();
    weights
}

/// Exports a tiny bundle for `options` with `visits` into `dir/bot` and returns that folder.
pub fn bundle(dir: &Path, options: &GhastOptions, visits: u32) -> PathBuf {
    let out = dir.join("bot");
    Bundle::<ghast::Ghast>::export(&checkpoint(dir, options), &out, visits).unwrap();
    out
}

/// An engine over a tiny bundle for `options`, searching 8 visits a move on the CPU.
pub fn engine(dir: &Path, options: &GhastOptions) -> GtpEngine<ghast::Ghast> {
    let bundle = Bundle::<ghast::Ghast>::load(&bundle(dir, options, 8)).unwrap();
    let options = bundle.settings.game_options.clone();
    GtpEngine::new(Bot::new(bundle, Device::Cpu, 7).unwrap(), options)
}
