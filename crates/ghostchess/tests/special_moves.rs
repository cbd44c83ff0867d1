//! One test per special move of GHOST-CHESS.md (Shadow and Haunt, Rescue, Hide, Transcend,
//! Scouting, Assault, Respawn, Shadow Nexus, Search): from a position built for it, the turn
//! that makes it gives the position the rules describe, worked out by hand from the text, and
//! the same turn where the rule does not apply is refused.

use game::{Game, Outcome, Side};
use ghostchess::{GhostChess, GhostChessOptions};

fn position(text: &str) -> GhostChess {
    GhostChess::from_position(&GhostChessOptions::default(), text)
        .unwrap_or_else(|why| panic!("{text}: {why}"))
}

/// The position string after the turn `token` from `before`.
fn after(before: &str, token: &str) -> String {
    let mut game = position(before);
    game.play_told(token)
        .unwrap_or_else(|why| panic!("{before}: `{token}` refused: {why}"));
    game.position_text()
}

/// The game after the turn `token` from `before`.
fn played(before: &str, token: &str) -> GhostChess {
    let mut game = position(before);
    game.play_told(token)
        .unwrap_or_else(|why| panic!("{before}: `{token}` refused: {why}"));
    game
}

/// Why `token` is refused at `before`; the position is left as it was.
fn refused(before: &str, token: &str) -> String {
    let mut game = position(before);
    let why = game
        .play_told(token)
        .expect_err(&format!("{before}: `{token}` was accepted"));
    assert_eq!(game.position_text(), position(before).position_text());
    why
}

/// Section 4: the Ghost capturing on a dark square is protected (Shadow); on a light one she
/// is not. Flanked on a diagonal by both black Knights she is protected and so are they
/// (Haunt); flanked on a rank, she alone.
#[test]
fn shadow_and_haunt_protect_through_whites_next_turn() {
    // The Ghost takes the rook on d4 (dark): White's other rook may not take her back.
    let shadow = after("3q4/8/8/8/3R4/8/8/3R4 b - - - 0 2", "d8d4");
    assert_eq!(shadow, "8/8/8/8/3q4/8/8/3R4 w d4 - - 0 3");
    assert!(refused(&shadow, "d1d4").contains("protected"));
    // On d5 (light) the same capture protects nothing.
    let light = after("3q4/8/8/3R4/8/8/8/3R4 b - - - 0 2", "d8d5");
    assert_eq!(light, "8/8/8/3q4/8/8/8/3R4 w - - - 0 3");
    after(&light, "d1d5");
    // Knights on d4 and f6, the Ghost comes to e5 (dark) between them on a diagonal.
    let haunt = after("4q3/8/5n2/8/3n4/8/8/R7 b - - - 0 2", "e8e5");
    assert_eq!(haunt, "8/8/5n2/4q3/3n4/8/8/R7 w f6,e5,d4 - - 0 3");
    // On a rank (d5 and f5) only the Ghost.
    let flank = after("4q3/8/8/3n1n2/8/8/8/R7 b - - - 0 2", "e8e5");
    assert_eq!(flank, "8/8/8/3nqn2/8/8/8/R7 w e5 - - 0 3");
}

/// Section 5.2: the Ghost taking a white Knight must put it back as a black Knight on an
/// empty rescue square; taking a rook while White has a Knight, she may exchange it.
#[test]
fn rescue_turns_a_captured_knight_black() {
    let knight = "3q4/8/8/3N4/8/8/8/R7 b - - - 0 2";
    assert_eq!(after(knight, "d8d5=b8"), "1n6/8/8/3q4/8/8/8/R7 w - - - 0 3");
    assert_eq!(after(knight, "d8d5=d8"), "3n4/8/8/3q4/8/8/8/R7 w - - - 0 3");
    refused(knight, "d8d5");
    refused(knight, "d8d5=c8");
    // The exchange: the rook comes back on g1, the Knight from g1 goes to b8.
    let rook = "3q4/8/8/3R4/8/8/8/6N1 b - - - 0 2";
    assert_eq!(
        after(rook, "d8d5%g1=b8"),
        "1n6/8/8/3q4/8/8/8/6R1 w - - - 0 3"
    );
    // Or not: the rook stays taken.
    assert_eq!(after(rook, "d8d5"), "8/8/8/3q4/8/8/8/6N1 w - - - 0 3");
    // A Rescue is Black's special move: no Transcend after it.
    refused(knight, "d8d5=b8#");
}

/// Section 5.1: a Hide changes nothing on the board and protects Black's pieces on dark
/// squares through White's next turn.
#[test]
fn hide_protects_blacks_pieces_on_dark_squares() {
    let before = "R2q4/8/8/8/8/8/8/8 b - - - 0 2";
    let hidden = after(before, "hide");
    assert_eq!(hidden, "R2q4/8/8/8/8/8/8/8 w d8 - - 0 3");
    assert!(refused(&hidden, "a8d8").contains("protected"));
    // A move instead protects nothing: the Ghost on d7 (light) or staying on d8, unhidden,
    // is White's to take.
    assert_eq!(after(before, "d8d7"), "R7/3q4/8/8/8/8/8/8 w - - - 0 3");
    after("R2q4/8/8/8/8/8/8/8 w - - - 0 3", "a8d8");
}

/// Section 5.3: after her move the Ghost may leave the board, taking every White piece
/// around her; each black Knight may then capture once. White wins if a piece remains.
#[test]
fn transcend_blasts_the_ghosts_neighbours() {
    // Three pawns around d4 go; the rook on a1 remains: White wins.
    let game = played("3q4/8/8/8/8/2PPP3/8/R7 b - - - 0 2", "d8d4#");
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::First)));
    assert_eq!(game.end_reason(), Some("transcend"));
    assert_eq!(game.position_text(), "8/8/8/8/8/8/8/R7 w - - - 0 3");
    // Without the rook nothing remains: Black wins.
    let game = played("3q4/8/8/8/8/2PPP3/8/8 b - - - 0 2", "d8d4#");
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::Second)));
    // A Knight on b4 takes the rook, now on a2, after the blast: Black wins.
    let knights = "3q4/8/8/8/1n6/2PPP3/R7/8 b - - - 0 2";
    let game = played(knights, "d8d4#:b4a2");
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::Second)));
    let game = played(knights, "d8d4#");
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::First)));
    // No Transcend after a Hide (a special move), nor without a move.
    refused(knights, "hide#");
}

/// Section 6.3: in Full Nexus a centre pawn moves as a bishop, and Full Nexus stays.
#[test]
fn scouting_moves_a_centre_pawn_as_a_bishop_in_full_nexus() {
    let start = "3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - F - 0 1";
    assert_eq!(
        after(start, "d2h6"),
        "3q4/8/7P/8/8/8/PPP1PPPP/RNB2BNR b - F - 0 2"
    );
    // Not from the c file, and not once Full Nexus is gone.
    refused(start, "c2g6");
    let no_nexus = "3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - - - 0 1";
    assert!(refused(no_nexus, "d2h6").contains("Full Nexus"));
}

/// Section 6.4: in Full Nexus the bishop's block of six moves as one along its diagonal,
/// which ends Full Nexus.
#[test]
fn assault_moves_the_block_of_six() {
    let start = "3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - F - 0 1";
    assert_eq!(
        after(start, "c1e3^"),
        "3q4/8/8/8/2PPP3/2RNB3/3PPPPP/5BNR b - - - 0 2"
    );
    assert_eq!(
        after(start, "f1d3^"),
        "3q4/8/8/8/3PPP2/3BNR2/PPPPP3/RNB5 b - - - 0 2"
    );
    // Only along the bishop's forward diagonal, and only once (Full Nexus ends).
    refused(start, "c1a3^");
    refused("3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - - - 0 1", "c1e3^");
}

/// Section 6.6: when Black takes a pawn while White is in Full or Half Nexus, White may put a
/// pawn on d1 or e1, in Black's turn.
#[test]
fn respawn_brings_a_pawn_back_in_nexus() {
    let half_nexus = "3q4/8/8/3P4/8/8/8/2B2B2 b - - - 0 2";
    assert_eq!(
        after(half_nexus, "d8d5@e1"),
        "8/8/8/3q4/8/8/8/2B1PB2 w - - - 0 3"
    );
    assert_eq!(
        after(half_nexus, "d8d5"),
        "8/8/8/3q4/8/8/8/2B2B2 w - - - 0 3"
    );
    refused(half_nexus, "d8d5@c1");
    // Without a bishop on f1 there is no Nexus and no Respawn.
    refused("3q4/8/8/3P4/8/8/8/2B4B b - - - 0 2", "d8d5@e1");
}

/// Section 6.5: in Shadow Nexus (bishops on c1 and f1, White pieces on c8 and f8) Black may
/// not enter rank 8 without capturing; the Ghost's capture earns White an extra move, whose
/// piece is frozen for White's next turn; and the c8 and f8 pieces move as bishops.
#[test]
fn shadow_nexus_bars_rank_8_and_earns_the_extra_move() {
    let shadow = "2R2R2/8/8/3q3P/8/8/8/2B2B2 b - - - 0 2";
    assert!(refused(shadow, "d5d8").contains("rank 8"));
    // The Ghost takes the pawn on h5; White declines the Respawn and moves c8 to c6 (light).
    let extra = after(shadow, "d5h5+c8c6");
    assert_eq!(extra, "5R2/8/2R5/7q/8/8/8/2B2B2 w - - c6 0 3");
    assert!(refused(&extra, "c6c5").contains("frozen"));
    // The extra move ends on a light square and captures nothing: c8 to c7 is dark.
    refused(shadow, "d5h5+c8c7");
    // Not both a Respawn and the extra move: one special move each a turn.
    refused(shadow, "d5h5@e1+c8c6");
    // The c8 rook moves as a bishop while Shadow Nexus holds, not once it is gone.
    let white = "2R2R2/8/8/8/7q/8/8/2B2B2 w - - - 0 3";
    assert_eq!(after(white, "c8a6"), "5R2/8/R7/8/7q/8/8/2B2B2 b - - - 0 4");
    assert!(refused("2R2R2/8/8/8/7q/8/8/2B4B w - - - 0 3", "c8a6").contains("Shadow Nexus"));
}

/// Section 6.7: a pawn on rank 8 jumps to an empty light square of its file, as White's whole
/// move or right after an ordinary move brought it there.
#[test]
fn search_sends_a_pawn_on_rank_8_back_down_its_file() {
    let on_8 = "1P1q4/8/8/8/8/8/8/R7 w - - - 0 3";
    assert_eq!(after(on_8, "b8b3"), "3q4/8/8/8/8/1P6/8/R7 b - - - 0 4");
    assert!(refused(on_8, "b8b2").contains("dark"));
    let on_7 = "3q4/1P6/8/8/8/8/8/R7 w - - - 0 3";
    assert_eq!(after(on_7, "b7b8-b3"), "3q4/8/8/8/8/1P6/8/R7 b - - - 0 4");
    assert_eq!(after(on_7, "b7b8"), "1P1q4/8/8/8/8/8/8/R7 b - - - 0 4");
}
