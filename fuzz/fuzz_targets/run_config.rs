#![no_main]
//! Run configurations (`ghast train --config`): any text is a configuration or an error
//! naming what is wrong, never a panic, read as every game's configuration (the binary picks
//! the game from `[game] name` and reads the rest with its options).

use game::Game;
use ghast_fuzz::for_every_game;
use libfuzzer_sys::fuzz_target;

fn parse<G: Game>(text: &str) {
    let _ = train::RunConfig::<G::Options>::parse(text);
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for_every_game!(parse(text));
    }
});
