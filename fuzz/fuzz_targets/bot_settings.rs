#![no_main]
//! A bundle's `bot.toml`, which users edit by hand: any text is settings or an error naming
//! the line, never a panic.

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let path = Path::new("bot.toml");
        let _ = play::BotSettings::parse::<ghast::Ghast>(text, path);
        let _ = play::BotSettings::parse::<ghodak::Ghodak>(text, path);
    }
});
