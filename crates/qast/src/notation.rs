//! Tokens (QAST.md section 9.1), the legal choices of each decision (section 8) and the
//! reasons a token is refused (section 11).

use crate::qast::{BLACK, GOLD, KICK, MINUS, Next, PASS, PLUS, Qast, ROLLS};

/// A token as written, before it is checked against the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Token {
    Roll([u8; 5]),
    Space(usize),
    /// A move: direction and distance (a distance over 4 reads, and is illegal).
    Move(i8, usize),
    Gold,
    Kick,
    Pass,
}

/// Reads a token, case-insensitive; `None` if it is malformed.
pub fn parse_token(text: &str) -> Option<Token> {
    let lower = text.to_ascii_lowercase();
    let number = |digits: &str| -> Option<usize> {
        let ok = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        ok.then(|| digits.parse().ok()).flatten()
    };
    match lower.as_str() {
        "gold" => return Some(Token::Gold),
        "kick" => return Some(Token::Kick),
        "pass" => return Some(Token::Pass),
        _ => {}
    }
    if let Some(rest) = lower.strip_prefix('r') {
        let bytes = rest.as_bytes();
        if bytes.len() != 6 || bytes[3] != b'.' {
            return None;
        }
        let mut roll = [0; 5];
        for (value, &byte) in roll.iter_mut().zip(bytes[..3].iter().chain(&bytes[4..])) {
            if !(b'1'..=b'3').contains(&byte) {
                return None;
            }
            *value = byte - b'0';
        }
        return Some(Token::Roll(roll));
    }
    if let Some(digits) = lower.strip_prefix('t') {
        return number(digits).map(Token::Space);
    }
    for (sign, dir) in [('+', 1), ('-', -1)] {
        if let Some(digits) = lower.strip_prefix(sign) {
            return number(digits)
                .filter(|&d| d > 0)
                .map(|d| Token::Move(dir, d));
        }
    }
    None
}

/// The action of a roll: the five values read as a number in base 3.
pub fn roll_action(roll: [u8; 5]) -> usize {
    roll.iter()
        .fold(0, |acc, &value| acc * 3 + usize::from(value) - 1)
}

pub fn roll_text(action: usize) -> String {
    let mut digits = [0u8; 5];
    let mut rest = action;
    for value in digits.iter_mut().rev() {
        *value = (rest % 3) as u8 + 1;
        rest /= 3;
    }
    format!(
        "r{}{}{}.{}{}",
        digits[0], digits[1], digits[2], digits[3], digits[4]
    )
}

const COLOURS: [&str; 2] = ["black", "white"];

/// The spaces of a set of [`Qast::space_choices`], in increasing order.
pub(crate) fn spaces(mut choices: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (choices != 0).then(|| {
            let k = choices.trailing_zeros() as usize;
            choices &= choices - 1;
            k
        })
    })
}

impl Qast {
    /// Writes the legal actions of the next token into `out` (cleared first): at the roll,
    /// its 243 outcomes.
    pub fn legal(&self, out: &mut Vec<usize>) {
        out.clear();
        let n = self.n();
        out.extend(spaces(self.space_choices()));
        match self.next {
            Next::Over => {}
            Next::Roll => out.extend(0..ROLLS),
            Next::Setup(step) => {
                if step == 5 && self.options().black_gold() {
                    out.push(n + GOLD);
                }
            }
            Next::Assign { .. } => {
                if out.is_empty() {
                    out.push(n + PASS);
                }
            }
            Next::Move { colour, stick } => {
                let moves = self.moves(colour, stick);
                out.extend((0..8).filter(|&i| moves[i]).map(|i| n + PLUS + i));
                if out.is_empty() {
                    out.push(n + PASS);
                }
            }
            Next::Lap { colour, .. } => {
                let c = usize::from(colour);
                if self.gold[0] + self.gold[1] < 3 {
                    out.push(n + GOLD);
                }
                if self.gold[1 - c] > 0 && self.circles[1 - c] < 3 {
                    out.push(n + KICK);
                }
                out.push(n + PASS);
            }
            Next::End { .. } => out.push(n + PASS),
        }
    }

    /// The spaces the decision at hand may name, as bits (bit k for `tk`; the ring has at
    /// most 80): a set-up placement's, a return's or an end placement's empty painted spaces
    /// (the last two with a disc in the circles), an assignment's discs. The legal list and
    /// the network's input both read them here.
    pub fn space_choices(&self) -> u128 {
        let (colour, discs) = match self.next {
            Next::Setup(step) => ((step + 1) % 2, false),
            Next::Assign { colour, .. } => (colour, true),
            Next::Lap { colour, .. } | Next::End { colour }
                if self.circles[usize::from(colour)] > 0 =>
            {
                (colour, false)
            }
            _ => return 0,
        };
        let mut choices = 0;
        for k in 0..self.n() {
            let choice = match self.track[k] {
                Some(disc) => discs && disc.colour == colour,
                None => !discs && self.is_painted(colour, k),
            };
            choices |= u128::from(choice) << k;
        }
        choices
    }

    /// Whether `action` is among [`Qast::legal`]'s, decided without listing them (search
    /// asks this often).
    pub fn is_legal(&self, action: usize) -> bool {
        let n = self.n();
        if self.next == Next::Roll {
            return action < ROLLS;
        }
        if action < n {
            return self.space_choices() & (1 << action) != 0;
        }
        let pass = action == n + PASS;
        match self.next {
            Next::Over | Next::Roll => false,
            Next::Setup(step) => action == n + GOLD && step == 5 && self.options().black_gold(),
            Next::Assign { .. } => pass && self.space_choices() == 0,
            Next::Move { colour, stick } => {
                let moves = self.moves(colour, stick);
                match action.checked_sub(n + PLUS) {
                    Some(i) if i < 8 => moves[i],
                    _ => pass && !moves.contains(&true),
                }
            }
            Next::Lap { colour, .. } => {
                let c = usize::from(colour);
                match action - n {
                    GOLD => self.gold[0] + self.gold[1] < 3,
                    KICK => self.gold[1 - c] > 0 && self.circles[1 - c] < 3,
                    PASS => true,
                    _ => false,
                }
            }
            Next::End { .. } => pass,
        }
    }

    /// The token of `action` at this position.
    pub fn action_text(&self, action: usize) -> String {
        let n = self.n();
        if self.next == Next::Roll {
            return roll_text(action);
        }
        match action {
            a if a < n => format!("t{a}"),
            a if a < n + MINUS => format!("+{}", a - n - PLUS + 1),
            a if a < n + GOLD => format!("-{}", a - n - MINUS + 1),
            a if a == n + GOLD => "gold".into(),
            a if a == n + KICK => "kick".into(),
            a if a == n + PASS => "pass".into(),
            a => format!("action#{a}"),
        }
    }

    /// The action of a token here, or why it is refused, in words a player understands;
    /// the message names the token.
    pub fn check(&self, text: &str) -> Result<usize, String> {
        let why = |reason: String| format!("move \"{text}\": {reason}");
        let token =
            parse_token(text).ok_or_else(|| {
                why("malformed: a token is a roll (r213.31), a space (t24), a move (+2, -3), gold, \
                 kick or pass"
                .into())
            })?;
        let n = self.n();
        if let Token::Space(k) = token
            && k >= n
        {
            return Err(why(format!("t{k} is off the track (t0..t{})", n - 1)));
        }
        let colour_name = COLOURS[usize::from(self.mover())];
        let action = match (self.next, token) {
            (Next::Over, _) => return Err(why("the game is over".into())),
            (Next::Roll, Token::Roll(roll)) => return Ok(roll_action(roll)),
            (Next::Roll, _) => return Err(why("the roll is due (a token like r213.31)".into())),
            (_, Token::Roll(_)) => {
                return Err(why(format!("no roll is due: {} decides", colour_name)));
            }
            (_, Token::Space(k)) => k,
            (_, Token::Move(_, d)) if d > 4 => {
                self.kind_check(token).map_err(why)?;
                return Err(why(format!("{d} spaces is beyond every stick (at most 4)")));
            }
            (_, Token::Move(dir, d)) => n + if dir > 0 { PLUS } else { MINUS } + d - 1,
            (_, Token::Gold) => n + GOLD,
            (_, Token::Kick) => n + KICK,
            (_, Token::Pass) => n + PASS,
        };
        self.kind_check(token).map_err(why)?;
        if self.is_legal(action) {
            return Ok(action);
        }
        Err(why(self.fault(token)))
    }

    /// Whether the decision takes a token of this kind at all.
    fn kind_check(&self, token: Token) -> Result<(), String> {
        let takes = matches!(
            (self.next, token),
            (Next::Setup(_), Token::Gold | Token::Space(_))
                | (Next::Assign { .. }, Token::Space(_) | Token::Pass)
                | (Next::Move { .. }, Token::Move(..) | Token::Pass)
                | (
                    Next::Lap { .. },
                    Token::Space(_) | Token::Gold | Token::Kick | Token::Pass
                )
                | (Next::End { .. }, Token::Space(_) | Token::Pass)
        );
        if takes {
            Ok(())
        } else {
            Err(format!("{} takes no such token", self.decision_name()))
        }
    }

    /// The decision at hand in words: `Black's set-up placement 3`, `White's stick 2 move`.
    pub fn decision_name(&self) -> String {
        let name = |c: u8| if c == BLACK { "Black's" } else { "White's" };
        match self.next {
            Next::Setup(step) => format!("{} set-up placement {step}", name((step + 1) % 2)),
            Next::Roll => "the roll".into(),
            Next::Assign { colour, stick } => {
                format!("{} assignment of stick {stick}", name(colour))
            }
            Next::Move { colour, stick } => format!("{} move of stick {stick}", name(colour)),
            Next::Lap { colour, .. } => format!("{} lap bonus", name(colour)),
            Next::End { colour } => format!("{} end placement", name(colour)),
            Next::Over => "the end".into(),
        }
    }

    /// Why a token of a kind the decision takes is illegal here.
    fn fault(&self, token: Token) -> String {
        let colour = self.mover();
        let c = usize::from(colour);
        match (self.next, token) {
            (Next::Setup(_), Token::Gold) => {
                "gold is a set-up choice only at Black's third placement (s5) with black-gold on"
                    .into()
            }
            (Next::Lap { .. }, Token::Gold) => "the gold circles are full".into(),
            (Next::Lap { .. }, Token::Kick) => {
                if self.gold[1 - c] == 0 {
                    "the opponent has no disc on gold to kick".into()
                } else {
                    "the opponent's circles are full".into()
                }
            }
            (Next::Assign { .. }, Token::Space(k)) => {
                format!("t{k} holds no disc of the mover's to put a stick on")
            }
            (Next::Assign { .. } | Next::Move { .. }, Token::Pass) => {
                "pass is allowed only when nothing else is".into()
            }
            (Next::Move { colour, stick }, Token::Move(dir, d)) => {
                match self.carrier(colour, stick) {
                    None => format!("stick {stick} has no disc to move: only pass"),
                    Some(from) => {
                        let disc = self.track[from].expect("a disc");
                        let value = self.stick_value(colour, stick);
                        if d > value {
                            format!("stick {stick} is worth {value} this round")
                        } else if disc.dir != 0 && disc.dir != dir {
                            format!(
                                "the disc on t{from} moves only {}",
                                if disc.dir > 0 { "+" } else { "-" }
                            )
                        } else {
                            "it passes or lands on a disc of its colour (other than the jump), or lands on the last enemy disc on the track".into()
                        }
                    }
                }
            }
            (Next::Lap { .. } | Next::End { .. }, Token::Space(_)) if self.circles[c] == 0 => {
                "no disc in the mover's circles to place".into()
            }
            (_, Token::Space(k)) => {
                format!("t{k} is not an empty painted space of the mover's colour")
            }
            (Next::Setup(_), _) => "pass is no set-up choice".into(),
            _ => "not a legal choice here".into(),
        }
    }
}
