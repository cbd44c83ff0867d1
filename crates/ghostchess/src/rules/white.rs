//! White's moves: ordinary ones (section 3), pawns without Knights (6.8), and the special
//! moves: Scouting (6.3), the Assault (6.4), a Shadow Nexus piece moving as a bishop and the
//! extra move (6.5), the Respawn's squares (6.6) and the Search (6.7).

use super::pieces::*;
use super::{Decision, GhostChess};
use crate::board::*;

impl GhostChess {
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

    /// The Shadow Nexus extra move of the White piece on `from`: ordinary, capturing
    /// nothing, to a light square.
    pub fn extra_destinations(&self, from: usize) -> Bits {
        self.white_ordinary(from) & !self.occupied() & LIGHT
    }

    pub(super) fn extra_movers(&self) -> Bits {
        squares(self.white())
            .filter(|&square| self.extra_destinations(square) != 0)
            .fold(0, |bits, square| bits | bit(square))
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

    pub(super) fn assault_possible(&self) -> bool {
        self.full_nexus && (self.assault_destinations(C1) | self.assault_destinations(F1)) != 0
    }

    /// Moves the block of the bishop on `from` so that the bishop lands on `to`.
    pub(super) fn assault(&mut self, from: usize, to: usize) {
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

    pub(super) fn white_move(&mut self, from: usize, to: usize) {
        let ordinary = self.white_ordinary(from) & bit(to) != 0;
        let pawn = self.pieces[Piece::Pawn as usize] & bit(from) != 0;
        if !ordinary {
            self.special[WHITE.index()] = true;
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
}
