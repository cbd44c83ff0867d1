//! Every run configuration shipped in configs/ reads and validates as the game it names, so
//! a config that only a GPU run would load cannot rot unnoticed on machines without one.

use ghast::{FakerghastOptions, GhastOptions};
use ghodak::GhodakOptions;
use train::RunConfig;

/// Parses `text` (the file at `path`) as a run of the game whose options are `O`; parsing
/// validates every table, the game's options included.
fn check<O: serde::de::DeserializeOwned>(path: &std::path::Path, text: &str) {
    if let Err(error) = RunConfig::<O>::parse(text) {
        panic!("{}: {error}", path.display());
    }
}

#[test]
fn every_shipped_config_reads_and_validates() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let game = train::game_name(&text).unwrap();
        match game.as_str() {
            "ghast" => check::<GhastOptions>(&path, &text),
            "ghodak" => check::<GhodakOptions>(&path, &text),
            "fakerghast" => check::<FakerghastOptions>(&path, &text),
            other => panic!("{}: unknown game {other}", path.display()),
        }
        seen.push(path.file_name().unwrap().to_string_lossy().into_owned());
    }
    seen.sort();
    for expected in [
        "fakerghast-small.toml",
        "ghodak9-gpu.toml",
        "ghodak9.toml",
        "small.toml",
        "standard-cpu.toml",
        "standard.toml",
    ] {
        assert!(
            seen.iter().any(|name| name == expected),
            "{expected} in {seen:?}"
        );
    }
}
