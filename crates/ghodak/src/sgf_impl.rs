//! `game::SgfGame` for [`Ghodak`]: Go in SGF (`GM[1]`). Points are two letters, the column
//! then the row, both from `a` at the top left (`cd` is C7 on 9x9); a pass is an empty value,
//! or `tt` as FF[3] wrote it on boards up to 19.

use crate::ghodak::Ghodak;
use crate::options::{GhodakOptions, RawOptions};
use game::{SgfGame, Side};

impl SgfGame for Ghodak {
    const SGF_GAME: u32 = 1;

    /// Area scoring, simple ko and no suicide are SGF's (and KataGo's) Chinese rules.
    fn sgf_setup(options: &GhodakOptions) -> Vec<(&'static str, String)> {
        vec![
            ("SZ", options.size().to_string()),
            ("KM", options.raw().komi.to_string()),
            ("RU", "Chinese".to_owned()),
        ]
    }

    /// `SZ` (19 when absent, as SGF says) and `KM` (0 when absent); other rules (`RU`) are
    /// read as these: the stones and moves are the same, only a finished game's score may
    /// differ.
    fn sgf_options(property: &dyn Fn(&str) -> Option<String>) -> Result<GhodakOptions, String> {
        let size = match property("SZ") {
            None => 19,
            Some(text) => text
                .trim()
                .parse::<i64>()
                .map_err(|_| format!("SZ[{text}]: expected the side of a square board, 5 to 19"))?,
        };
        let komi = match property("KM") {
            None => 0.0,
            Some(text) => text
                .trim()
                .parse::<f64>()
                .map_err(|_| format!("KM[{text}]: expected a number"))?,
        };
        RawOptions {
            size,
            komi,
            max_moves: None,
        }
        .validate()
        .map_err(|error| format!("SZ[{size}] KM[{komi}]: {error}"))
    }

    fn sgf_point(options: &GhodakOptions, action: usize) -> Option<String> {
        let size = options.size();
        (action < options.points()).then(|| {
            let letter = |index: usize| char::from(b'a' + index as u8);
            format!("{}{}", letter(action % size), letter(action / size))
        })
    }

    fn sgf_action(options: &GhodakOptions, value: &str) -> Result<usize, String> {
        let size = options.size();
        if value.is_empty() || (value == "tt" && size <= 19) {
            return Ok(options.points());
        }
        let coordinate = |c: u8| {
            let index = usize::from(c.wrapping_sub(b'a'));
            (c.is_ascii_lowercase() && index < size).then_some(index)
        };
        match value.as_bytes() {
            &[column, row] => match (coordinate(column), coordinate(row)) {
                (Some(column), Some(row)) => Ok(row * size + column),
                _ => Err(format!(
                    "[{value}] is off the {size}x{size} board (letters a to {})",
                    char::from(b'a' + size as u8 - 1)
                )),
            },
            _ => Err(format!(
                "[{value}] is not a point: two letters, the column then the row"
            )),
        }
    }

    fn stones(&self) -> Vec<(Side, usize)> {
        (0..self.options().points())
            .filter_map(|point| self.stone_at(point).map(|side| (side, point)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game;

    #[test]
    fn points_follow_sgf_from_the_top_left() {
        let options = GhodakOptions::default();
        let game = Ghodak::new(&options);
        for (gtp, sgf) in [
            ("A9", "aa"),
            ("C7", "cc"),
            ("J1", "ii"),
            ("E5", "ee"),
            ("A1", "ai"),
        ] {
            let action = game.parse_action(gtp).unwrap();
            assert_eq!(Ghodak::sgf_point(&options, action).as_deref(), Some(sgf));
            assert_eq!(Ghodak::sgf_action(&options, sgf), Ok(action), "{sgf}");
        }
        let pass = options.points();
        assert_eq!(Ghodak::sgf_point(&options, pass), None);
        assert_eq!(Ghodak::sgf_action(&options, ""), Ok(pass));
        assert_eq!(Ghodak::sgf_action(&options, "tt"), Ok(pass));
        for bad in ["aj", "ja", "a", "abc", "A1", "Aa"] {
            let error = Ghodak::sgf_action(&options, bad).unwrap_err();
            assert!(error.contains(&format!("[{bad}]")), "{error}");
        }
    }

    #[test]
    fn the_root_sets_size_and_komi() {
        let options = RawOptions {
            size: 13,
            komi: 6.5,
            max_moves: None,
        }
        .validate()
        .unwrap();
        let setup = Ghodak::sgf_setup(&options);
        let property = |id: &str| {
            setup
                .iter()
                .find(|(key, _)| *key == id)
                .map(|(_, value)| value.clone())
        };
        assert_eq!(Ghodak::sgf_options(&property), Ok(options));
        assert_eq!(
            Ghodak::sgf_options(&|_| None).map(|o| (o.size(), o.komi())),
            Ok((19, 0.0))
        );
        let wide = Ghodak::sgf_options(&|id| (id == "SZ").then(|| "19:13".to_owned()));
        assert!(wide.unwrap_err().contains("SZ[19:13]"));
        let tiny = Ghodak::sgf_options(&|id| (id == "SZ").then(|| "3".to_owned()));
        assert!(tiny.unwrap_err().contains("size must be 5..=19"));
    }
}
