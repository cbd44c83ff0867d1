//! `game::GtpGame` for [`Ghodak`]: GTP as Go programs speak it (`black`/`white`, `D4`,
//! `final_score` as `B+3.5`), so that GNU Go, Pachi and GUIs drive it unchanged.

use crate::ghodak::Ghodak;
#[cfg(test)]
use crate::options::RawOptions;
use game::Game;
use game::{GtpGame, Side, final_score_text};
use std::fmt::Write;

const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";

impl GtpGame for Ghodak {
    const SCORE_LETTERS: [char; 2] = ['B', 'W'];

    /// The area-score lead, komi included: a finished game as its result says, a game in
    /// progress as the board stands.
    fn final_score(&self) -> String {
        let [black, white] = self.half_scores();
        let lead = f64::from(black - white) / 2.0;
        final_score_text::<Self>(self.result().map(|result| result.outcome), lead)
    }

    /// GNU Go's layout: column letters above and below, row numbers on both sides, `X` Black,
    /// `O` White, `.` empty; then whose move it is, the scores and the position string.
    fn diagram(&self) -> String {
        let size = self.options().size();
        let letters: String = COLUMNS[..size].chars().map(|c| format!(" {c}")).collect();
        let mut out = format!("   {letters}\n");
        for row in 0..size {
            let number = size - row;
            write!(out, "{number:>2} ").expect("writing to a String");
            for column in 0..size {
                let stone = match self.stone_at(row * size + column) {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => '.',
                };
                write!(out, " {stone}").expect("writing to a String");
            }
            writeln!(out, " {number:<2}").expect("writing to a String");
        }
        writeln!(out, "   {letters}").expect("writing to a String");
        let [black, white] = self.half_scores().map(|half| f64::from(half) / 2.0);
        writeln!(
            out,
            "X black {black}, O white {white} (area, komi {} included)",
            self.options().komi()
        )
        .expect("writing to a String");
        match self.result() {
            Some(result) => writeln!(out, "result {result}"),
            None => writeln!(
                out,
                "{} to move",
                Self::COLOURS[Game::to_move(self).index()]
            ),
        }
        .expect("writing to a String");
        write!(out, "position {self}").expect("writing to a String");
        out
    }

    fn position_size(text: &str) -> Result<i64, String> {
        let rows = text.split_whitespace().next().unwrap_or_default();
        Ok(rows.split('/').count() as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_score_and_diagram_speak_go() {
        let options = RawOptions {
            size: 5,
            komi: 0.5,
            max_moves: None,
        }
        .validate()
        .unwrap();
        let mut game = Ghodak::new(&options);
        assert_eq!(game.final_score(), "W+0.5");
        game.play("C3").unwrap();
        assert_eq!(game.final_score(), "B+24.5");
        let diagram = game.diagram();
        assert!(
            diagram.starts_with("    A B C D E\n 5  . . . . . 5"),
            "{diagram}"
        );
        assert!(diagram.contains(" 3  . . X . . 3"), "{diagram}");
        assert!(diagram.contains("white to move"), "{diagram}");
        assert_eq!(Ghodak::position_size("5/5/2x2/5/5 w 2"), Ok(5));
    }
}
