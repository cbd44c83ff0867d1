//! Qast runs the suite every game runs (game::conformance), with its vectors.

use game::conformance::Conformance;
use game::rules::{Rule, with_rules};
use game::vectors::{illegal_vectors, replay_vectors};
use qast::Qast;

/// The public vectors, made by an independent implementation of the rules.
const REPLAY: &str = include_str!("data/qast-replay.txt");
const ILLEGAL: &str = include_str!("data/qast-illegal.txt");

#[test]
fn the_vector_files_are_whole() {
    assert_eq!(replay_vectors(REPLAY).unwrap().len(), 40);
    assert_eq!(illegal_vectors(ILLEGAL).unwrap().len(), 60);
}

#[test]
fn qast_conforms() {
    // Black's gold circles on (the default) and off; a longer track.
    let rules = |rules: &[Rule]| with_rules(&Default::default(), rules).unwrap();
    Conformance::<Qast> {
        options: vec![
            Default::default(),
            rules(&[Rule::new("black_gold", "0")]),
            rules(&[Rule::new("side", "27")]),
        ],
        random_games: 6,
        replay_vectors: &[REPLAY],
        illegal_vectors: &[ILLEGAL],
        reasons: &[
            ("malformed", &["malformed"]),
            ("off-track", &["off the track"]),
            ("game-over", &["game is over"]),
            ("not-a-roll", &["roll is due"]),
            ("roll-not-due", &["no roll is due"]),
            ("wrong-kind", &["takes no such token"]),
            (
                "bad-place",
                &["empty painted space", "no disc in the mover's circles"],
            ),
            ("bad-assign", &["no disc of the mover's"]),
            (
                "bad-move",
                &[
                    "moves only",
                    "passes or lands",
                    "is worth",
                    "beyond",
                    "no disc to move",
                ],
            ),
            ("bad-pass", &["pass is allowed only"]),
            ("bad-gold", &["gold circles are full", "set-up choice only"]),
            ("bad-kick", &["no disc on gold", "circles are full"]),
        ],
        ..Conformance::default()
    }
    .check();
}
