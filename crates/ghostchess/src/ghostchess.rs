//! The rules: a position, the decision it waits for (section 10), and what each decision
//! does, step by step through a turn as section 7 orders it.

use crate::board::*;
use crate::options::GhostChessOptions;

/// White, the Paradigm, moves first; Black is the Ghost's side.
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;
pub const COLOUR_NAMES: [&str; 2] = ["white", "black"];

/// The decisions' actions: the 64 squares, then these five globals (section 10).
pub const PASS: usize = 64;
pub const ASSAULT: usize = 65;
pub const EXCHANGE: usize = 66;
pub const TRANSCEND: usize = 67;
pub const NO: usize = 68;
pub const ACTIONS: usize = 69;
pub const GLOBAL_ACTIONS: usize = ACTIONS - 64;

/// The kinds of piece, each a bitboard of the position: White's four, the Ghost, and the
/// black Knights.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Ghost = 4,
    BlackKnight = 5,
}

pub const PIECES: [Piece; 6] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Ghost,
    Piece::BlackKnight,
];

impl Piece {
    pub fn colour(self) -> usize {
        if matches!(self, Piece::Ghost | Piece::BlackKnight) {
            BLACK
        } else {
            WHITE
        }
    }

    /// The letter of section 9.3.
    pub fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'q', 'n'][self as usize]
    }

    pub fn from_letter(letter: char) -> Option<Piece> {
        PIECES.into_iter().find(|piece| piece.letter() == letter)
    }
}

/// The decision a position waits for, in the canonical order of section 10.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    From,
    AssaultFrom,
    AssaultTo,
    To,
    Exchange,
    Knight,
    Place,
    Respawn,
    ExtraFrom,
    ExtraTo,
    Transcend,
    Search,
    KnightFrom,
    KnightTo,
    Over,
}

pub const DECISIONS: [Decision; 14] = [
    Decision::From,
    Decision::AssaultFrom,
    Decision::AssaultTo,
    Decision::To,
    Decision::Exchange,
    Decision::Knight,
    Decision::Place,
    Decision::Respawn,
    Decision::ExtraFrom,
    Decision::ExtraTo,
    Decision::Transcend,
    Decision::Search,
    Decision::KnightFrom,
    Decision::KnightTo,
];

impl Decision {
    /// The side that decides it in a turn of `mover`: White answers in Black's turn, Black
    /// in White's after the Ghost is captured.
    pub fn decider(self, mover: usize) -> usize {
        match self {
            Decision::Knight | Decision::Respawn | Decision::ExtraFrom | Decision::ExtraTo => WHITE,
            Decision::Exchange
            | Decision::Place
            | Decision::Transcend
            | Decision::KnightFrom
            | Decision::KnightTo => BLACK,
            Decision::Search => WHITE,
            Decision::From
            | Decision::AssaultFrom
            | Decision::AssaultTo
            | Decision::To
            | Decision::Over => mover,
        }
    }

    /// Its name in section 10's table.
    pub fn name(self) -> &'static str {
        match self {
            Decision::From => "from",
            Decision::AssaultFrom => "assault-from",
            Decision::AssaultTo => "assault-to",
            Decision::To => "to",
            Decision::Exchange => "exchange",
            Decision::Knight => "knight",
            Decision::Place => "place",
            Decision::Respawn => "respawn",
            Decision::ExtraFrom => "extra-from",
            Decision::ExtraTo => "extra-to",
            Decision::Transcend => "transcend",
            Decision::Search => "search",
            Decision::KnightFrom => "knight-from",
            Decision::KnightTo => "knight-to",
            Decision::Over => "over",
        }
    }
}

/// Why the game ended (section 8).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Captured,
    Transcend,
    Knights,
    Cleared,
    Repetition,
    Limit,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::Captured => "captured",
            Ending::Transcend => "transcend",
            Ending::Knights => "knights",
            Ending::Cleared => "cleared",
            Ending::Repetition => "repetition",
            Ending::Limit => "limit",
        }
    }
}

/// What the mover's move of this turn did, for the follow-ups that depend on it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// The piece taken and its square, if the move took one.
    pub taken: Option<(Piece, u8)>,
    /// Whether the Ghost made the move.
    pub by_ghost: bool,
    /// Whether it was an ordinary pawn move from rank 7 to rank 8 (the immediate Search).
    pub pawn_reached_8: bool,
}

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
    pub(crate) pieces: [Bits; 6],
    /// The player whose turn it is (not always the decider: [`Decision::decider`]).
    pub(crate) mover: usize,
    /// Black pieces White may not capture in this turn.
    pub(crate) protected: Bits,
    /// The piece the Shadow Nexus extra move moved: it may not move in this White turn.
    pub(crate) frozen: Bits,
    pub(crate) full_nexus: bool,
    /// Black Knights captured so far in the game.
    pub(crate) lost: u8,
    /// The number of this turn, counting both players', 1 at the start.
    pub(crate) turn: u32,
    pub(crate) decision: Decision,
    /// The square the decision is about: the piece to move (`to`, `assault-to`, `extra-to`,
    /// `knight-to`) or the pawn that reached rank 8 (`search`).
    pub(crate) selected: u8,
    pub(crate) capture: Capture,
    /// Whether White was in Shadow Nexus when this Black turn began.
    pub(crate) shadow_at_start: bool,
    /// Whether each player has made its special move in this turn.
    pub(crate) special: [bool; 2],
    pub(crate) hid: bool,
    /// The black Knights (by their squares) that made their move after a Transcend.
    pub(crate) knights_moved: Bits,
    /// After a Transcend, before the Knights' moves end: which kind.
    pub(crate) transcended: Option<Ending>,
    pub(crate) ending: Option<(usize, Ending)>,
    /// The key of the position each turn ended in, the start's first.
    pub(crate) history: Vec<u64>,
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
        mover: usize,
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
    fn ending_shown(&self) -> Option<(usize, Ending)> {
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

    pub fn mover(&self) -> usize {
        self.mover
    }

    pub fn decision(&self) -> Decision {
        self.decision
    }

    /// The side that decides next.
    pub fn decider(&self) -> usize {
        self.decision.decider(self.mover)
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn ending(&self) -> Option<(usize, Ending)> {
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

    // ---- where pieces may go ----

    /// The Black pieces White may capture now.
    fn white_targets(&self) -> Bits {
        self.black() & !self.protected
    }

    /// The ordinary moves (section 3) of the White piece on `from`: no Scouting, no bishop
    /// move from c8/f8, no Search; the frozen piece has none.
    pub fn white_ordinary(&self, from: usize) -> Bits {
        if self.frozen & bit(from) != 0 {
            return 0;
        }
        let occupied = self.occupied();
        let empty = !occupied;
        let reach = empty | self.white_targets();
        match self.piece_at(from) {
            Some(Piece::Rook) => rook_attacks(from, occupied) & reach,
            Some(Piece::Bishop) => bishop_attacks(from, occupied) & reach,
            Some(Piece::Knight) => KNIGHT_ATTACKS[from] & reach,
            Some(Piece::Pawn) => self.pawn_moves(from),
            _ => 0,
        }
    }

    fn pawn_moves(&self, from: usize) -> Bits {
        let empty = !self.occupied();
        let rank = rank_of(from);
        let file = file_of(from);
        let mut moves = 0;
        if rank < 7 {
            let ahead = from + 8;
            if empty & bit(ahead) != 0 {
                moves |= bit(ahead);
                if rank == 1 && empty & bit(ahead + 8) != 0 {
                    moves |= bit(ahead + 8);
                }
            }
            let mut diagonals = 0;
            if file > 0 {
                diagonals |= bit(ahead - 1);
            }
            if file < 7 {
                diagonals |= bit(ahead + 1);
            }
            moves |= diagonals & self.white_targets();
        }
        if self.pieces[Piece::Knight as usize] == 0 {
            let mut steps = 0;
            if rank > 0 {
                steps |= bit(from - 8);
            }
            if file > 0 {
                steps |= bit(from - 1);
            }
            if file < 7 {
                steps |= bit(from + 1);
            }
            moves |= steps & empty;
        }
        moves
    }

    /// Every destination of the White piece on `from` in White's move: its ordinary moves,
    /// Scouting, the bishop move from c8/f8 in Shadow Nexus, and the Search from rank 8.
    pub fn white_destinations(&self, from: usize) -> Bits {
        if self.frozen & bit(from) != 0 {
            return 0;
        }
        let mut moves = self.white_ordinary(from);
        let occupied = self.occupied();
        let reach = !occupied | self.white_targets();
        let pawn = self.pieces[Piece::Pawn as usize] & bit(from) != 0;
        if pawn && self.full_nexus && CENTRE & bit(from) != 0 {
            moves |= bishop_attacks(from, occupied) & reach;
        }
        if ACROSS & bit(from) != 0 && self.shadow_nexus() {
            moves |= bishop_attacks(from, occupied) & reach;
        }
        if pawn && rank_of(from) == 7 {
            moves |= self.search_targets(from);
        }
        moves
    }

    /// Where a pawn on rank 8 at `from` may Search to: the empty light squares of its file
    /// on ranks 1..7.
    pub fn search_targets(&self, from: usize) -> Bits {
        file_bits(file_of(from)) & !RANK_8 & LIGHT & !self.occupied()
    }

    /// The destinations of the Black piece on `from`; in Shadow Nexus, no entering rank 8
    /// without capturing.
    pub fn black_destinations(&self, from: usize) -> Bits {
        let occupied = self.occupied();
        let reach = !self.black();
        let mut moves = if self.pieces[Piece::Ghost as usize] & bit(from) != 0 {
            (rook_attacks(from, occupied) | bishop_attacks(from, occupied)) & reach
        } else if self.pieces[Piece::BlackKnight as usize] & bit(from) != 0 {
            KNIGHT_ATTACKS[from] & reach
        } else {
            0
        };
        if self.shadow_at_start && rank_of(from) < 7 {
            moves &= !(RANK_8 & !occupied);
        }
        moves
    }

    /// The destinations of the piece on `from` in the mover's move.
    pub fn destinations(&self, from: usize) -> Bits {
        if self.mover == WHITE {
            self.white_destinations(from)
        } else {
            self.black_destinations(from)
        }
    }

    /// The Shadow Nexus extra move of the White piece on `from`: ordinary, capturing
    /// nothing, to a light square.
    pub fn extra_destinations(&self, from: usize) -> Bits {
        self.white_ordinary(from) & !self.occupied() & LIGHT
    }

    /// The Assault destinations of the bishop on `from` (c1 or f1): in Full Nexus, the
    /// bishop's diagonal steps that bring each of its block's six pieces onto the board, to
    /// an empty square or one of the block's own.
    pub fn assault_destinations(&self, from: usize) -> Bits {
        let block = match from {
            C1 => C1_BLOCK,
            F1 => F1_BLOCK,
            _ => return 0,
        };
        if !self.full_nexus || self.frozen & block != 0 {
            return 0;
        }
        let free = !self.occupied() | block;
        let mut moves = 0;
        for (df, dr) in [(1i32, 1i32), (-1, 1)] {
            for k in 1..8 {
                let shifted = squares(block).try_fold(0, |bits, square| {
                    let file = file_of(square) as i32 + df * k;
                    let rank = rank_of(square) as i32 + dr * k;
                    ((0..8).contains(&file) && (0..8).contains(&rank))
                        .then(|| bits | bit(square_at(file as usize, rank as usize)))
                });
                match shifted {
                    None => break,
                    Some(bits) if bits & !free == 0 => {
                        let to = file_of(from) as i32 + df * k + 8 * k;
                        moves |= bit(to as usize);
                    }
                    Some(_) => {}
                }
            }
        }
        moves
    }

    fn assault_possible(&self) -> bool {
        self.full_nexus && (self.assault_destinations(C1) | self.assault_destinations(F1)) != 0
    }

    /// The mover's pieces that have a move (other than an Assault) at `from`.
    pub fn movable(&self) -> Bits {
        let own = if self.mover == WHITE {
            self.white()
        } else {
            self.black()
        };
        squares(own)
            .filter(|&square| self.destinations(square) != 0)
            .fold(0, |bits, square| bits | bit(square))
    }

    /// The black Knights that may still capture after a Transcend.
    fn knights_that_capture(&self) -> Bits {
        squares(self.pieces[Piece::BlackKnight as usize] & !self.knights_moved)
            .filter(|&square| KNIGHT_ATTACKS[square] & self.white() != 0)
            .fold(0, |bits, square| bits | bit(square))
    }

    fn extra_movers(&self) -> Bits {
        squares(self.white())
            .filter(|&square| self.extra_destinations(square) != 0)
            .fold(0, |bits, square| bits | bit(square))
    }

    /// The square choices of the decision, as a set (the globals aside).
    pub fn square_choices(&self) -> Bits {
        let from = usize::from(self.selected);
        match self.decision {
            Decision::From => self.movable(),
            Decision::AssaultFrom => [C1, F1]
                .into_iter()
                .filter(|&square| self.assault_destinations(square) != 0)
                .fold(0, |bits, square| bits | bit(square)),
            Decision::AssaultTo => self.assault_destinations(from),
            Decision::To => self.destinations(from),
            Decision::Knight => self.pieces[Piece::Knight as usize],
            Decision::Place => RESCUE & !self.occupied(),
            Decision::Respawn => RESPAWN & !self.occupied(),
            Decision::ExtraFrom => self.extra_movers(),
            Decision::ExtraTo => self.extra_destinations(from),
            Decision::Search => self.search_targets(from),
            Decision::KnightFrom => self.knights_that_capture(),
            Decision::KnightTo => KNIGHT_ATTACKS[from] & self.white(),
            Decision::Exchange | Decision::Transcend | Decision::Over => 0,
        }
    }

    /// Whether a global action is a choice of the decision.
    fn global_legal(&self, action: usize) -> bool {
        match (self.decision, action) {
            (Decision::From, PASS) => self.mover == BLACK || self.white_must_pass(),
            (Decision::From, ASSAULT) => self.mover == WHITE && self.assault_possible(),
            (Decision::Exchange, EXCHANGE | NO) => true,
            (Decision::Transcend, TRANSCEND | NO) => true,
            (
                Decision::Respawn | Decision::ExtraFrom | Decision::Search | Decision::KnightFrom,
                NO,
            ) => true,
            _ => false,
        }
    }

    fn white_must_pass(&self) -> bool {
        self.movable() == 0 && !self.assault_possible()
    }

    pub fn legal(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.decision == Decision::Over {
            return;
        }
        out.extend(squares(self.square_choices()));
        out.extend((PASS..ACTIONS).filter(|&action| self.global_legal(action)));
    }

    pub fn is_legal(&self, action: usize) -> bool {
        match action {
            _ if self.decision == Decision::Over => false,
            square if square < 64 => self.square_choices() & bit(square) != 0,
            global if global < ACTIONS => self.global_legal(global),
            _ => false,
        }
    }

    // ---- playing a decision ----

    /// Plays a legal action of the decision under way.
    pub fn apply(&mut self, action: usize) {
        let square = action;
        match self.decision {
            Decision::From => match action {
                ASSAULT => self.decision = Decision::AssaultFrom,
                PASS if self.mover == BLACK => {
                    self.special[BLACK] = true;
                    self.hid = true;
                    self.end_turn();
                }
                PASS => self.end_turn(),
                _ => self.select(square, Decision::To),
            },
            Decision::AssaultFrom => self.select(square, Decision::AssaultTo),
            Decision::AssaultTo => {
                self.assault(usize::from(self.selected), square);
                self.special[WHITE] = true;
                self.end_turn();
            }
            Decision::To => {
                let from = usize::from(self.selected);
                if self.mover == WHITE {
                    self.white_move(from, square);
                } else {
                    self.black_move(from, square);
                }
            }
            Decision::Exchange => {
                if action == EXCHANGE {
                    self.decision = Decision::Knight;
                } else {
                    self.after_rescue();
                }
            }
            Decision::Knight => {
                let (piece, _) = self.capture.taken.expect("an exchange follows a capture");
                self.remove(Piece::Knight, square);
                self.put(piece, square);
                self.decision = Decision::Place;
            }
            Decision::Place => {
                self.put(Piece::BlackKnight, square);
                self.special[BLACK] = true;
                self.after_rescue();
            }
            Decision::Respawn => {
                if action != NO {
                    self.put(Piece::Pawn, square);
                    self.special[WHITE] = true;
                }
                self.after_respawn();
            }
            Decision::ExtraFrom => {
                if action == NO {
                    self.after_extra();
                } else {
                    self.select(square, Decision::ExtraTo);
                }
            }
            Decision::ExtraTo => {
                self.shift(usize::from(self.selected), square);
                self.frozen = bit(square);
                self.special[WHITE] = true;
                self.after_extra();
            }
            Decision::Transcend => {
                if action == TRANSCEND {
                    let ghost = self.pieces[Piece::Ghost as usize].trailing_zeros() as usize;
                    self.remove(Piece::Ghost, ghost);
                    self.blast(ghost);
                    self.transcended = Some(Ending::Transcend);
                    self.knights_phase();
                } else {
                    self.end_turn();
                }
            }
            Decision::Search => {
                if action != NO {
                    self.shift(usize::from(self.selected), square);
                    self.special[WHITE] = true;
                }
                self.end_turn();
            }
            Decision::KnightFrom => {
                if action == NO {
                    self.finish_transcend();
                } else {
                    self.select(square, Decision::KnightTo);
                }
            }
            Decision::KnightTo => {
                self.shift(usize::from(self.selected), square);
                self.knights_moved |= bit(square);
                self.knights_phase();
            }
            Decision::Over => unreachable!("no decision after the end"),
        }
    }

    fn select(&mut self, square: usize, next: Decision) {
        self.selected = square as u8;
        self.decision = next;
    }

    /// Moves the block of the bishop on `from` so that the bishop lands on `to`.
    fn assault(&mut self, from: usize, to: usize) {
        let block = if from == C1 { C1_BLOCK } else { F1_BLOCK };
        let offset = to as i32 - from as i32;
        let moving: Vec<(Piece, usize)> = squares(block)
            .map(|square| (self.piece_at(square).expect("a full block"), square))
            .collect();
        for &(piece, square) in &moving {
            self.remove(piece, square);
        }
        for (piece, square) in moving {
            self.put(piece, (square as i32 + offset) as usize);
        }
        self.full_nexus = false;
    }

    /// Takes every White piece around `square` off the board (a Transcend).
    fn blast(&mut self, square: usize) {
        for around in squares(NEIGHBOURS[square] & self.white()) {
            self.take(around);
        }
    }

    fn white_move(&mut self, from: usize, to: usize) {
        let ordinary = self.white_ordinary(from) & bit(to) != 0;
        let pawn = self.pieces[Piece::Pawn as usize] & bit(from) != 0;
        if !ordinary {
            self.special[WHITE] = true;
        }
        let taken = self.shift(from, to);
        self.capture = Capture {
            taken: taken.map(|piece| (piece, to as u8)),
            by_ghost: false,
            pawn_reached_8: ordinary && pawn && rank_of(from) == 6 && rank_of(to) == 7,
        };
        match taken {
            Some(Piece::Ghost) => {
                self.blast(to);
                self.transcended = Some(Ending::Captured);
                self.knights_phase();
                return;
            }
            Some(Piece::BlackKnight) => {
                self.lost += 1;
                if self.lost >= 2 {
                    self.decide(WHITE, Ending::Knights);
                    return;
                }
            }
            _ => {}
        }
        if self.capture.pawn_reached_8 && self.search_targets(to) != 0 {
            self.select(to, Decision::Search);
            return;
        }
        self.end_turn();
    }

    fn black_move(&mut self, from: usize, to: usize) {
        let by_ghost = self.pieces[Piece::Ghost as usize] & bit(from) != 0;
        let taken = self.shift(from, to);
        self.capture = Capture {
            taken: taken.map(|piece| (piece, to as u8)),
            by_ghost,
            pawn_reached_8: false,
        };
        let rescue_free = RESCUE & !self.occupied() != 0;
        if by_ghost && rescue_free {
            match taken {
                Some(Piece::Knight) => {
                    self.decision = Decision::Place;
                    return;
                }
                Some(Piece::Rook | Piece::Bishop) if self.pieces[Piece::Knight as usize] != 0 => {
                    self.decision = Decision::Exchange;
                    return;
                }
                _ => {}
            }
        }
        self.after_rescue();
    }

    /// Black's turn after the Rescue (step 3 on): cleared, then the Respawn.
    fn after_rescue(&mut self) {
        if self.white() == 0 {
            self.decide(BLACK, Ending::Cleared);
            return;
        }
        let pawn_taken = matches!(self.capture.taken, Some((Piece::Pawn, _)));
        if pawn_taken && self.nexus() && RESPAWN & !self.occupied() != 0 {
            self.decision = Decision::Respawn;
            return;
        }
        self.after_respawn();
    }

    /// Black's turn after the Respawn: the extra move, if White is entitled to it.
    fn after_respawn(&mut self) {
        let entitled = self.shadow_at_start
            && self.capture.by_ghost
            && self.capture.taken.is_some()
            && !self.special[WHITE];
        if entitled && self.extra_movers() != 0 {
            self.decision = Decision::ExtraFrom;
            return;
        }
        self.after_extra();
    }

    /// Black's turn after the extra move: her Transcend, if she made no special move.
    fn after_extra(&mut self) {
        if !self.special[BLACK] {
            self.decision = Decision::Transcend;
            return;
        }
        self.end_turn();
    }

    /// After a Transcend: the black Knights' captures, then the result.
    fn knights_phase(&mut self) {
        if self.white() != 0 && self.knights_that_capture() != 0 {
            self.decision = Decision::KnightFrom;
        } else {
            self.finish_transcend();
        }
    }

    fn finish_transcend(&mut self) {
        let reason = self.transcended.expect("a Transcend under way");
        let winner = if self.white() == 0 { BLACK } else { WHITE };
        self.decide(winner, reason);
    }

    /// The game is decided in this turn: the turn ends at once, protections cleared.
    fn decide(&mut self, winner: usize, reason: Ending) {
        self.ending = Some((winner, reason));
        self.protected = 0;
        self.frozen = 0;
        self.next_turn();
        self.decision = Decision::Over;
    }

    fn next_turn(&mut self) {
        self.mover = 1 - self.mover;
        self.turn += 1;
        self.decision = Decision::From;
        self.selected = 0;
        self.capture = Capture::default();
        self.special = [false; 2];
        self.hid = false;
        self.knights_moved = 0;
        self.transcended = None;
        self.shadow_at_start = self.mover == BLACK && self.shadow_nexus();
    }

    /// A turn ends without a decision: protections for White's next turn (after Black's),
    /// or cleared (after White's); then repetition and the limit.
    fn end_turn(&mut self) {
        if self.mover == BLACK {
            self.protected = self.protections();
        } else {
            self.protected = 0;
            self.frozen = 0;
        }
        let ended = self.turn;
        self.next_turn();
        let key = self.position_key();
        self.history.push(key);
        if self.history.iter().filter(|&&seen| seen == key).count() >= 3 {
            self.ending = Some((WHITE, Ending::Repetition));
        } else if ended >= self.options.max_moves() {
            self.ending = Some((WHITE, Ending::Limit));
        }
        if self.ending.is_some() {
            self.decision = Decision::Over;
        }
    }

    /// The Black pieces protected at the end of this Black turn (section 4).
    fn protections(&self) -> Bits {
        let ghost = self.pieces[Piece::Ghost as usize];
        let knights = self.pieces[Piece::BlackKnight as usize];
        let mut protected = 0;
        if self.hid {
            protected |= self.black() & DARK;
        }
        if let Some((_, square)) = self.capture.taken
            && self.capture.by_ghost
            && DARK & bit(usize::from(square)) & ghost != 0
        {
            protected |= ghost;
        }
        if ghost & DARK != 0 {
            let at = ghost.trailing_zeros() as usize;
            let file = file_of(at) as i32;
            let rank = rank_of(at) as i32;
            let neighbour = |df: i32, dr: i32| {
                let (f, r) = (file + df, rank + dr);
                if (0..8).contains(&f) && (0..8).contains(&r) {
                    bit(square_at(f as usize, r as usize))
                } else {
                    0
                }
            };
            for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let pair = neighbour(df, dr) | neighbour(-df, -dr);
                if pair.count_ones() == 2 && knights & pair == pair {
                    protected |= ghost;
                    if df != 0 && dr != 0 {
                        protected |= pair;
                    }
                }
            }
        }
        protected
    }

    /// The position of section 9.3 without its turn number, as a key: what repetition
    /// compares.
    pub(crate) fn position_key(&self) -> u64 {
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
    pub fn material(&self, colour: usize) -> f32 {
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
}
