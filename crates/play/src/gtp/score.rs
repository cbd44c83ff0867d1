//! GTP's `final_score` for Ghast.

use game::{Game, Outcome, Side};
use ghast::Ghast;

/// The score as GTP writes it: `O+3` when Orange wins by 3, `B+2.5` when Blue wins by 2.5,
/// `0` for a draw. The number is the difference of the scores (tiles on the board, plus komi
/// for Blue). A finished game names its winner, whichever rule ended it (a margin win goes to
/// the side with more tiles, komi aside); a game in progress is scored as it stands.
pub fn final_score(game: &Ghast) -> String {
    let lead = game.score(Side::First) - game.score(Side::Second);
    let winner = match game.outcome() {
        Some(Outcome::Win(side)) => Some(side),
        Some(Outcome::Draw) => None,
        None if lead > 0.0 => Some(Side::First),
        None if lead < 0.0 => Some(Side::Second),
        None => None,
    };
    match winner {
        None => "0".to_owned(),
        Some(Side::First) => format!("O+{}", lead.abs()),
        Some(Side::Second) => format!("B+{}", lead.abs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ghast::RawOptions;

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
        assert_eq!(final_score(&game(0.0, "3/4/5/4/3 o 1")), "0");
        assert_eq!(final_score(&game(0.5, "3/4/5/4/3 o 1")), "B+0.5");
        assert_eq!(final_score(&game(0.5, "a2/4/b4/4/3 b 3")), "O+1.5");
        let mut ended = game(0.0, "a2/4/5/4/3 b 2");
        ended.play("pass").unwrap();
        ended.play("pass").unwrap();
        assert_eq!(
            ended.result().map(|r| r.to_string()).as_deref(),
            Some("orange passes")
        );
        assert_eq!(final_score(&ended), "O+1");
    }
}
