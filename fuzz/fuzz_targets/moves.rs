#![no_main]
//! Position strings and moves as users type them (`ghast replay`, GTP, the web page): parsing
//! must refuse what is not a legal move with an error, and playing what it accepts must not
//! panic. Input: a game-and-size byte, a position line, then one move per line. Odd bytes
//! play Ghast (sizes 2..=7), even ones Ghodak (sizes 5..=19).

use game::Game;
use libfuzzer_sys::fuzz_target;

/// Plays each line that parses as a legal move, from `game`, until the game ends.
fn play_lines<G: Game>(mut game: G, moves: &str) {
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
        let game = ghast::Ghast::from_position_str(&options, position)
            .unwrap_or_else(|_| ghast::Ghast::new(&options));
        play_lines(game, moves);
    } else {
        let raw = ghodak::RawOptions {
            size: 5 + i64::from(selector / 2 % 15),
            ..ghodak::RawOptions::default()
        };
        let Ok(options) = raw.validate() else {
            return;
        };
        let game = ghodak::Ghodak::from_position_str(&options, position)
            .unwrap_or_else(|_| ghodak::Ghodak::new(&options));
        play_lines(game, moves);
    }
});
