#![no_main]
//! Run configurations (`ghast train --config`): any text is a configuration or an error
//! naming what is wrong, never a panic, read as every game's configuration (the binary picks
//! the game from `[game] name` and reads the rest with its options).

use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;

fn parse<O: DeserializeOwned>(text: &str) {
    let _ = train::RunConfig::<O>::parse(text);
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        parse::<ghast::GhastOptions>(text);
        parse::<ghast::FakerghastOptions>(text);
        parse::<ghodak::GhodakOptions>(text);
        parse::<pig::PigOptions>(text);
        parse::<vastuz::VastuzOptions>(text);
        parse::<qast::QastOptions>(text);
        parse::<ghostchess::GhostChessOptions>(text);
    }
});
