//! Plays every game of the public vectors (made by an independent implementation of
//! GHOST-CHESS.md) and checks each position and the result, every example of section 13, and
//! that every turn the vectors refuse is refused with a message naming it and saying why.

use game::Game;
use game::vectors::{check_refusal, check_replay, illegal_vectors, replay_vectors};
use ghostchess::{GhostChess, GhostChessOptions};

fn read(options: &GhostChessOptions, text: &str) -> Result<GhostChess, String> {
    GhostChess::from_position(options, text).map_err(|e| e.to_string())
}

#[test]
fn all_vector_games_replay_exactly() {
    let games = replay_vectors(include_str!("data/ghostchess-replay.txt")).unwrap();
    assert_eq!(games.len(), 40);
    for game in &games {
        check_replay::<GhostChess>(game, read).unwrap();
    }
}

#[test]
fn every_illegal_vector_is_refused_naming_the_turn() {
    let blocks = illegal_vectors(include_str!("data/ghostchess-illegal.txt")).unwrap();
    assert_eq!(blocks.len(), 40);
    for block in &blocks {
        let words: &[&str] = match block.reason.as_str() {
            "malformed" => &["malformed"],
            "pass" => &["pass"],
            "no-piece" => &["holds no piece of the mover"],
            "unreachable" => &["cannot reach", "cannot move"],
            "protected" => &["protected"],
            "frozen" => &["frozen"],
            "home-row" => &["may not enter rank 8"],
            "scouting" => &["Scouting"],
            "nexus-move" => &["as a bishop only in Shadow Nexus"],
            "assault" => &["needs Full Nexus"],
            "assault-blocked" => &["must land on the board"],
            "search" => &["Search"],
            "rescue" => &["rescue", "rescued"],
            "exchange" => &["exchange"],
            "respawn" => &["Respawn"],
            "extra" => &["extra move"],
            "two-specials" => &["two special moves"],
            "transcend" => &["Transcend"],
            "transcend-knight" => &["after a Transcend", "after the Transcend"],
            "game-over" => &["game is over"],
            other => panic!("unknown reason {other}"),
        };
        check_refusal::<GhostChess>(block, words).unwrap();
    }
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
