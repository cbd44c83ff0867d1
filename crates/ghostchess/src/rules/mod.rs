//! The rules: a position ([`GhostChess`]), the decision it waits for (section 10), and what
//! each decision does, step by step through a turn as section 7 orders it.
//!
//! - [`pieces`]: the sides, the kinds of piece, the actions, the endings;
//! - this file: the state, whose fields only the rules' modules touch (the rest of the crate
//!   reads it through accessors and builds it with [`GhostChess::from_parts`]), and its keys;
//! - [`decision`]: the decision machine: what each decision offers, what it does, and how a
//!   turn goes on and ends;
//! - [`white`] and [`black`]: each side's moves and special moves.

mod black;
mod decision;
mod pieces;
mod white;

pub use decision::{DECISIONS, Decision};
pub use pieces::*;

use crate::board::*;
use crate::options::GhostChessOptions;
use game::Side;

/// Random keys for the pieces on their squares and the small fields, from splitmix64, so
/// that a position's key is the xor of its parts.
const ZOBRIST: [[u64; 64]; 6] = {
    let mut table = [[0; 64]; 6];
    let mut state: u64 = 0x6768_6f73_7463_6873;
    let mut piece = 0;
    while piece < 6 {
        let mut square = 0;
        while square < 64 {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            table[piece][square] = z ^ (z >> 31);
            square += 1;
        }
        piece += 1;
    }
    table
};

/// A game of Ghost Chess: the position of section 9.3, the decision under way with what the
/// turn has done so far, and the keys of the positions every turn ended in (repetition).
#[derive(Clone, Debug)]
pub struct GhostChess {
    options: GhostChessOptions,
    pieces: [Bits; 6],
    /// The player whose turn it is (not always the decider: [`Decision::decider`]).
    mover: Side,
    /// Black pieces White may not capture in this turn.
    protected: Bits,
    /// The piece the Shadow Nexus extra move moved: it may not move in this White turn.
    frozen: Bits,
    full_nexus: bool,
    /// Black Knights captured so far in the game.
    lost: u8,
    /// The number of this turn, counting both players', 1 at the start.
    turn: u32,
    decision: Decision,
    /// The square the decision is about: the piece to move (`to`, `assault-to`, `extra-to`,
    /// `knight-to`) or the pawn that reached rank 8 (`search`).
    selected: u8,
    capture: Capture,
    /// Whether White was in Shadow Nexus when this Black turn began.
    shadow_at_start: bool,
    /// Whether each player has made its special move in this turn.
    special: [bool; 2],
    hid: bool,
    /// The black Knights (by their squares) that made their move after a Transcend.
    knights_moved: Bits,
    /// After a Transcend, before the Knights' moves end: which kind.
    transcended: Option<Ending>,
    ending: Option<(Side, Ending)>,
    /// The key of the position each turn ended in, the start's first.
    history: Vec<u64>,
}

impl GhostChess {
    /// The start: `3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - F - 0 1`.
    pub fn new(options: &GhostChessOptions) -> GhostChess {
        let mut pieces = [0; 6];
        pieces[Piece::Pawn as usize] = RANK_2;
        pieces[Piece::Rook as usize] = bit(A1) | bit(H1);
        pieces[Piece::Knight as usize] = bit(B1) | bit(G1);
        pieces[Piece::Bishop as usize] = bit(C1) | bit(F1);
        pieces[Piece::Ghost as usize] = bit(D8);
        GhostChess::from_parts(options, pieces, WHITE, 0, true, 0, 0, 1)
    }

    /// A position between turns from its fields (section 9.3), with its ending if the fields
    /// already show one.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        options: &GhostChessOptions,
        pieces: [Bits; 6],
        mover: Side,
        protected: Bits,
        full_nexus: bool,
        frozen: Bits,
        lost: u8,
        turn: u32,
    ) -> GhostChess {
        let mut game = GhostChess {
            options: options.clone(),
            pieces,
            mover,
            protected,
            frozen,
            full_nexus,
            lost,
            turn,
            decision: Decision::From,
            selected: 0,
            capture: Capture::default(),
            shadow_at_start: false,
            special: [false; 2],
            hid: false,
            knights_moved: 0,
            transcended: None,
            ending: None,
            history: Vec::new(),
        };
        game.shadow_at_start = mover == BLACK && game.shadow_nexus();
        game.history.push(game.position_key());
        game.ending = game.ending_shown();
        if game.ending.is_some() {
            game.decision = Decision::Over;
        }
        game
    }

    /// The ending a position string shows by itself: no Ghost, no White piece, two Knights
    /// lost, or the limit passed. (A repetition lives in a game's history, not its string.)
    fn ending_shown(&self) -> Option<(Side, Ending)> {
        let white_left = self.white() != 0;
        let winner = if white_left { WHITE } else { BLACK };
        if self.pieces[Piece::Ghost as usize] == 0 {
            // The last turn was the other player's: White's capture or Black's Transcend.
            let reason = if self.mover == BLACK {
                Ending::Captured
            } else {
                Ending::Transcend
            };
            return Some((winner, reason));
        }
        if !white_left {
            return Some((BLACK, Ending::Cleared));
        }
        if self.lost >= 2 {
            return Some((WHITE, Ending::Knights));
        }
        (self.turn > self.options.max_moves()).then_some((WHITE, Ending::Limit))
    }

    pub fn options(&self) -> &GhostChessOptions {
        &self.options
    }

    pub fn mover(&self) -> Side {
        self.mover
    }

    pub fn decision(&self) -> Decision {
        self.decision
    }

    /// The side that decides next.
    pub fn decider(&self) -> Side {
        self.decision.decider(self.mover)
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn ending(&self) -> Option<(Side, Ending)> {
        self.ending
    }

    pub fn bits(&self, piece: Piece) -> Bits {
        self.pieces[piece as usize]
    }

    pub fn white(&self) -> Bits {
        self.pieces[0] | self.pieces[1] | self.pieces[2] | self.pieces[3]
    }

    pub fn black(&self) -> Bits {
        self.pieces[4] | self.pieces[5]
    }

    pub fn occupied(&self) -> Bits {
        self.white() | self.black()
    }

    pub fn protected(&self) -> Bits {
        self.protected
    }

    pub fn frozen(&self) -> Bits {
        self.frozen
    }

    pub fn full_nexus(&self) -> bool {
        self.full_nexus
    }

    pub fn knights_lost(&self) -> u8 {
        self.lost
    }

    pub fn selected(&self) -> Option<usize> {
        matches!(
            self.decision,
            Decision::To
                | Decision::AssaultTo
                | Decision::ExtraTo
                | Decision::KnightTo
                | Decision::Search
        )
        .then_some(usize::from(self.selected))
    }

    pub fn capture(&self) -> Capture {
        self.capture
    }

    pub fn special_used(&self) -> [bool; 2] {
        self.special
    }

    pub fn knights_moved(&self) -> Bits {
        self.knights_moved
    }

    pub fn shadow_at_start(&self) -> bool {
        self.shadow_at_start
    }

    pub fn piece_at(&self, square: usize) -> Option<Piece> {
        PIECES
            .into_iter()
            .find(|&piece| self.pieces[piece as usize] & bit(square) != 0)
    }

    /// Full or Half Nexus: a white bishop on c1 and one on f1 (section 6.2).
    pub fn nexus(&self) -> bool {
        let bishops = bit(C1) | bit(F1);
        self.pieces[Piece::Bishop as usize] & bishops == bishops
    }

    /// Shadow Nexus: Full or Half Nexus, and a White piece on c8 and on f8 (section 6.5).
    pub fn shadow_nexus(&self) -> bool {
        self.nexus() && self.white() & ACROSS == ACROSS
    }

    fn remove(&mut self, piece: Piece, square: usize) {
        self.pieces[piece as usize] &= !bit(square);
        if self.full_nexus && MAIN & bit(square) != 0 {
            self.full_nexus = false;
        }
    }

    fn put(&mut self, piece: Piece, square: usize) {
        self.pieces[piece as usize] |= bit(square);
    }

    /// Takes whatever stands on `square` off the board.
    fn take(&mut self, square: usize) -> Option<Piece> {
        let piece = self.piece_at(square)?;
        self.remove(piece, square);
        Some(piece)
    }

    /// Moves the piece on `from` to `to`, taking what stands there; returns what it took.
    fn shift(&mut self, from: usize, to: usize) -> Option<Piece> {
        let piece = self.piece_at(from).expect("a piece to move");
        let taken = self.take(to);
        self.remove(piece, from);
        self.put(piece, to);
        taken
    }

    /// The position of section 9.3 without its turn number, as a key: what repetition
    /// compares.
    fn position_key(&self) -> u64 {
        let mut key = 0;
        for (piece, &bits) in self.pieces.iter().enumerate() {
            for square in squares(bits) {
                key ^= ZOBRIST[piece][square];
            }
        }
        let small = u64::from(self.mover == BLACK)
            | u64::from(self.full_nexus) << 1
            | u64::from(self.lost) << 2;
        key ^ game::mix64(self.protected ^ 0x5bd1_e995)
            ^ game::mix64(self.frozen.rotate_left(17) ^ small)
    }

    /// Everything that decides the future: the position, the turn number (the limit), and
    /// the decision under way with what the turn has done.
    pub fn hash(&self) -> u64 {
        let capture = self.capture.taken.map_or(0, |(piece, square)| {
            1 + piece as u64 + 8 * u64::from(square)
        }) | u64::from(self.capture.by_ghost) << 10
            | u64::from(self.capture.pawn_reached_8) << 11;
        let turn_state = u64::from(self.turn)
            | (self.decision as u64) << 20
            | u64::from(self.selected) << 24
            | capture << 32
            | u64::from(self.shadow_at_start) << 45
            | u64::from(self.special[0]) << 46
            | u64::from(self.special[1]) << 47
            | u64::from(self.hid) << 48
            | (self.transcended.map_or(0, |e| e as u64 + 1)) << 49;
        self.position_key() ^ game::mix64(turn_state) ^ game::mix64(self.knights_moved ^ 0x77)
    }

    /// Material: pawn 1, Knight 3, bishop 3, rook 5; the Ghost 30, as much as White's whole
    /// army, since she is the only piece that can clear it (a Transcend that does not clear
    /// the board loses her for a few pieces); a black Knight 3, less 4 for each one lost.
    pub fn material(&self, colour: Side) -> f32 {
        let count = |piece: Piece| self.pieces[piece as usize].count_ones() as f32;
        if colour == WHITE {
            count(Piece::Pawn)
                + 3.0 * count(Piece::Knight)
                + 3.0 * count(Piece::Bishop)
                + 5.0 * count(Piece::Rook)
        } else {
            30.0 * count(Piece::Ghost) + 3.0 * count(Piece::BlackKnight)
                - 4.0 * f32::from(self.lost)
        }
    }

    /// This position with no Black piece protected: whether White's move is barred by a
    /// protection alone (for the words of a refusal).
    pub(crate) fn unprotected(&self) -> GhostChess {
        GhostChess {
            protected: 0,
            ..self.clone()
        }
    }

    /// This position without Shadow Nexus's bar on Black entering rank 8: whether Black's
    /// move is barred by it alone (for the words of a refusal).
    pub(crate) fn unbarred(&self) -> GhostChess {
        GhostChess {
            shadow_at_start: false,
            ..self.clone()
        }
    }
}
