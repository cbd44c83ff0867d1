#![no_main]
//! GTP command streams through the engine, with an untrained bot of every game that speaks
//! GTP: every line gets a response and nothing panics. Input: a game byte (its remainder by 6
//! picks Ghast, Fakerghast, Ghodak, Vastuz, Qast or Ghost Chess, each on its default rules),
//! then the commands. Searches are capped at 64 visits so the fuzzer stays fast.

use game::{GtpGame, Planes};
use libfuzzer_sys::fuzz_target;
use play::gtp::Engine;
use play::{Bot, Bundle};
use std::path::PathBuf;
use std::sync::OnceLock;

/// An untrained network of one game, saved once per fuzzing process.
type Untrained = OnceLock<(tempfile::TempDir, PathBuf)>;

fn weights<G: Planes>(saved: &'static Untrained) -> &'static PathBuf {
    &saved
        .get_or_init(|| {
            let dir = tempfile::tempdir().expect("a temporary folder");
            let weights = dir.path().join("bot.safetensors");
            let options = G::Options::default();
            play::save_untrained::<G>(&weights, &options, play::tiny_config::<G>(&options))
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

/// Runs `input` through a fresh engine of game `G`.
fn converse<G: GtpGame + Planes>(saved: &'static Untrained, input: &str) {
    let bundle =
        Bundle::<G>::from_checkpoint(weights::<G>(saved), 8).expect("the untrained bot loads");
    let options = bundle.settings.game_options.clone();
    let bot = Bot::new(bundle, tch::Device::Cpu, 0).expect("the untrained bot plays");
    let mut output = Vec::new();
    Engine::new(bot, options)
        .run(input.as_bytes(), &mut output)
        .expect("writing to memory cannot fail");
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let input: String = text
        .lines()
        .filter(|line| !expensive(line))
        .map(|line| format!("{line}\n"))
        .collect();
    static GHAST: Untrained = OnceLock::new();
    static FAKERGHAST: Untrained = OnceLock::new();
    static GHODAK: Untrained = OnceLock::new();
    static VASTUZ: Untrained = OnceLock::new();
    static QAST: Untrained = OnceLock::new();
    static GHOST_CHESS: Untrained = OnceLock::new();
    match selector % 6 {
        0 => converse::<ghast::Ghast>(&GHAST, &input),
        1 => converse::<ghast::Fakerghast>(&FAKERGHAST, &input),
        2 => converse::<ghodak::Ghodak>(&GHODAK, &input),
        3 => converse::<vastuz::Vastuz>(&VASTUZ, &input),
        4 => converse::<qast::Qast>(&QAST, &input),
        _ => converse::<ghostchess::GhostChess>(&GHOST_CHESS, &input),
    }
});
