//! Ghast and Fakerghast run the suite every game runs (game::conformance), with their replay
//! and illegal-move vectors.

use game::conformance::Conformance;
use game::rules::{Rule, with_rules};
use game::vectors::{illegal_vectors, replay_vectors};
use ghast::{Fakerghast, Ghast};

/// Games made by independent implementations of RULES.md (sections 1-8, and 9 for
/// Fakerghast).
const GHAST_REPLAY: &str = include_str!("data/replay-vectors.txt");
const FAKERGHAST_REPLAY: &str = include_str!("data/fakerghast-replay-vectors.txt");
/// Their blocks of the illegal-move vectors.
const GHAST_ILLEGAL: &str = include_str!("data/ghast-illegal.txt");
const FAKERGHAST_ILLEGAL: &str = include_str!("data/fakerghast-illegal.txt");

/// The words a refusal says for each reason of both games' illegal vectors.
const REASONS: &[(&str, &[&str])] = &[
    ("occupied", &["is occupied"]),
    ("opening", &["is not open yet"]),
    ("off-board", &["is off the"]),
    (
        "malformed",
        &["is not a hex name", "expected <hex>", "is not one of"],
    ),
    ("vetoed-hex", &["was vetoed this turn"]),
    ("answer-awaited", &["must first answer"]),
    ("game-over", &["the game is over"]),
    ("pair-same-hex", &["a pair needs two hexes"]),
    ("pair-needed", &["is a pair"]),
    ("no-fakes-left", &["no fakes left"]),
];

#[test]
fn the_vector_files_are_whole() {
    assert_eq!(replay_vectors(GHAST_REPLAY).unwrap().len(), 60);
    assert_eq!(replay_vectors(FAKERGHAST_REPLAY).unwrap().len(), 40);
    assert_eq!(illegal_vectors(GHAST_ILLEGAL).unwrap().len(), 70);
    assert_eq!(illegal_vectors(FAKERGHAST_ILLEGAL).unwrap().len(), 80);
}

#[test]
fn ghast_conforms() {
    let vetoes = with_rules(
        &Default::default(),
        &[
            Rule::new("size", "4"),
            Rule::new("vetoes", "1,1"),
            Rule::new("win_margin", "6"),
        ],
    )
    .unwrap();
    // The smallest and largest boards, so that both bit-set widths play.
    let size = |size: &str, vetoes: &str| {
        let rules = [
            Rule::new("size", size),
            Rule::new("vetoes", vetoes),
            Rule::new("win_margin", "4"),
        ];
        with_rules(&Default::default(), &rules).unwrap()
    };
    Conformance::<Ghast> {
        options: vec![
            Default::default(),
            vetoes,
            size("2", "2,0"),
            size("7", "0,2"),
        ],
        random_games: 6,
        replay_vectors: &[GHAST_REPLAY],
        illegal_vectors: &[GHAST_ILLEGAL],
        reasons: REASONS,
        // A position string leaves out the run of passes and the repetition history.
        positions_are_complete: false,
        ..Conformance::default()
    }
    .check();
}

#[test]
fn fakerghast_conforms() {
    let few = with_rules(
        &Default::default(),
        &[
            Rule::new("size", "4"),
            Rule::new("fakes", "2,2"),
            Rule::new("win_margin", "6"),
        ],
    )
    .unwrap();
    let delayed = with_rules(
        &Default::default(),
        &[
            Rule::new("size", "7"),
            Rule::new("fakerghast", "2"),
            Rule::new("win_margin", "14"),
        ],
    )
    .unwrap();
    Conformance::<Fakerghast> {
        options: vec![Default::default(), few, delayed],
        random_games: 6,
        replay_vectors: &[FAKERGHAST_REPLAY],
        illegal_vectors: &[FAKERGHAST_ILLEGAL],
        reasons: REASONS,
        ..Conformance::default()
    }
    .check();
}
