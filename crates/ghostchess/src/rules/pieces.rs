//! The sides, the kinds of piece, the actions of the decisions and the endings.

use game::Side;

/// White, the Paradigm, moves first; Black is the Ghost's side.
pub const WHITE: Side = Side::First;
pub const BLACK: Side = Side::Second;
pub const COLOUR_NAMES: [&str; 2] = ["white", "black"];

/// `white` or `black`.
pub fn colour_name(side: Side) -> &'static str {
    COLOUR_NAMES[side.index()]
}

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
    pub fn colour(self) -> Side {
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
