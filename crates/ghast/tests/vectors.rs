//! Plays every game of the replay vectors (made by independent implementations of the rules)
//! and checks each position and the result.

mod common;

use ghast::{Fakerghast, Ghast};

#[test]
fn all_vector_games_replay_exactly() {
    for game in common::vector_games("replay-vectors.txt", 60) {
        let mut state = Ghast::new(&common::ghast_options(&game.args));
        assert_eq!(state.to_string(), game.start, "{} start", game.name);
        for (i, (mv, expected)) in game.moves.iter().enumerate() {
            state
                .play(mv)
                .unwrap_or_else(|e| panic!("{} move {}: {e}", game.name, i + 1));
            assert_eq!(
                &state.to_string(),
                expected,
                "{} after move {} ({mv})",
                game.name,
                i + 1
            );
        }
        let result = state.result().map(|r| r.to_string());
        assert_eq!(result, game.result, "{} result", game.name);
    }
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
    for game in common::vector_games("fakerghast-replay-vectors.txt", 40) {
        let mut state = Fakerghast::new(&common::fakerghast_options(&game.args));
        assert_eq!(state.to_string(), game.start, "{} start", game.name);
        for (i, (mv, expected)) in game.moves.iter().enumerate() {
            state
                .play(mv)
                .unwrap_or_else(|e| panic!("{} move {}: {e}", game.name, i + 1));
            assert_eq!(
                &state.to_string(),
                expected,
                "{} after move {} ({mv})",
                game.name,
                i + 1
            );
        }
        let result = state.result().map(|r| r.to_string());
        assert_eq!(result, game.result, "{} result", game.name);
    }
}
