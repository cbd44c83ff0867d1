//! Ghast and Fakerghast run the suite every game runs (game::conformance), with their replay
//! vectors.

use game::conformance::Conformance;
use game::rules::{Rule, with_rules};
use ghast::{Fakerghast, Ghast};

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
    Conformance::<Ghast> {
        options: vec![Default::default(), vetoes],
        random_games: 6,
        replay_vectors: &[include_str!("data/replay-vectors.txt")],
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
    Conformance::<Fakerghast> {
        options: vec![Default::default(), few],
        random_games: 6,
        replay_vectors: &[include_str!("data/fakerghast-replay-vectors.txt")],
        ..Conformance::default()
    }
    .check();
}
