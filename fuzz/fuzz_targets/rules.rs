#![no_main]
//! Rules as users write them (`--rule KEY=VALUE`, `--KEY VALUE`, GTP's `boardsize` and
//! `komi`): parsing a rule never panics, and applying rules to a game's options either gives
//! options the game accepts or an error. Input: one `key=value` rule per line, applied to
//! each game's default options.

use game::rules::{Rule, with_rules};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;

fn apply<O: Serialize + DeserializeOwned + Default>(rules: &[Rule]) {
    if let Ok(options) = with_rules(&O::default(), rules) {
        // What was accepted writes back and reads again as the same options.
        let again: O = with_rules(&options, &[]).expect("accepted options read again");
        let _ = again;
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
    apply::<ghast::GhastOptions>(&rules);
    apply::<ghast::FakerghastOptions>(&rules);
    apply::<ghodak::GhodakOptions>(&rules);
    apply::<pig::PigOptions>(&rules);
    apply::<vastuz::VastuzOptions>(&rules);
    apply::<qast::QastOptions>(&rules);
    apply::<ghostchess::GhostChessOptions>(&rules);
});
