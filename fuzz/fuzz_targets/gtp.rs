#![no_main]
//! GTP command streams through the engine, with an untrained bot: every line gets a response
//! and nothing panics. Searches are capped at 64 visits so the fuzzer stays fast.

use ghast::GhastOptions;
use libfuzzer_sys::fuzz_target;
use play::gtp::Engine;
use play::{Bot, Bundle};
use std::path::PathBuf;
use std::sync::OnceLock;

/// An untrained network saved once per fuzzing process.
fn weights() -> &'static PathBuf {
    static WEIGHTS: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &WEIGHTS
        .get_or_init(|| {
            let dir = tempfile::tempdir().expect("a temporary folder");
            let weights = dir.path().join("bot.safetensors");
            play::save_untrained::<ghast::Ghast>(
                &weights,
                &GhastOptions::default(),
                play::tiny_config::<ghast::Ghast>(&GhastOptions::default()),
            )
            .expect("save the untrained bot");
            (dir, weights)
        })
        .1
}

/// Whether a line asks for a search of more than 64 visits.
fn expensive(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let command = words.next().unwrap_or_default();
    let visits = words.next().and_then(|w| w.parse::<u64>().ok());
    (command.ends_with("set_visits") || command.ends_with("analyze")) && visits.unwrap_or(0) > 64
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let input: String = text
        .lines()
        .filter(|line| !expensive(line))
        .map(|line| format!("{line}\n"))
        .collect();
    let bundle =
        Bundle::<ghast::Ghast>::from_checkpoint(weights(), 8).expect("the untrained bot loads");
    let options = bundle.settings.game_options.clone();
    let bot = Bot::new(bundle, tch::Device::Cpu, 0).expect("the untrained bot plays");
    let mut output = Vec::new();
    Engine::new(bot, options)
        .run(input.as_bytes(), &mut output)
        .expect("writing to memory cannot fail");
});
