//! `game::GtpGame` for [`Ghodak`]: GTP as Go programs speak it (`black`/`white`, `D4`,
//! `final_score` as `B+3.5`), so that GNU Go, Pachi and GUIs drive it unchanged.

use crate::ghodak::Ghodak;
use crate::options::GhodakOptions;
#[cfg(test)]
use crate::options::RawOptions;
use game::Game;
use game::{GtpGame, Side, final_score_text};
use std::fmt::Write;

const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";

impl GtpGame for Ghodak {
    const SCORE_LETTERS: [char; 2] = ['B', 'W'];

    /// Area scoring, simple ko, no suicide: KataGo's `chinese` (GHODAK.md).
    const KATAGO_RULES: Option<&'static str> = Some("chinese");

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

    /// Writes the stones as a position string and reads it, so that a set-up is checked as a
    /// position string is: every group needs a liberty.
    fn set_up(
        options: &GhodakOptions,
        stones: &[(Side, usize)],
        to_move: Side,
    ) -> Result<Self, String> {
        let size = options.size();
        let mut board = vec![None; options.points()];
        for &(side, action) in stones {
            let empty = Ghodak::new(options);
            let cell = board.get_mut(action).ok_or_else(|| {
                format!(
                    "`{}` is not a point to place a stone on",
                    empty.action_to_string(action)
                )
            })?;
            if cell.is_some() {
                return Err(format!("two stones on {}", empty.name(action)));
            }
            *cell = Some(side);
        }
        let rows: Vec<String> = board
            .chunks(size)
            .map(|row| {
                let mut text = String::new();
                let mut empties = 0;
                for cell in row {
                    let stone = match cell {
                        None => {
                            empties += 1;
                            continue;
                        }
                        Some(Side::First) => 'x',
                        Some(Side::Second) => 'o',
                    };
                    if empties > 0 {
                        write!(text, "{}", std::mem::take(&mut empties)).expect("to a String");
                    }
                    text.push(stone);
                }
                if empties > 0 {
                    write!(text, "{empties}").expect("to a String");
                }
                text
            })
            .collect();
        let text = format!("{} {} 1", rows.join("/"), side_letter(to_move));
        Ghodak::from_position_str(options, &text).map_err(|error| error.reason)
    }

    /// The position string with `side` to move: the stones and the move count stay; the ko
    /// and the passes, which a position string leaves out, go.
    fn hand_turn_to(&self, side: Side) -> Result<Self, String> {
        let text = self.position_text();
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let letter = side_letter(side).to_string();
        words[1] = &letter;
        Ghodak::from_position_str(self.options(), &words.join(" ")).map_err(|error| error.reason)
    }
}

/// A side as a position string writes it.
fn side_letter(side: Side) -> char {
    if side == Side::First { 'b' } else { 'w' }
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

    #[test]
    fn a_turn_handed_over_keeps_the_stones_and_clears_the_ko() {
        let options = RawOptions::default().validate().unwrap();
        let mut game = Ghodak::new(&options);
        // Black takes the ko at E5 (capturing D5); White may not retake at D5 at once.
        for point in ["D6", "E6", "C5", "F5", "D4", "E4", "A1", "D5", "E5"] {
            game.play(point).unwrap();
        }
        let retake = game.parse_action("D5");
        assert!(retake.is_err(), "the ko: {retake:?}");
        let handed = game.hand_turn_to(Side::Second).unwrap();
        assert_eq!(Game::to_move(&handed), Side::Second);
        assert_eq!(
            handed.position_text().split_whitespace().next(),
            game.position_text().split_whitespace().next()
        );
        assert!(handed.parse_action("D5").is_ok(), "the ko is cleared");
        let black = game.hand_turn_to(Side::First).unwrap();
        assert_eq!(Game::to_move(&black), Side::First);
    }

    #[test]
    fn set_up_places_stones_and_hands_the_move_over() {
        let options = RawOptions::default().validate().unwrap();
        let start = Ghodak::new(&options);
        let point = |name: &str| start.parse_action(name).unwrap();
        let stones = [(Side::First, point("C3")), (Side::First, point("G7"))];
        let game = Ghodak::set_up(&options, &stones, Side::Second).unwrap();
        assert_eq!(game.stone_at(point("C3")), Some(Side::First));
        assert_eq!(game.stone_at(point("G7")), Some(Side::First));
        assert_eq!(Game::to_move(&game), Side::Second);
        assert!(game.parse_action("C3").is_err(), "an occupied point");
        assert!(game.parse_action("D4").is_ok());

        let twice = Ghodak::set_up(&options, &[stones[0], stones[0]], Side::Second);
        assert!(twice.unwrap_err().contains("two stones on C3"));
        let pass = Ghodak::set_up(&options, &[(Side::First, point("pass"))], Side::First);
        assert!(pass.unwrap_err().contains("`pass` is not a point"));
        let captured = [
            (Side::First, point("A1")),
            (Side::Second, point("A2")),
            (Side::Second, point("B1")),
        ];
        let dead = Ghodak::set_up(&options, &captured, Side::First).unwrap_err();
        assert!(dead.contains("no liberties"), "{dead}");
    }
}
