#![no_main]
//! Checkpoints and bundles' weights (`--bot`, `ghast arena`, resume): a JSON sidecar and a
//! safetensors file, either of which may be anything. Input: the sidecar's length as 4 bytes
//! (little-endian, taken modulo the rest), the sidecar, then the weights. Loaded as every
//! game's checkpoint: a sidecar names its game, and only that game's loader reads on.

use game::Game;
use ghast_fuzz::for_every_game;
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn folder() -> &'static PathBuf {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().to_owned();
        (dir, path)
    })
    .1
}

fn load<G: Game>(weights: &Path) {
    let _ = nn::checkpoint::load::<G::Options>(weights, G::NAME, tch::Device::Cpu);
}

fuzz_target!(|data: &[u8]| {
    let Some((length, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let split = u32::from_le_bytes(*length) as usize % (rest.len() + 1);
    let (sidecar, weights) = rest.split_at(split);
    let weights_path = folder().join("model.safetensors");
    std::fs::write(nn::checkpoint::sidecar_path(&weights_path), sidecar).expect("write");
    std::fs::write(&weights_path, weights).expect("write");
    for_every_game!(load(&weights_path));
});
