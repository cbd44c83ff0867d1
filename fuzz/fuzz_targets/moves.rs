#![no_main]
//! Position strings and moves as users type them (`ghast replay`, GTP, the web page): parsing
//! must refuse what is not a legal move with an error, and playing what it accepts must not
//! panic. Input: a game-and-size byte, a position line, then one move per line. The byte's
//! remainder by 7 picks Ghodak (sizes 5..=19), Ghast or Fakerghast (sizes 2..=7, D = 1..=3),
//! Pig (whose position line is ignored: it has no position strings), Vastuz (sizes 2..=13),
//! Qast (sides 19..=39, a short round limit) or Ghost Chess (a limit of 1..=40 turns); each
//! line is tried as one action (chance's outcomes included), then as a whole move as a side is
//! told it (a Fakerghast pair in full or in public form with its reveals, a Vastuz placement
//! with its steals, a Ghost Chess turn with its marks).

use game::{Game, GtpGame};
use libfuzzer_sys::fuzz_target;

/// The position, or the start if it does not read.
fn from_position<G: GtpGame>(options: &G::Options, position: &str) -> G {
    G::from_position_text(options, position).unwrap_or_else(|_| G::new(options))
}

/// Plays each line that parses as a legal move until the game ends.
fn play_lines<G: Game>(mut game: G, moves: &str) {
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
    let size = i64::from(selector / 7);
    match selector % 7 {
        0 => {
            let raw = ghodak::RawOptions {
                size: 5 + size % 15,
                ..ghodak::RawOptions::default()
            };
            if let Ok(options) = raw.validate() {
                play_lines(from_position::<ghodak::Ghodak>(&options, position), moves);
            }
        }
        1 => {
            let raw = ghast::RawOptions {
                size: 2 + size % 6,
                ..ghast::RawOptions::default()
            };
            if let Ok(options) = raw.validate() {
                play_lines(from_position::<ghast::Ghast>(&options, position), moves);
            }
        }
        2 => {
            let raw = ghast::RawFakerghastOptions {
                size: 2 + size % 6,
                fakerghast: Some(1 + size / 6 % 3),
                ..ghast::RawFakerghastOptions::default()
            };
            if let Ok(options) = raw.validate() {
                play_lines(
                    from_position::<ghast::Fakerghast>(&options, position),
                    moves,
                );
            }
        }
        3 => {
            let raw = pig::RawOptions {
                target: 2 + size,
                ..pig::RawOptions::default()
            };
            if let Ok(options) = raw.validate() {
                play_lines(pig::Pig::new(&options), moves);
            }
        }
        4 => {
            let raw = vastuz::RawOptions {
                size: 2 + size % 12,
                ..vastuz::RawOptions::default()
            };
            if let Ok(options) = raw.validate() {
                play_lines(from_position::<vastuz::Vastuz>(&options, position), moves);
            }
        }
        5 => {
            let raw = qast::RawOptions {
                side: 19 + 2 * (size % 11),
                max_rounds: 1 + size % 7,
                ..qast::RawOptions::default()
            };
            if let Ok(options) = raw.validate() {
                let game = qast::Qast::from_position(&options, position)
                    .unwrap_or_else(|_| qast::Qast::new(&options));
                play_lines(game, moves);
            }
        }
        _ => {
            let raw = ghostchess::RawOptions {
                max_moves: 1 + size % 40,
            };
            if let Ok(options) = raw.validate() {
                let game = ghostchess::GhostChess::from_position(&options, position)
                    .unwrap_or_else(|_| ghostchess::GhostChess::new(&options));
                play_lines(game, moves);
            }
        }
    }
});
