//! Pig, the dice game (John Scarne's, as OpenSpiel plays it): on your turn you roll a die as
//! often as you like, adding each roll to your turn total, until you hold (the total is
//! banked) or roll a 1 (the total is lost). The first to bank `target` points wins.
//!
//! The project's smallest game with chance: a roll is a chance event with exact
//! probabilities, so search, self-play and the arena meet chance nodes here before they meet
//! the dice sticks of Qast. It has no board, no GTP and no page: the game that shows a game
//! trains, rates and exports with only its rules and planes.
//!
//! Choices where versions of Pig differ:
//! - Reaching the target with the turn total wins at once (holding would win anyway).
//! - Holding a turn total of 0 is not allowed: it would let both sides pass for ever.
//! - After `max_turns` turns the higher banked score wins, equal scores draw, so that every
//!   game ends and the state space is finite (and acyclic: the turn count is in the state).

mod options;
mod planes;

pub use options::{OptionsError, PigOptions, RawOptions};

use game::{Game, Outcome, Side};

/// Action: roll the die.
pub const ROLL: usize = 0;
/// Action: bank the turn total and end the turn.
pub const HOLD: usize = 1;

/// The action of chance's roll showing `face` (1 ..= faces).
pub fn face_action(face: u32) -> usize {
    2 + face as usize - 1
}

/// A position of Pig.
#[derive(Clone, Debug, PartialEq)]
pub struct Pig {
    options: PigOptions,
    /// Banked points by side.
    scores: [u32; 2],
    /// Points rolled this turn and not yet banked.
    turn_total: u32,
    /// Turns begun so far (the first turn is turn 1).
    turn: u32,
    to_move: Side,
    /// The die is in the air: chance decides next.
    rolling: bool,
    ending: Option<(Outcome, &'static str)>,
}

impl Pig {
    /// Banked points of `side`.
    pub fn banked(&self, side: Side) -> u32 {
        self.scores[side.index()]
    }

    /// Points rolled this turn and not yet banked.
    pub fn turn_total(&self) -> u32 {
        self.turn_total
    }

    /// Turns begun so far.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    fn end_turn(&mut self) {
        self.turn_total = 0;
        if self.turn >= self.options.max_turns() {
            let [first, second] = self.scores;
            let outcome = match first.cmp(&second) {
                std::cmp::Ordering::Greater => Outcome::Win(Side::First),
                std::cmp::Ordering::Less => Outcome::Win(Side::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            self.ending = Some((outcome, "limit"));
            return;
        }
        self.turn += 1;
        self.to_move = self.to_move.other();
    }

    fn faces(&self) -> u32 {
        self.options.faces()
    }
}

impl Game for Pig {
    type Options = PigOptions;

    const NAME: &'static str = "pig";

    const ABOUT: &'static str = "the dice game: roll to build a turn total, hold to bank it, a 1 loses it (no GTP, no page)";

    const OPTION_HELP: &'static [(&'static str, &'static str)] = &[
        ("target", "banked points that win, 2..=1000"),
        (
            "faces",
            "faces of the die, 2..=20; a 1 loses the turn total",
        ),
        (
            "max_turns",
            "turns after which the higher banked score wins, 2..=10000",
        ),
    ];

    const CHANCE: bool = true;

    fn new(options: &PigOptions) -> Self {
        Pig {
            options: options.clone(),
            scores: [0, 0],
            turn_total: 0,
            turn: 1,
            to_move: Side::First,
            rolling: false,
            ending: None,
        }
    }

    fn options(&self) -> &PigOptions {
        &self.options
    }

    fn num_actions(&self) -> usize {
        2 + self.faces() as usize
    }

    fn to_move(&self) -> Side {
        self.to_move
    }

    fn is_chance(&self) -> bool {
        self.rolling && self.ending.is_none()
    }

    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>) {
        out.clear();
        if self.is_chance() {
            let probability = 1.0 / f64::from(self.faces());
            out.extend((1..=self.faces()).map(|face| (face_action(face), probability)));
        }
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.ending.is_some() {
            return;
        }
        if self.rolling {
            out.extend((1..=self.faces()).map(face_action));
            return;
        }
        out.push(ROLL);
        if self.turn_total > 0 {
            out.push(HOLD);
        }
    }

    fn is_legal(&self, action: usize) -> bool {
        if self.ending.is_some() {
            return false;
        }
        match (self.rolling, action) {
            (false, ROLL) => true,
            (false, HOLD) => self.turn_total > 0,
            (true, action) => (2..self.num_actions()).contains(&action),
            _ => false,
        }
    }

    fn apply(&mut self, action: usize) {
        debug_assert!(self.is_legal(action), "illegal action {action}");
        let me = self.to_move.index();
        match (self.rolling, action) {
            (false, ROLL) => self.rolling = true,
            (false, _) => {
                self.scores[me] += self.turn_total;
                self.end_turn();
            }
            (true, _) => {
                self.rolling = false;
                let face = (action - 1) as u32;
                if face == 1 {
                    self.end_turn();
                } else if self.scores[me] + self.turn_total + face >= self.options.target() {
                    self.scores[me] += self.turn_total + face;
                    self.turn_total = 0;
                    self.ending = Some((Outcome::Win(self.to_move), "target"));
                } else {
                    self.turn_total += face;
                }
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ending.map(|(outcome, _)| outcome)
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.ending.map(|(_, reason)| reason)
    }

    /// `first second turn-total turn side`, then `rolling` while the die is in the air:
    /// `12 7 5 9 first rolling`.
    fn position_text(&self) -> String {
        let side = match self.to_move {
            Side::First => "first",
            Side::Second => "second",
        };
        let [first, second] = self.scores;
        let rolling = if self.rolling { " rolling" } else { "" };
        format!(
            "{first} {second} {} {} {side}{rolling}",
            self.turn_total, self.turn
        )
    }

    fn hash(&self) -> u64 {
        let [first, second] = self.scores;
        // Every field below 2^16 (target and turns are bounded by the options), so the
        // packing is exact: equal hashes mean equal positions.
        u64::from(first)
            | u64::from(second) << 12
            | u64::from(self.turn_total) << 24
            | u64::from(self.turn) << 36
            | (self.to_move.index() as u64) << 52
            | u64::from(self.rolling) << 53
            | u64::from(self.ending.is_some()) << 54
    }

    fn score(&self, side: Side) -> f32 {
        self.scores[side.index()] as f32
    }

    fn symmetry_count(&self) -> usize {
        1
    }

    fn transform_action(&self, _sym: usize, action: usize) -> usize {
        action
    }

    fn action_to_string(&self, action: usize) -> String {
        match action {
            ROLL => "roll".to_owned(),
            HOLD => "hold".to_owned(),
            face => (face - 1).to_string(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        if self.ending.is_some() {
            return Err(format!("`{text}`: the game is over"));
        }
        let action = match text {
            "roll" => ROLL,
            "hold" => HOLD,
            face => match face.parse::<u32>() {
                Ok(face) if (1..=self.faces()).contains(&face) => face_action(face),
                _ => {
                    return Err(format!(
                        "`{text}` is not a move: `roll`, `hold`, or a face 1..={} of the die",
                        self.faces()
                    ));
                }
            },
        };
        if self.is_legal(action) {
            return Ok(action);
        }
        Err(match (self.rolling, action) {
            (true, _) => format!(
                "`{text}`: the die is rolling, only a face 1..={} can come",
                self.faces()
            ),
            (false, HOLD) => format!("`{text}`: nothing to hold, the turn total is 0"),
            _ => format!("`{text}`: a face comes only after `roll`"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut Pig, moves: &str) {
        for text in moves.split_whitespace() {
            let action = game.parse_action(text).unwrap();
            game.apply(action);
        }
    }

    #[test]
    fn a_turn_banks_loses_and_wins() {
        let options = RawOptions {
            target: 10,
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        let mut game = Pig::new(&options);
        play(&mut game, "roll 4 roll 3 hold");
        assert_eq!(
            (game.banked(Side::First), game.to_move()),
            (7, Side::Second)
        );
        play(&mut game, "roll 5 roll 1");
        assert_eq!(
            (game.banked(Side::Second), game.to_move()),
            (0, Side::First)
        );
        assert!(game.parse_action("hold").is_err(), "nothing to hold");
        play(&mut game, "roll");
        assert!(game.is_chance());
        let mut outcomes = Vec::new();
        game.chance_outcomes(&mut outcomes);
        assert_eq!(outcomes.len(), 6);
        assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
        play(&mut game, "3");
        assert_eq!(game.outcome(), Some(Outcome::Win(Side::First)));
        assert_eq!(game.end_reason(), Some("target"));
        assert_eq!(game.position_text(), "10 0 0 3 first");
    }

    #[test]
    fn the_turn_limit_ends_the_game_on_the_banked_scores() {
        let options = RawOptions {
            target: 50,
            max_turns: 2,
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        let mut game = Pig::new(&options);
        play(&mut game, "roll 2 hold roll 2 roll 3 hold");
        assert_eq!(game.outcome(), Some(Outcome::Win(Side::Second)));
        assert_eq!(game.end_reason(), Some("limit"));
    }
}
