//! `game::BoardView` for [`GhostChess`]: the chessboard with its pieces, protections and the
//! frozen piece, the choices of the decision at hand (squares, and buttons for the globals),
//! and what the turn under way has done.

use crate::board::{DARK, bit, square_at, square_name};
use crate::notation::action_text;
use crate::rules::{
    ASSAULT, Decision, EXCHANGE, GhostChess, NO, PASS, TRANSCEND, WHITE, colour_name,
};
use game::{BoardView, Effect, Side};
use serde::Serialize;

/// What the page draws of a Ghost Chess game.
#[derive(Debug, Serialize)]
pub struct Board {
    /// The decision at hand (section 10's name: `from`, `to`, `respawn`, ...), or `over`.
    pub decision: &'static str,
    /// What the decider is asked, in words.
    pub question: String,
    /// Whose turn it is, and who decides now (they differ at a follow-up of the opponent's).
    pub mover: &'static str,
    pub decider: &'static str,
    pub turn: u32,
    pub max_moves: u32,
    /// The 64 squares, a1 first.
    pub squares: Vec<Square>,
    /// The piece the decision is about (to move, or the pawn that may Search).
    pub selected: Option<String>,
    /// The decision's global choices as buttons.
    pub buttons: Vec<Button>,
    /// `full`, `half`, `shadow` (Half or Full, with pieces on c8 and f8), or `none`.
    pub nexus: &'static str,
    pub knights_lost: u8,
}

#[derive(Debug, Serialize)]
pub struct Square {
    pub name: String,
    pub file: usize,
    pub rank: usize,
    pub dark: bool,
    /// The piece's letter of section 9.3 (`P N B R` White's, `q` the Ghost, `n` a black
    /// Knight).
    pub piece: Option<char>,
    pub protected: bool,
    pub frozen: bool,
    /// A choice of the decision at hand.
    pub open: bool,
}

/// A global choice: the text the page sends and what the button says.
#[derive(Debug, Serialize)]
pub struct Button {
    pub play: String,
    pub label: &'static str,
}

fn question(game: &GhostChess) -> &'static str {
    match game.decision() {
        Decision::From if game.mover() == WHITE => "choose a piece to move (or Assault)",
        Decision::From => "choose the Ghost or a Knight to move, or hide",
        Decision::AssaultFrom => "choose the bishop whose block assaults",
        Decision::AssaultTo => "choose where the bishop (and its block) goes",
        Decision::To => "choose where the piece goes",
        Decision::Exchange => "exchange the captured piece for a white Knight?",
        Decision::Knight => "choose the white Knight to give up",
        Decision::Place => "choose the rescue square for the Knight",
        Decision::Respawn => "respawn the pawn on d1 or e1?",
        Decision::ExtraFrom => "make the Shadow Nexus extra move? choose its piece",
        Decision::ExtraTo => "choose the light square the extra move ends on",
        Decision::Transcend => "transcend (sacrifice the Ghost)?",
        Decision::Search => "search: send the pawn back down its file?",
        Decision::KnightFrom => "choose a Knight to capture after the Transcend",
        Decision::KnightTo => "choose what the Knight captures",
        Decision::Over => "the game is over",
    }
}

fn label(game: &GhostChess, action: usize) -> &'static str {
    match (game.decision(), action) {
        (Decision::From, PASS) if game.mover() == WHITE => "Pass",
        (Decision::From, PASS) => "Hide",
        (_, ASSAULT) => "Assault",
        (_, EXCHANGE) => "Exchange",
        (_, TRANSCEND) => "Transcend",
        (Decision::Exchange, NO) => "Keep the capture",
        (Decision::Respawn, NO) => "No Respawn",
        (Decision::ExtraFrom, NO) => "No extra move",
        (Decision::Transcend, NO) => "Stay",
        (Decision::Search, NO) => "No Search",
        (Decision::KnightFrom, NO) => "No more Knight moves",
        _ => "No",
    }
}

impl BoardView for GhostChess {
    type Board = Board;

    const PAGE_MODULE: &'static str = include_str!("../page/chess.js");

    fn board(&self, _viewer: Side) -> Board {
        let choices = if self.ending().is_some() {
            0
        } else {
            self.square_choices()
        };
        let squares = (0..8)
            .flat_map(|rank| (0..8).map(move |file| (file, rank)))
            .map(|(file, rank)| {
                let square = square_at(file, rank);
                Square {
                    name: square_name(square),
                    file,
                    rank: rank + 1,
                    dark: DARK & bit(square) != 0,
                    piece: self.piece_at(square).map(|piece| piece.letter()),
                    protected: self.protected() & bit(square) != 0,
                    frozen: self.frozen() & bit(square) != 0,
                    open: choices & bit(square) != 0,
                }
            })
            .collect();
        let mut legal = Vec::new();
        self.legal(&mut legal);
        let buttons = legal
            .into_iter()
            .filter(|&action| action >= 64)
            .map(|action| Button {
                play: action_text(self, action),
                label: label(self, action),
            })
            .collect();
        let nexus = if self.shadow_nexus() {
            "shadow"
        } else if self.full_nexus() {
            "full"
        } else if self.nexus() {
            "half"
        } else {
            "none"
        };
        Board {
            decision: self.decision().name(),
            question: question(self).to_owned(),
            mover: colour_name(self.mover()),
            decider: colour_name(self.decider()),
            turn: self.turn(),
            max_moves: self.options().max_moves(),
            squares,
            selected: self.selected().map(square_name),
            buttons,
            nexus,
            knights_lost: self.knights_lost(),
        }
    }

    fn target_name(&self, action: usize) -> Option<String> {
        (action < 64).then(|| square_name(action))
    }

    /// A move's landing square and where it came from; every square whose piece is gone
    /// (a Transcend's blast, a capture by a piece that then moved on).
    fn effect(before: &GhostChess, action: usize, after: &GhostChess) -> Effect {
        let moved = matches!(
            before.decision(),
            Decision::To
                | Decision::AssaultTo
                | Decision::ExtraTo
                | Decision::KnightTo
                | Decision::Search
        ) && action < 64;
        let removed = (0..64)
            .filter(|&square| before.piece_at(square).is_some() && after.piece_at(square).is_none())
            .filter(|&square| !moved || before.selected() != Some(square))
            .map(square_name)
            .collect();
        Effect {
            from: before.selected().filter(|_| moved).map(square_name),
            placed: (moved
                || matches!(
                    before.decision(),
                    Decision::Place | Decision::Respawn | Decision::Knight
                ) && action < 64)
                .then(|| square_name(action)),
            removed,
        }
    }
}
