//! Position strings (QAST.md sections 9.2 and 9.3): the track's discs, the circles, gold,
//! the coin, the round, the roll, the next decision and the token number.

use crate::options::QastOptions;
use crate::qast::{BLACK, Disc, Ending, Next, Qast, WHITE};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("position `{text}`: {why}")]
pub struct PositionError {
    text: String,
    why: String,
}

fn colour_char(colour: u8) -> char {
    if colour == BLACK { 'x' } else { 'o' }
}

fn next_text(next: Next) -> String {
    let c = colour_char;
    match next {
        Next::Setup(step) => format!("s{step}"),
        Next::Roll => "roll".into(),
        Next::Assign { colour, stick } => format!("a{}{stick}", c(colour)),
        Next::Move { colour, stick } => format!("m{}{stick}", c(colour)),
        Next::Lap {
            colour,
            stick,
            space,
        } => format!("l{}{stick}@{space}", c(colour)),
        Next::End { colour } => format!("e{}", c(colour)),
        Next::Over => "over".into(),
    }
}

impl std::fmt::Display for Qast {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let discs: Vec<String> = (0..self.n())
            .filter_map(|k| {
                let disc = self.disc(k)?;
                let mut code = format!("{}{k}", colour_char(disc.colour));
                if disc.dir != 0 {
                    let sign = if disc.dir > 0 { '+' } else { '-' };
                    code.push_str(&format!("{sign}{}", disc.entry));
                }
                if disc.sticks != 0 {
                    code.push(':');
                    for stick in 1..=3 {
                        if disc.sticks & (1 << stick) != 0 {
                            code.push_str(&stick.to_string());
                        }
                    }
                }
                Some(code)
            })
            .collect();
        let track = if discs.is_empty() {
            "-".into()
        } else {
            discs.join(",")
        };
        let roll = match self.roll {
            Some(r) if self.next != Next::Roll => {
                format!("{}{}{}.{}{}", r[0], r[1], r[2], r[3], r[4])
            }
            _ => "-".into(),
        };
        write!(
            f,
            "{track} x{}o{} x{}o{} {} {} {roll} {} {}",
            self.circles[0],
            self.circles[1],
            self.gold[0],
            self.gold[1],
            colour_char(self.coin),
            self.round,
            next_text(self.next),
            self.number
        )
    }
}

impl Qast {
    /// The position a string of section 9.3 describes, checked: every side has its four
    /// discs, spaces are on the track and hold one disc each, and the next decision fits.
    pub fn from_position(options: &QastOptions, text: &str) -> Result<Qast, PositionError> {
        let bad = |why: String| PositionError {
            text: text.to_owned(),
            why,
        };
        let fields: Vec<&str> = text.split(' ').collect();
        let [track, circles, gold, coin, round, roll, next, number] = fields[..] else {
            return Err(bad(
                "expected eight fields separated by single spaces".into()
            ));
        };
        let int = |field: &str, what: &str| -> Result<u32, PositionError> {
            let ok = !field.is_empty()
                && field.bytes().all(|b| b.is_ascii_digit())
                && (field == "0" || !field.starts_with('0'));
            ok.then(|| field.parse().ok())
                .flatten()
                .ok_or_else(|| bad(format!("{what} `{field}` is not a number")))
        };
        let colour = |ch: char| match ch {
            'x' => Some(BLACK),
            'o' => Some(WHITE),
            _ => None,
        };
        let mut game = Qast::new(options);
        let n = game.n();
        game.track = [None; crate::qast::MAX_TRACK];
        if track != "-" {
            for code in track.split(',') {
                let (body, sticks) = code.split_once(':').unwrap_or((code, ""));
                let mut chars = body.chars();
                let owner = chars
                    .next()
                    .and_then(colour)
                    .ok_or_else(|| bad(format!("disc `{code}` starts with neither x nor o")))?;
                let rest = chars.as_str();
                let (space, dir, entry) = match rest.find(['+', '-']) {
                    Some(at) => {
                        let dir = if rest.as_bytes()[at] == b'+' { 1 } else { -1 };
                        (
                            int(&rest[..at], "space")?,
                            dir,
                            int(&rest[at + 1..], "entry space")?,
                        )
                    }
                    None => {
                        let space = int(rest, "space")?;
                        (space, 0, space)
                    }
                };
                let (space, entry) = (space as usize, entry as usize);
                if space >= n || entry >= n {
                    return Err(bad(format!("disc `{code}` is off the track of {n} spaces")));
                }
                if game.track[space].is_some() {
                    return Err(bad(format!("two discs on t{space}")));
                }
                let mut marks = 0u8;
                let mut last = 0;
                for ch in sticks.chars() {
                    let stick = ch
                        .to_digit(10)
                        .filter(|&s| (1..=3).contains(&s) && s > last);
                    let stick =
                        stick.ok_or_else(|| bad(format!("disc `{code}` has bad stick marks")))?;
                    marks |= 1 << stick;
                    last = stick;
                }
                if code.contains(':') && marks == 0 {
                    return Err(bad(format!("disc `{code}` has bad stick marks")));
                }
                game.track[space] = Some(Disc {
                    colour: owner,
                    entry: entry as u8,
                    dir,
                    sticks: marks,
                });
            }
        }
        let counts = |field: &str, what: &str| -> Result<[u8; 2], PositionError> {
            let b = field.as_bytes();
            let digit = |byte: u8| (byte as char).to_digit(10).map(|d| d as u8);
            match b {
                [b'x', x, b'o', o] => Some([digit(*x), digit(*o)])
                    .filter(|c| c.iter().all(Option::is_some))
                    .map(|c| c.map(Option::unwrap)),
                _ => None,
            }
            .ok_or_else(|| bad(format!("{what} `{field}` is not x<digit>o<digit>")))
        };
        game.circles = counts(circles, "circles")?;
        game.gold = counts(gold, "gold")?;
        game.next =
            parse_next(next, n).ok_or_else(|| bad(format!("next `{next}` is no decision")))?;
        for c in [BLACK, WHITE] {
            let total = game.on_track(c)
                + usize::from(game.circles[usize::from(c)] + game.gold[usize::from(c)]);
            // During the set-up the discs not yet placed are in hand.
            let expected = match game.next {
                Next::Setup(step) => {
                    1 + usize::from(if c == BLACK { step / 2 } else { (step - 1) / 2 })
                }
                _ => 4,
            };
            if total != expected {
                let name = ["Black", "White"][usize::from(c)];
                return Err(bad(format!(
                    "{name} has {total} discs in play, not {expected}"
                )));
            }
        }
        if game.gold[0] + game.gold[1] > 3 || game.circles.iter().any(|&c| c > 3) {
            return Err(bad(
                "at most three discs on gold and three in a colour's circles".into(),
            ));
        }
        game.coin = coin
            .chars()
            .next()
            .filter(|_| coin.len() == 1)
            .and_then(colour)
            .ok_or_else(|| bad(format!("coin `{coin}` is neither x nor o")))?;
        game.round = int(round, "round")?;
        game.roll = if roll == "-" {
            None
        } else {
            let token = crate::notation::parse_token(&format!("r{roll}"));
            match token {
                Some(crate::notation::Token::Roll(values)) => Some(values),
                _ => return Err(bad(format!("roll `{roll}` is not like 213.31"))),
            }
        };
        game.number = int(number, "token number")?;
        let needs_roll = matches!(
            game.next,
            Next::Assign { .. } | Next::Move { .. } | Next::Lap { .. } | Next::End { .. }
        );
        if needs_roll != game.roll.is_some() && game.next != Next::Over {
            return Err(bad(
                "a roll is shown exactly from the roll to the round's end".into(),
            ));
        }
        if let Next::Lap { colour, space, .. } = game.next
            && game.track[usize::from(space)].is_none_or(|d| d.colour != colour)
        {
            return Err(bad(format!("no lapping disc on t{space}")));
        }
        if game.next == Next::Over {
            game.ending = Some(if game.gold.contains(&3) {
                Ending::Gold
            } else {
                Ending::Limit
            });
        }
        if (game.round == 0) != matches!(game.next, Next::Setup(_)) {
            return Err(bad("round 0 is the set-up, and only it".into()));
        }
        Ok(game)
    }
}

fn parse_next(text: &str, n: usize) -> Option<Next> {
    let colour = |ch: u8| match ch {
        b'x' => Some(BLACK),
        b'o' => Some(WHITE),
        _ => None,
    };
    let stick = |ch: u8| (b'1'..=b'3').contains(&ch).then(|| ch - b'0');
    let b = text.as_bytes();
    Some(match b {
        b"roll" => Next::Roll,
        b"over" => Next::Over,
        [b's', step] if (b'1'..=b'6').contains(step) => Next::Setup(step - b'0'),
        [b'a', c, k] => Next::Assign {
            colour: colour(*c)?,
            stick: stick(*k)?,
        },
        [b'm', c, k] => Next::Move {
            colour: colour(*c)?,
            stick: stick(*k)?,
        },
        [b'e', c] => Next::End {
            colour: colour(*c)?,
        },
        [b'l', c, k, b'@', rest @ ..] => {
            let digits = std::str::from_utf8(rest).ok()?;
            let space: usize = digits
                .parse()
                .ok()
                .filter(|_| !digits.is_empty() && (digits == "0" || !digits.starts_with('0')))?;
            if space >= n {
                return None;
            }
            Next::Lap {
                colour: colour(*c)?,
                stick: stick(*k)?,
                space: space as u8,
            }
        }
        _ => return None,
    })
}
