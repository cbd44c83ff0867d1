#![no_main]
//! Run configurations (`ghast train --config`): any text is a configuration or an error
//! naming what is wrong, never a panic.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = train::RunConfig::<ghast::GhastOptions>::parse(text);
    }
});
