//! `game::GtpGame` for [`GhostChess`]: whole-turn tokens as moves (`e2e4`, `d8a5%g1=f8`,
//! `hide`), `white` and `black` (White first, as in chess); `final_score` gives the material
//! lead or the result.

use crate::board::{bit, square_at};
use crate::rules::{BLACK, GhostChess, WHITE, colour_name};
use game::{Game, GtpGame, Side, final_score_text};
use std::fmt::Write;

impl GtpGame for GhostChess {
    const SCORE_LETTERS: [char; 2] = ['W', 'B'];

    /// White's material lead over Black's (`W+12`), or the winner's once the game is over.
    fn final_score(&self) -> String {
        let lead = f64::from(self.material(WHITE) - self.material(BLACK));
        let outcome = self.outcome();
        let lead = match outcome {
            Some(game::Outcome::Win(Side::First)) => lead.abs().max(1.0),
            Some(game::Outcome::Win(Side::Second)) => -lead.abs().max(1.0),
            _ => lead,
        };
        final_score_text::<Self>(outcome, lead)
    }

    /// The board as chess engines print it, rank 8 on top (`P N B R` White, `q` the Ghost,
    /// `n` a black Knight, `*` marks a protected piece, `!` the frozen one), then whose turn
    /// it is and the position string.
    fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            write!(out, "{} ", rank + 1).expect("a String");
            for file in 0..8 {
                let square = square_at(file, rank);
                let letter = self.piece_at(square).map_or('.', |piece| piece.letter());
                let mark = if self.protected() & bit(square) != 0 {
                    '*'
                } else if self.frozen() & bit(square) != 0 {
                    '!'
                } else {
                    ' '
                };
                write!(out, " {letter}{mark}").expect("a String");
            }
            out.push('\n');
        }
        writeln!(out, "   a  b  c  d  e  f  g  h").expect("a String");
        match self.result_text() {
            Some(result) => writeln!(out, "result {result}"),
            None => writeln!(
                out,
                "turn {}: {} to move",
                self.turn(),
                colour_name(self.mover())
            ),
        }
        .expect("a String");
        write!(out, "position {self}").expect("a String");
        out
    }

    /// The board is always 8 x 8; GTP has no `size` for Ghost Chess, so this is never asked.
    fn position_size(_text: &str) -> Result<i64, String> {
        Err("a Ghost Chess board is always 8 x 8".into())
    }
}
