#![no_main]
//! Position strings and moves as users type them (`ghast replay`, GTP, the web page): parsing
//! must refuse what is not a legal move with an error, and playing what it accepts must not
//! panic. Input: a game-and-size byte, a position line, then one move per line. Odd bytes
//! play Ghast (sizes 2..=7), even ones Ghodak (sizes 5..=19).

use game::GtpGame;
use libfuzzer_sys::fuzz_target;

/// From the position (or the start, if it does not read), plays each line that parses as a
/// legal move until the game ends.
fn play_lines<G: GtpGame>(options: &G::Options, position: &str, moves: &str) {
    let mut game = G::from_position_text(options, position).unwrap_or_else(|_| G::new(options));
    for line in moves.lines() {
        if game.outcome().is_some() {
            break;
        }
        if let Ok(action) = game.parse_action(line) {
            game.apply(action);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (position, moves) = text.split_once('\n').unwrap_or((text, ""));
    if selector % 2 == 1 {
        let raw = ghast::RawOptions {
            size: 2 + i64::from(selector / 2 % 6),
            ..ghast::RawOptions::default()
        };
        let Ok(options) = raw.validate() else {
            return;
        };
        play_lines::<ghast::Ghast>(&options, position, moves);
    } else {
        let raw = ghodak::RawOptions {
            size: 5 + i64::from(selector / 2 % 15),
            ..ghodak::RawOptions::default()
        };
        let Ok(options) = raw.validate() else {
            return;
        };
        play_lines::<ghodak::Ghodak>(&options, position, moves);
    }
});
