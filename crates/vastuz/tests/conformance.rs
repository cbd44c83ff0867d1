//! Vastuz runs the suite every game runs (game::conformance), with its vectors.

use game::conformance::Conformance;
use game::vectors::{illegal_vectors, replay_vectors};
use vastuz::Vastuz;

/// The public vectors, made by an independent implementation of the rules.
const REPLAY: &str = include_str!("data/vastuz-replay.txt");
const ILLEGAL: &str = include_str!("data/vastuz-illegal.txt");

#[test]
fn the_vector_files_are_whole() {
    assert_eq!(replay_vectors(REPLAY).unwrap().len(), 40);
    assert_eq!(illegal_vectors(ILLEGAL).unwrap().len(), 40);
}

#[test]
fn vastuz_conforms() {
    Conformance::<Vastuz> {
        random_games: 8,
        replay_vectors: &[REPLAY],
        illegal_vectors: &[ILLEGAL],
        reasons: &[
            ("occupied", &["occupied"]),
            ("merge", &["merge"]),
            ("off-board", &["off the board"]),
            ("malformed", &["malformed"]),
            ("pass", &["pass is legal only"]),
            ("swap", &["swap"]),
            ("game-over", &["over"]),
            ("extra-steal", &["no steal is possible"]),
            ("missing-steal", &["still possible"]),
            (
                "bad-take",
                &["no target", "no remaining target", "empty", "own stone"],
            ),
            ("bad-put", &["occupied", "touches another", "not next to"]),
            ("step-unfinished", &["must finish first"]),
        ],
        ..Conformance::default()
    }
    .check();
}
