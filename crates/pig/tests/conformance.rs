//! Pig runs the suite every game runs (game::conformance): the contract's small game of chance.

use game::conformance::Conformance;
use game::rules::{Rule, with_rules};
use pig::Pig;

#[test]
fn pig_conforms() {
    let short = with_rules(&Default::default(), &[Rule::new("target", "12")]).unwrap();
    Conformance::<Pig> {
        options: vec![Default::default(), short],
        random_games: 30,
        ..Conformance::default()
    }
    .check();
}
