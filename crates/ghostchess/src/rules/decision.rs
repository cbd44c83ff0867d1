//! The decision machine (section 10): which choices a decision offers, what each does, and
//! how a turn goes on through its follow-ups (section 7) to its end.

use super::GhostChess;
use super::pieces::*;
use crate::board::*;
use game::Side;

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
    pub fn decider(self, mover: Side) -> Side {
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

impl GhostChess {
    /// The destinations of the piece on `from` in the mover's move.
    pub fn destinations(&self, from: usize) -> Bits {
        if self.mover == WHITE {
            self.white_destinations(from)
        } else {
            self.black_destinations(from)
        }
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

    /// Plays a legal action of the decision under way.
    pub fn apply(&mut self, action: usize) {
        let square = action;
        match self.decision {
            Decision::From => match action {
                ASSAULT => self.decision = Decision::AssaultFrom,
                PASS if self.mover == BLACK => {
                    self.special[BLACK.index()] = true;
                    self.hid = true;
                    self.end_turn();
                }
                PASS => self.end_turn(),
                _ => self.select(square, Decision::To),
            },
            Decision::AssaultFrom => self.select(square, Decision::AssaultTo),
            Decision::AssaultTo => {
                self.assault(usize::from(self.selected), square);
                self.special[WHITE.index()] = true;
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
                self.special[BLACK.index()] = true;
                self.after_rescue();
            }
            Decision::Respawn => {
                if action != NO {
                    self.put(Piece::Pawn, square);
                    self.special[WHITE.index()] = true;
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
                self.special[WHITE.index()] = true;
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
                    self.special[WHITE.index()] = true;
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

    pub(super) fn select(&mut self, square: usize, next: Decision) {
        self.selected = square as u8;
        self.decision = next;
    }

    /// Black's turn after the Rescue (step 3 on): cleared, then the Respawn.
    pub(super) fn after_rescue(&mut self) {
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
            && !self.special[WHITE.index()];
        if entitled && self.extra_movers() != 0 {
            self.decision = Decision::ExtraFrom;
            return;
        }
        self.after_extra();
    }

    /// Black's turn after the extra move: her Transcend, if she made no special move.
    fn after_extra(&mut self) {
        if !self.special[BLACK.index()] {
            self.decision = Decision::Transcend;
            return;
        }
        self.end_turn();
    }

    /// After a Transcend: the black Knights' captures, then the result.
    pub(super) fn knights_phase(&mut self) {
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
    pub(super) fn decide(&mut self, winner: Side, reason: Ending) {
        self.ending = Some((winner, reason));
        self.protected = 0;
        self.frozen = 0;
        self.next_turn();
        self.decision = Decision::Over;
    }

    fn next_turn(&mut self) {
        self.mover = self.mover.other();
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
    pub(super) fn end_turn(&mut self) {
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
}
