//! `game::GtpGame` for [`Qast`]: tokens as moves (`t24`, `+2`, `gold`, `pass`), `black` and
//! `white`, and the roll told as `ghast-chance r213.31` (or `play <colour> r213.31`) by
//! whoever referees the game; `final_score` gives the count's lead (section 7).

use crate::qast::{Next, Qast, WHITE};
use game::{Game, GtpGame, Side, final_score_text};
use std::fmt::Write;

impl GtpGame for Qast {
    const SCORE_LETTERS: [char; 2] = ['B', 'W'];

    /// The count's lead: discs on gold, then progress in laps (`B+1.3`), or the result.
    fn final_score(&self) -> String {
        let lead = f64::from(self.score(Side::First) - self.score(Side::Second));
        final_score_text::<Self>(self.outcome(), (lead * 100.0).round() / 100.0)
    }

    /// The plank seen from above, White's side on the left: each row a space of each side
    /// (`X`/`O` a disc, `w`/`b` an empty painted space, `.` an empty one), the ends in the
    /// middle of the top and bottom rows; then the circles, gold, the coin, the round, the
    /// roll, the decision and the position string.
    fn diagram(&self) -> String {
        let s = self.options().side();
        let cell = |k: usize| -> String {
            let mark = match self.disc(k) {
                Some(disc) if disc.colour == WHITE => 'O',
                Some(_) => 'X',
                None if self.is_painted(WHITE, k) => 'w',
                None if self.is_painted(1 - WHITE, k) => 'b',
                None => '.',
            };
            format!("{:>4} {mark}", format!("t{k}"))
        };
        let mut out = String::new();
        for j in (0..s).rev() {
            let middle = match j {
                _ if j == s - 1 => cell(s),
                0 => cell(2 * s + 1),
                _ => " ".repeat(6),
            };
            writeln!(out, "{}  {middle}  {}", cell(j), cell(2 * s - j)).expect("a String");
        }
        let colour = |c: u8| Self::COLOURS[usize::from(c)];
        writeln!(
            out,
            "circles black {} white {}, gold black {} white {}; {} holds the coin, round {}",
            self.circles[0],
            self.circles[1],
            self.gold[0],
            self.gold[1],
            colour(self.coin),
            self.round
        )
        .expect("a String");
        match (self.result_text(), self.next) {
            (Some(result), _) => writeln!(out, "result {result}"),
            (None, Next::Roll) => writeln!(out, "the roll is due"),
            (None, _) => writeln!(out, "{} to decide", self.decision_name()),
        }
        .expect("a String");
        write!(out, "position {self}").expect("a String");
        out
    }

    /// A position does not say the track's length (the `side` rule); GTP has no `size` for
    /// Qast, so this is never asked.
    fn position_size(_text: &str) -> Result<i64, String> {
        Err("a Qast position keeps the track's side".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::QastOptions;

    #[test]
    fn the_diagram_draws_the_plank() {
        let game = Qast::from_position(
            &QastOptions::default(),
            "o4,o9,o13,x24,x28 x1o1 x1o0 x 1 - roll 7",
        )
        .unwrap();
        let diagram = game.diagram();
        let lines: Vec<&str> = diagram.lines().collect();
        assert_eq!(lines[0], " t18 .   t19 .   t20 .", "{diagram}");
        assert_eq!(lines[18], "  t0 .   t39 .   t38 .", "{diagram}");
        assert!(lines.contains(&"  t4 O           t34 b"), "{diagram}");
        assert!(lines.contains(&" t14 w           t24 X"), "{diagram}");
        assert!(diagram.contains("the roll is due"), "{diagram}");
        assert!(
            game.final_score().starts_with("B+1"),
            "{}",
            game.final_score()
        );
    }
}
