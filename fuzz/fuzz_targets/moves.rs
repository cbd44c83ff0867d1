#![no_main]
//! Position strings and moves as users type them (`ghast replay`, GTP, the web page): parsing
//! must refuse what is not a legal move with an error, and playing what it accepts must not
//! panic. Input: a game-and-size byte, a position line, then one move per line. The byte's
//! remainder by 3 picks Ghodak (sizes 5..=19), Ghast or Fakerghast (sizes 2..=7, D = 1..=3);
//! each line is tried as one action, then as a whole move as a side is told it (a Fakerghast
//! pair in full or in public form with its reveals).

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
        } else {
            let _ = game.play_told(line);
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
    let size = i64::from(selector / 3);
    match selector % 3 {
        0 => {
            let raw = ghodak::RawOptions {
                size: 5 + size % 15,
                ..ghodak::RawOptions::default()
            };
            if let Ok(options) = raw.validate() {
                play_lines::<ghodak::Ghodak>(&options, position, moves);
            }
        }
        1 => {
            let raw = ghast::RawOptions {
                size: 2 + size % 6,
                ..ghast::RawOptions::default()
            };
            if let Ok(options) = raw.validate() {
                play_lines::<ghast::Ghast>(&options, position, moves);
            }
        }
        _ => {
            let raw = ghast::RawFakerghastOptions {
                size: 2 + size % 6,
                fakerghast: 1 + size / 6 % 3,
                ..ghast::RawFakerghastOptions::default()
            };
            if let Ok(options) = raw.validate() {
                play_lines::<ghast::Fakerghast>(&options, position, moves);
            }
        }
    }
});
