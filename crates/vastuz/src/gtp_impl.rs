//! `game::GtpGame` for [`Vastuz`]: whole turns in the notation of section 6.2 (`c4+e3-e3`),
//! `black`/`white`, `final_score` as `B+1.5`.

use crate::vastuz::{Vastuz, result_line, score_text};
use game::{Game, GtpGame, final_score_text};
use std::fmt::Write;

impl GtpGame for Vastuz {
    const SCORE_LETTERS: [char; 2] = ['B', 'W'];

    /// The score lead, a finished game as its result says, a game in progress as it stands.
    fn final_score(&self) -> String {
        let [black, white] = self.half_scores();
        let lead = (f64::from(black) - f64::from(white)) / 2.0;
        final_score_text::<Self>(self.outcome(), lead)
    }

    /// The hexagon of points row by row, each row indented as the lattice places it, `X`
    /// Black, `O` White, `.` empty, row numbers on the left and the first point's name on
    /// the right; then the scores, whose move it is and the position string.
    fn diagram(&self) -> String {
        let geometry = self.geometry();
        let radius = geometry.radius();
        let mut out = String::new();
        for y in 0..geometry.width() as i32 {
            let columns = geometry.row(y);
            let indent = " ".repeat((y - radius).unsigned_abs() as usize);
            write!(out, "{:>2} {indent}", y + 1).expect("writing to a String");
            for x in columns.clone() {
                let point = match self.colour_at(geometry.cell(x, y)) {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None => '.',
                };
                write!(out, " {point}").expect("writing to a String");
            }
            let first = geometry.hex_name(geometry.cell(*columns.start(), y));
            writeln!(out, "   ({first}..)").expect("writing to a String");
        }
        let [black, white] = self.half_scores().map(score_text);
        writeln!(out, "X black {black}, O white {white}").expect("writing to a String");
        match result_line(self) {
            Some(result) => writeln!(out, "result {result}"),
            None => writeln!(out, "{} to move", Self::COLOURS[self.mover()]),
        }
        .expect("writing to a String");
        write!(out, "position {self}").expect("writing to a String");
        out
    }

    /// A board of size S has 2S - 1 rows.
    fn position_size(text: &str) -> Result<i64, String> {
        let rows = text.split_whitespace().next().unwrap_or_default();
        Ok((rows.split('/').count() as i64 + 1) / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VastuzOptions;

    #[test]
    fn final_score_and_diagram_name_the_colours() {
        let options = VastuzOptions::default();
        let mut game = Vastuz::new(&options);
        assert_eq!(game.final_score(), "0");
        game.play("e5").unwrap();
        assert_eq!(game.final_score(), "B+1.5");
        let diagram = game.diagram();
        assert!(
            diagram.starts_with(" 1      . . . . .   (e1..)"),
            "{diagram}"
        );
        assert!(
            diagram.contains(" 5  . . . . X . . . .   (a5..)"),
            "{diagram}"
        );
        assert!(diagram.contains("white to move"), "{diagram}");
        assert_eq!(Vastuz::position_size("4/5/6/7/6/5/4 b 1"), Ok(4));
    }
}
