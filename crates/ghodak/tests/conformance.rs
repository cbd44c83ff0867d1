//! Ghodak runs the suite every game runs (game::conformance), with its vectors.

use game::conformance::Conformance;
use game::rules::{Rule, with_rules};
use game::vectors::{illegal_vectors, replay_vectors};
use ghodak::Ghodak;

/// Random games made by an independent implementation of GHODAK.md, checked move by move
/// against GNU Go; and the Ghodak blocks of the illegal-move vectors.
const REPLAY: &str = include_str!("data/replay-vectors.txt");
const ILLEGAL: &str = include_str!("data/ghodak-illegal.txt");

#[test]
fn the_vector_files_are_whole() {
    assert_eq!(replay_vectors(REPLAY).unwrap().len(), 40);
    assert_eq!(illegal_vectors(ILLEGAL).unwrap().len(), 60);
}

#[test]
fn ghodak_conforms() {
    let small = with_rules(&Default::default(), &[Rule::new("size", "5")]).unwrap();
    Conformance::<Ghodak> {
        options: vec![Default::default(), small],
        random_games: 6,
        replay_vectors: &[REPLAY],
        illegal_vectors: &[ILLEGAL],
        reasons: &[
            ("occupied", &["is occupied"]),
            ("suicide", &["(suicide)"]),
            ("ko", &["retakes the ko"]),
            ("off-board", &["is off the"]),
            ("malformed", &["expected a point"]),
            ("game-over", &["the game is over"]),
        ],
        // Black and White exchange their first two stones' order: one position.
        transpositions: &[("C3 G7 E5", "E5 G7 C3")],
        positions_are_complete: false,
        ..Conformance::default()
    }
    .check();
}
