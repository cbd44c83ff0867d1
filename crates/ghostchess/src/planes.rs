//! `game::Planes` for [`GhostChess`]: the board in one fixed orientation, White at the
//! bottom, with a plane per kind of piece (section 12: no symmetry, no colour exchange).

use crate::board::{DARK, squares};
use crate::rules::{DECISIONS, GLOBAL_ACTIONS, GhostChess, PIECES, Piece, WHITE};
use game::{PlaneShape, Planes, PolicyLayout, Side};

/// The input planes, as `ghast games --planes` shows them (and this crate's docs).
const PLANES_DOC: &str = r#"Input planes over the 8 x 8 board, square `8 x (rank - 1) + (file - 1)`:

| planes | content |
|---|---|
| 0-5    | White's pawns, Knights, bishops, rooks; the Ghost; the black Knights |
| 6, 7   | protected Black pieces; the frozen White piece |
| 8-11   | Full Nexus, Full or Half Nexus, Shadow Nexus, Shadow Nexus when the turn began |
| 12     | black Knights lost / 2 |
| 13-26  | the decision, one plane per kind of section 10 |
| 27, 28 | 1 if White decides; 1 if it is White's turn |
| 29     | the selected square (the piece to move, the pawn that may Search) |
| 30     | the square of the piece the turn's move took |
| 31-34  | that piece: pawn, Knight, bishop, rook |
| 35, 36 | White's and Black's special move made this turn |
| 37     | the black Knights that moved after a Transcend |
| 38     | turns left before the limit / 200, at most 1 |
| 39     | the squares this decision may choose |
| 40     | the dark squares |

The value is from the decider's side, which plane 27 names."#;

/// Input planes per cell: see [`PLANES_DOC`].
pub const CHANNELS: usize = 41;

const DECISION_PLANE: usize = 13;

impl Planes for GhostChess {
    const PLANES_DOC: &'static str = PLANES_DOC;

    fn plane_shape(&self) -> PlaneShape {
        PlaneShape {
            channels: CHANNELS,
            height: 8,
            width: 8,
        }
    }

    fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: 1,
            global_actions: GLOBAL_ACTIONS,
        }
    }

    fn encode(&self, out: &mut [f32]) {
        assert_eq!(out.len(), CHANNELS * 64, "plane buffer length");
        out.fill(0.0);
        let mut mark = |plane: usize, bits: u64| {
            for square in squares(bits) {
                out[plane * 64 + square] = 1.0;
            }
        };
        for piece in PIECES {
            mark(piece as usize, self.bits(piece));
        }
        mark(6, self.protected());
        mark(7, self.frozen());
        mark(29, self.selected().map_or(0, |square| 1 << square));
        let capture = self.capture();
        if let Some((_, square)) = capture.taken {
            mark(30, 1 << square);
        }
        mark(37, self.knights_moved());
        mark(39, self.square_choices());
        mark(40, DARK);
        let mut fill = |plane: usize, value: f32| out[plane * 64..(plane + 1) * 64].fill(value);
        let flag = |on: bool| f32::from(u8::from(on));
        fill(8, flag(self.full_nexus()));
        fill(9, flag(self.nexus()));
        fill(10, flag(self.shadow_nexus()));
        fill(11, flag(self.shadow_at_start()));
        fill(12, f32::from(self.knights_lost()) / 2.0);
        if let Some(kind) = DECISIONS.iter().position(|&d| d == self.decision()) {
            fill(DECISION_PLANE + kind, 1.0);
        }
        fill(27, flag(self.decider() == WHITE));
        fill(28, flag(self.mover() == WHITE));
        if let Some((piece, _)) = capture.taken {
            let plane = match piece {
                Piece::Pawn => Some(31),
                Piece::Knight => Some(32),
                Piece::Bishop => Some(33),
                Piece::Rook => Some(34),
                Piece::Ghost | Piece::BlackKnight => None,
            };
            if let Some(plane) = plane {
                fill(plane, 1.0);
            }
        }
        let [white_special, black_special] = self.special_used();
        fill(35, flag(white_special));
        fill(36, flag(black_special));
        let left = self.options().max_moves().saturating_sub(self.turn() - 1) as f32;
        fill(38, (left / 200.0).min(1.0));
    }

    fn ownership(&self, side: Side, out: &mut [f32]) {
        out.fill(0.0);
        let own = if side == WHITE {
            (self.white(), self.black())
        } else {
            (self.black(), self.white())
        };
        for square in squares(own.0) {
            out[square] = 1.0;
        }
        for square in squares(own.1) {
            out[square] = -1.0;
        }
    }

    fn board_mask(&self, out: &mut [f32]) {
        out.fill(1.0);
    }
}
