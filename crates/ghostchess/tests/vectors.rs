//! Every example of GHOST-CHESS.md's section 13 plays as written. (The public vectors, made by
//! an independent implementation, are replayed and refused by the conformance suite:
//! tests/conformance.rs.)

use game::Game;
use ghostchess::{GhostChess, GhostChessOptions};

fn read(options: &GhostChessOptions, text: &str) -> Result<GhostChess, String> {
    GhostChess::from_position(options, text).map_err(|e| e.to_string())
}

/// Section 13's examples (`data/section-13.txt`): the position, the turn, the position after
/// it (`None` where the turn is illegal) and the result line where the turn ends the game.
fn section_13() -> Vec<(
    &'static str,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
)> {
    include_str!("data/section-13.txt")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(" | ").collect();
            let after = Some(fields[2]).filter(|after| *after != "illegal");
            (fields[0], fields[1], after, fields.get(3).copied())
        })
        .collect()
}

#[test]
fn every_example_of_section_13_plays_as_written() {
    let examples = section_13();
    assert_eq!(examples.len(), 19);
    let options = GhostChessOptions::default();
    for (before, token, after, result) in examples {
        let mut game = read(&options, before).unwrap();
        match (game.parse_move(token), after) {
            (Ok(actions), Some(after)) => {
                actions.into_iter().for_each(|action| game.apply(action));
                assert_eq!(game.position_text(), after, "{before} {token}");
                let result_line = game.result_text().map(|result| format!("result {result}"));
                assert_eq!(result_line.as_deref(), result, "{before} {token}");
            }
            (Err(error), None) => assert!(error.contains(token), "{error}"),
            (outcome, _) => panic!("{before} {token}: {outcome:?}"),
        }
    }
}
