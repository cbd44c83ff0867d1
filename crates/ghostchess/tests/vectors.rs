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

/// A position, a turn, the position after it (`Err` where the turn is illegal), the result.
type Example = (
    &'static str,
    &'static str,
    Result<&'static str, ()>,
    Option<&'static str>,
);

/// Section 13: a position, a turn, the position after it (and the result where it ends).
#[test]
fn every_example_of_section_13_plays_as_written() {
    let examples: &[Example] = &[
        (
            "3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - F - 0 1",
            "d2h6",
            Ok("3q4/8/7P/8/8/8/PPP1PPPP/RNB2BNR b - F - 0 2"),
            None,
        ),
        (
            "3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - F - 0 1",
            "c1e3^",
            Ok("3q4/8/8/8/2PPP3/2RNB3/3PPPPP/5BNR b - - - 0 2"),
            None,
        ),
        (
            "3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - F - 0 1",
            "c1e3",
            Err(()),
            None,
        ),
        (
            "3q4/8/8/3P4/7P/8/8/N6R b - - - 0 11",
            "d8h4",
            Ok("8/8/8/3P4/7q/8/8/N6R w h4 - - 0 12"),
            None,
        ),
        ("8/8/8/3P4/7q/8/8/N6R w h4 - - 0 12", "h1h4", Err(()), None),
        (
            "8/5n2/8/8/3q4/2n5/8/N1R5 b - - - 0 11",
            "f7e5",
            Ok("8/8/8/4n3/3q4/2n5/8/N1R5 w e5,d4,c3 - - 0 12"),
            None,
        ),
        (
            "3q4/8/8/R7/8/8/8/1N4N1 b - - - 0 11",
            "d8a5%g1=f8",
            Ok("5n2/8/8/q7/8/8/8/1N4R1 w a5 - - 0 12"),
            None,
        ),
        (
            "8/4q3/5P2/8/1n1PP3/8/P7/8 b - - - 0 11",
            "e7e5#:b4a2",
            Ok("8/8/8/8/8/8/n7/8 w - - - 0 12"),
            Some("black transcend"),
        ),
        (
            "8/4q3/5P2/8/1n1PP3/8/P7/8 b - - - 0 11",
            "e7e5#",
            Ok("8/8/8/8/1n6/8/P7/8 w - - - 0 12"),
            Some("white transcend"),
        ),
        (
            "8/8/8/4qP2/2nP4/8/8/4R3 w - - - 0 11",
            "e1e5",
            Ok("8/8/8/4R3/2n5/8/8/8 b - - - 0 12"),
            Some("white captured"),
        ),
        (
            "8/8/8/4qP2/2nP4/8/8/4R3 w - - - 0 11",
            "e1e5:c4e5",
            Ok("8/8/8/4n3/8/8/8/8 b - - - 0 12"),
            Some("black captured"),
        ),
        (
            "2R2N2/8/3q1n2/8/8/P7/8/2B2B1R b - - - 0 11",
            "d6d8",
            Err(()),
            None,
        ),
        (
            "2R2N2/8/3q1n2/8/8/P7/8/2B2B1R b - - - 0 11",
            "f6e8",
            Err(()),
            None,
        ),
        (
            "2R2N2/8/3q1n2/8/8/P7/8/2B2B1R b - - - 0 11",
            "d6a3+h1h3",
            Ok("2R2N2/8/5n2/8/8/q6R/8/2B2B2 w a3 - h3 0 12"),
            None,
        ),
        (
            "2R2N2/8/5n2/8/8/q6R/8/2B2B2 w a3 - h3 0 12",
            "h3h4",
            Err(()),
            None,
        ),
        (
            "2R2N2/8/3q1n2/8/8/P7/8/2B2B1R b - - - 0 11",
            "d6a3@e1",
            Ok("2R2N2/8/5n2/8/8/q7/8/2B1PB1R w a3 - - 0 12"),
            None,
        ),
        (
            "7q/1P6/8/8/8/8/8/7N w - - - 0 11",
            "b7b8-b3",
            Ok("7q/8/8/8/8/1P6/8/7N b - - - 0 12"),
            None,
        ),
        (
            "7q/1P6/8/8/8/8/8/7N w - - - 0 11",
            "b7b8",
            Ok("1P5q/8/8/8/8/8/8/7N b - - - 0 12"),
            None,
        ),
        (
            "1P5q/8/8/8/8/8/8/7N w - - - 0 13",
            "b8b1",
            Ok("7q/8/8/8/8/8/8/1P5N b - - - 0 14"),
            None,
        ),
    ];
    let options = GhostChessOptions::default();
    for (before, token, after, result) in examples {
        let mut game = read(&options, before).unwrap();
        match (game.parse_move(token), after) {
            (Ok(actions), Ok(after)) => {
                actions.into_iter().for_each(|action| game.apply(action));
                assert_eq!(&game.position_text(), after, "{before} {token}");
                assert_eq!(game.result_text().as_deref(), *result, "{before} {token}");
            }
            (Err(error), Err(())) => assert!(error.contains(token), "{error}"),
            (outcome, _) => panic!("{before} {token}: {outcome:?}"),
        }
    }
}
