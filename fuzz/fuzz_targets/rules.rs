#![no_main]
//! Rules as users write them (`--rule KEY=VALUE`, `--KEY VALUE`, GTP's `boardsize` and
//! `komi`): parsing a rule never panics, and applying rules to a game's options either gives
//! options the game accepts or an error. Input: one `key=value` rule per line, applied to
//! each game's default options.

use game::Game;
use game::rules::{Rule, with_rules};
use ghast_fuzz::for_every_game;
use libfuzzer_sys::fuzz_target;

fn apply<G: Game>(rules: &[Rule]) {
    if let Ok(options) = with_rules(&G::Options::default(), rules) {
        // What was accepted writes back and reads again as the same options.
        let again: G::Options = with_rules(&options, &[]).expect("accepted options read again");
        assert_eq!(again, options, "{} options read back differently", G::NAME);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let rules: Vec<Rule> = text
        .lines()
        .filter_map(|line| Rule::parse(line).ok())
        .collect();
    for_every_game!(apply(&rules));
});
