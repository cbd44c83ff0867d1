//! Ghast and Fakerghast run the suite every game runs (game::conformance), with their replay
//! vectors. (Their illegal-move vectors go through `ghast replay` in tests/replay_cli.rs.)

use game::conformance::Conformance;
use game::rules::{Rule, with_rules};
use game::vectors::replay_vectors;
use ghast::{Fakerghast, Ghast};

/// Games made by independent implementations of RULES.md (sections 1-8, and 9 for
/// Fakerghast).
const GHAST_REPLAY: &str = include_str!("data/replay-vectors.txt");
const FAKERGHAST_REPLAY: &str = include_str!("data/fakerghast-replay-vectors.txt");

#[test]
fn the_vector_files_are_whole() {
    assert_eq!(replay_vectors(GHAST_REPLAY).unwrap().len(), 60);
    assert_eq!(replay_vectors(FAKERGHAST_REPLAY).unwrap().len(), 40);
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
        ..Conformance::default()
    }
    .check();
}
