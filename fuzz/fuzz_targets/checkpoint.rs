#![no_main]
//! Checkpoints and bundles' weights (`--bot`, `ghast arena`, resume): a JSON sidecar and a
//! safetensors file, either of which may be anything. Input: the sidecar's length as 4 bytes
//! (little-endian, taken modulo the rest), the sidecar, then the weights.

use ghast::GhastOptions;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
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

fuzz_target!(|data: &[u8]| {
    let Some((length, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let split = u32::from_le_bytes(*length) as usize % (rest.len() + 1);
    let (sidecar, weights) = rest.split_at(split);
    let weights_path = folder().join("model.safetensors");
    std::fs::write(nn::checkpoint::sidecar_path(&weights_path), sidecar).expect("write");
    std::fs::write(&weights_path, weights).expect("write");
    let _ = nn::checkpoint::load::<GhastOptions>(&weights_path, "ghast", tch::Device::Cpu);
});
