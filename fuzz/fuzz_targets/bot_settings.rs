#![no_main]
//! A bundle's `bot.toml`, which users edit by hand: any text is settings or an error naming
//! the line, never a panic, read as every game's settings.

use game::Game;
use ghast_fuzz::for_every_game;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fn parse<G: Game>(text: &str) {
    let _ = play::BotSettings::parse::<G>(text, Path::new("bot.toml"));
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for_every_game!(parse(text));
    }
});
