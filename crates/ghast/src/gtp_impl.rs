//! `game::GtpGame` for [`Ghast`]: colours `orange` and `blue`, RULES.md notation.

use crate::ghast::Ghast;
#[cfg(test)]
use crate::options::RawOptions;
use crate::position::Position;
use game::{Game, GtpGame, Side, final_score_text};

impl GtpGame for Ghast {
    const SCORE_LETTERS: [char; 2] = ['O', 'B'];

    /// `O+3` when Orange wins by 3, `B+2.5` when Blue wins by 2.5, `0` for a draw. The number
    /// is the difference of the scores (tiles on the board, plus komi for Blue). A finished
    /// game names its winner, whichever rule ended it (a margin win goes to the side with more
    /// tiles, komi aside); a game in progress is scored as it stands.
    fn final_score(&self) -> String {
        let lead = self.score(Side::First) - self.score(Side::Second);
        final_score_text::<Self>(self.outcome(), f64::from(lead))
    }

    fn diagram(&self) -> String {
        crate::diagram::diagram(self)
    }

    fn turn_task(&self) -> &'static str {
        if self.pending().is_some() {
            "to accept or veto"
        } else {
            "to move"
        }
    }

    fn position_size(text: &str) -> Result<i64, String> {
        let position: Position = text
            .parse()
            .map_err(|e: crate::PositionError| e.to_string())?;
        Ok(i64::from(position.geometry.size()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(komi: f64, position: &str) -> Ghast {
        let options = RawOptions {
            size: 3,
            komi,
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        Ghast::from_position_str(&options, position).unwrap()
    }

    #[test]
    fn scores_name_the_leader() {
        assert_eq!(game(0.0, "3/4/5/4/3 o 1").final_score(), "0");
        assert_eq!(game(0.5, "3/4/5/4/3 o 1").final_score(), "B+0.5");
        assert_eq!(game(0.5, "a2/4/b4/4/3 b 3").final_score(), "O+1.5");
        let mut ended = game(0.0, "a2/4/5/4/3 b 2");
        ended.play("pass").unwrap();
        ended.play("pass").unwrap();
        assert_eq!(
            ended.result().map(|r| r.to_string()).as_deref(),
            Some("orange passes")
        );
        assert_eq!(ended.final_score(), "O+1");
    }
}
