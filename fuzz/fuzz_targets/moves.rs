#![no_main]
//! Position strings and moves as users type them (`ghast replay`, GTP, the web page): parsing
//! must refuse what is not a legal move with an error, and playing what it accepts must not
//! panic. Input: a size byte, a position line, then one move per line.

use game::Game;
use ghast::{Ghast, RawOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&size, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let raw = RawOptions {
        size: 2 + i64::from(size % 6),
        ..RawOptions::default()
    };
    let Ok(options) = raw.validate() else {
        return;
    };
    let (position, moves) = text.split_once('\n').unwrap_or((text, ""));
    let mut game =
        Ghast::from_position_str(&options, position).unwrap_or_else(|_| Ghast::new(&options));
    for line in moves.lines() {
        if game.outcome().is_some() {
            break;
        }
        if let Ok(action) = game.parse_move(line) {
            game.apply_action(action);
        }
    }
});
