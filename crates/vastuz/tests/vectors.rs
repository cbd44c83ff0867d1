//! Plays every game of the public vectors (made by an independent implementation of
//! VASTUZ.md) and checks each position and the result, and that every move the vectors refuse
//! is refused with a message naming it and saying why.

use game::vectors::{check_refusal, check_replay, illegal_vectors, replay_vectors};
use vastuz::Vastuz;

#[test]
fn all_vector_games_replay_exactly() {
    let games = replay_vectors(include_str!("data/vastuz-replay.txt")).unwrap();
    assert_eq!(games.len(), 40);
    for game in &games {
        check_replay::<Vastuz>(game, |options, text| {
            Vastuz::from_position(options, text).map_err(|e| e.to_string())
        })
        .unwrap();
    }
}

#[test]
fn every_illegal_vector_is_refused_naming_the_move() {
    let blocks = illegal_vectors(include_str!("data/vastuz-illegal.txt")).unwrap();
    assert_eq!(blocks.len(), 40);
    for block in &blocks {
        let words: &[&str] = match block.reason.as_str() {
            "occupied" => &["occupied"],
            "merge" => &["merge"],
            "off-board" => &["off the board"],
            "malformed" => &["malformed"],
            "pass" => &["pass is legal only"],
            "swap" => &["swap"],
            "game-over" => &["over"],
            "extra-steal" => &["no steal is possible"],
            "missing-steal" => &["still possible"],
            "bad-take" => &["no target", "no remaining target", "empty", "own stone"],
            "bad-put" => &["occupied", "touches another", "not next to"],
            "step-unfinished" => &["must finish first"],
            other => panic!("unknown reason {other}"),
        };
        check_refusal::<Vastuz>(block, words).unwrap();
    }
}
