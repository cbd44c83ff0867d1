//! Ghost Chess runs the suite every game runs (game::conformance), with its vectors.

use game::conformance::Conformance;
use game::vectors::{illegal_vectors, replay_vectors};
use ghostchess::GhostChess;

/// The public vectors, made by an independent implementation of the rules.
const REPLAY: &str = include_str!("data/ghostchess-replay.txt");
const ILLEGAL: &str = include_str!("data/ghostchess-illegal.txt");

#[test]
fn the_vector_files_are_whole() {
    assert_eq!(replay_vectors(REPLAY).unwrap().len(), 40);
    assert_eq!(illegal_vectors(ILLEGAL).unwrap().len(), 40);
}

#[test]
fn ghost_chess_conforms() {
    Conformance::<GhostChess> {
        random_games: 4,
        replay_vectors: &[REPLAY],
        illegal_vectors: &[ILLEGAL],
        reasons: &[
            ("malformed", &["malformed"]),
            ("pass", &["pass"]),
            ("no-piece", &["holds no piece of the mover"]),
            ("unreachable", &["cannot reach", "cannot move"]),
            ("protected", &["protected"]),
            ("frozen", &["frozen"]),
            ("home-row", &["may not enter rank 8"]),
            ("scouting", &["Scouting"]),
            ("nexus-move", &["as a bishop only in Shadow Nexus"]),
            ("assault", &["needs Full Nexus"]),
            ("assault-blocked", &["must land on the board"]),
            ("search", &["Search"]),
            ("rescue", &["rescue", "rescued"]),
            ("exchange", &["exchange"]),
            ("respawn", &["Respawn"]),
            ("extra", &["extra move"]),
            ("two-specials", &["two special moves"]),
            ("transcend", &["Transcend"]),
            (
                "transcend-knight",
                &["after a Transcend", "after the Transcend"],
            ),
            ("game-over", &["game is over"]),
        ],
        ..Conformance::default()
    }
    .check();
}
