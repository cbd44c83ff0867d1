//! Black's moves: the Ghost's and the Knights' (section 3), Shadow Nexus's bar on rank 8
//! (6.5), the Rescue (5.2), the Transcend's blast and the Knights' captures after it (5.3),
//! and the protections Black's turn leaves: Shadow, flank, Haunt and Hide (section 4).

use super::pieces::*;
use super::{Decision, GhostChess};
use crate::board::*;

impl GhostChess {
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

    pub(super) fn black_move(&mut self, from: usize, to: usize) {
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

    /// Takes every White piece around `square` off the board (a Transcend).
    pub(super) fn blast(&mut self, square: usize) {
        for around in squares(NEIGHBOURS[square] & self.white()) {
            self.take(around);
        }
    }

    /// The black Knights that may still capture after a Transcend.
    pub(super) fn knights_that_capture(&self) -> Bits {
        squares(self.pieces[Piece::BlackKnight as usize] & !self.knights_moved)
            .filter(|&square| KNIGHT_ATTACKS[square] & self.white() != 0)
            .fold(0, |bits, square| bits | bit(square))
    }

    /// The Black pieces protected at the end of this Black turn (section 4).
    pub(super) fn protections(&self) -> Bits {
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
}
