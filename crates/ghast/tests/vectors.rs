//! Plays every game of the replay vectors (made by independent implementations of the rules)
//! and checks each position and the result.

mod common;

use ghast::{Fakerghast, Ghast};

/// Plays every game of `file` from `start` (given the game's flags) with `play`, checking the
/// start, each position after a move (the game's `Display`) and the result.
fn replay_exactly<G: std::fmt::Display>(
    file: &str,
    count: usize,
    start: impl Fn(&[String]) -> G,
    play: impl Fn(&mut G, &str) -> Result<(), String>,
    result: impl Fn(&G) -> Option<String>,
) {
    for game in common::vector_games(file, count) {
        let mut state = start(&game.args);
        assert_eq!(state.to_string(), game.start, "{} start", game.name);
        for (i, (mv, expected)) in game.moves.iter().enumerate() {
            play(&mut state, mv).unwrap_or_else(|e| panic!("{} move {}: {e}", game.name, i + 1));
            let after = state.to_string();
            assert_eq!(
                &after,
                expected,
                "{} after move {} ({mv})",
                game.name,
                i + 1
            );
        }
        assert_eq!(result(&state), game.result, "{} result", game.name);
    }
}

#[test]
fn all_vector_games_replay_exactly() {
    replay_exactly(
        "replay-vectors.txt",
        60,
        |args| Ghast::new(&common::ghast_options(args)),
        |game, text| game.play(text).map(drop).map_err(|e| e.to_string()),
        |game| game.result().map(|r| r.to_string()),
    );
}

#[test]
fn positions_round_trip_through_games() {
    for game in common::vector_games("replay-vectors.txt", 60) {
        let options = common::ghast_options(&game.args);
        for (_, position) in &game.moves {
            let state = Ghast::from_position_str(&options, position).unwrap();
            assert_eq!(&state.to_string(), position);
        }
    }
}

#[test]
fn all_fakerghast_vector_games_replay_exactly() {
    replay_exactly(
        "fakerghast-replay-vectors.txt",
        40,
        |args| Fakerghast::new(&common::fakerghast_options(args)),
        |game, text| game.play(text).map(drop).map_err(|e| e.to_string()),
        |game| game.result().map(|r| r.to_string()),
    );
}
