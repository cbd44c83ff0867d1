//! Plays every game of the public vectors (made by an independent implementation of QAST.md)
//! and checks each position and the result, and that every token the vectors refuse is
//! refused with a message naming it and saying why.

use game::vectors::{check_refusal, check_replay, illegal_vectors, replay_vectors};
use qast::Qast;

#[test]
fn all_vector_games_replay_exactly() {
    let games = replay_vectors(include_str!("data/qast-replay.txt")).unwrap();
    assert_eq!(games.len(), 40);
    for game in &games {
        check_replay::<Qast>(game, |options, text| {
            Qast::from_position(options, text).map_err(|e| e.to_string())
        })
        .unwrap();
    }
}

#[test]
fn every_illegal_vector_is_refused_naming_the_token() {
    let blocks = illegal_vectors(include_str!("data/qast-illegal.txt")).unwrap();
    assert_eq!(blocks.len(), 60);
    for block in &blocks {
        let words: &[&str] = match block.reason.as_str() {
            "malformed" => &["malformed"],
            "off-track" => &["off the track"],
            "game-over" => &["game is over"],
            "not-a-roll" => &["roll is due"],
            "roll-not-due" => &["no roll is due"],
            "wrong-kind" => &["takes no such token"],
            "bad-place" => &["empty painted space", "no disc in the mover's circles"],
            "bad-assign" => &["no disc of the mover's"],
            "bad-move" => &[
                "moves only",
                "passes or lands",
                "is worth",
                "beyond",
                "no disc to move",
            ],
            "bad-pass" => &["pass is allowed only"],
            "bad-gold" => &["gold circles are full", "set-up choice only"],
            "bad-kick" => &["no disc on gold", "circles are full"],
            other => panic!("unknown reason {other}"),
        };
        check_refusal::<Qast>(block, words).unwrap();
    }
}
