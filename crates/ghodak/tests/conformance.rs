//! Ghodak runs the suite every game runs (game::conformance), with its replay vectors.

use game::conformance::Conformance;
use game::rules::{Rule, with_rules};
use ghodak::Ghodak;

#[test]
fn ghodak_conforms() {
    let small = with_rules(&Default::default(), &[Rule::new("size", "5")]).unwrap();
    Conformance::<Ghodak> {
        options: vec![Default::default(), small],
        random_games: 6,
        replay_vectors: &[include_str!("data/replay-vectors.txt")],
        // Black and White exchange their first two stones' order: one position.
        transpositions: &[("C3 G7 E5", "E5 G7 C3")],
        positions_are_complete: false,
        ..Conformance::default()
    }
    .check();
}
