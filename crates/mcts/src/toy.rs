//! A tiny game for the crate's tests: Nim where taking the last stone wins (or, misère, loses),
//! and taking exactly `extra_turn_take` stones lets the same side move again, so that sides do
//! not alternate.

use game::{Game, Outcome, Side};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NimOptions {
    pub stones: u32,
    pub max_take: u32,
    pub extra_turn_take: Option<u32>,
    /// Taking exactly this many stones is futile ([`Game::is_futile`]), for the tests of
    /// searches that leave such moves out.
    pub futile_take: Option<u32>,
    /// Misère: whoever takes the last stone loses, so a move can end the game lost for its
    /// mover, as a pass into a lost count does in Go.
    pub last_stone_loses: bool,
}

#[derive(Clone, Debug)]
pub struct Nim {
    options: NimOptions,
    stones: u32,
    to_move: Side,
    winner: Option<Side>,
}

impl Nim {
    pub fn start(stones: u32, max_take: u32, extra_turn_take: Option<u32>) -> Self {
        Self::new(&NimOptions {
            stones,
            max_take,
            extra_turn_take,
            futile_take: None,
            last_stone_loses: false,
        })
    }

    /// Stones still on the table.
    pub fn stones_left(&self) -> u32 {
        self.stones
    }

    /// Action index of taking `stones` stones.
    pub fn take(stones: u32) -> usize {
        stones as usize - 1
    }

    /// The exact value for the side to move, by full minimax.
    pub fn solve(&self) -> f32 {
        if let Some(outcome) = self.outcome() {
            return outcome.value_for(self.to_move);
        }
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        legal
            .into_iter()
            .map(|action| {
                let mut next = self.clone();
                next.apply(action);
                let value = next.solve();
                if next.to_move == self.to_move {
                    value
                } else {
                    -value
                }
            })
            .fold(f32::NEG_INFINITY, f32::max)
    }
}

impl Game for Nim {
    type Options = NimOptions;

    const NAME: &'static str = "nim";

    fn new(options: &NimOptions) -> Self {
        Self {
            options: options.clone(),
            stones: options.stones,
            to_move: Side::First,
            winner: None,
        }
    }

    fn options(&self) -> &NimOptions {
        &self.options
    }

    fn num_actions(&self) -> usize {
        self.options.max_take as usize
    }

    fn to_move(&self) -> Side {
        self.to_move
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.winner.is_none() {
            out.extend((1..=self.stones.min(self.options.max_take)).map(Self::take));
        }
    }

    fn is_legal(&self, action: usize) -> bool {
        self.winner.is_none() && action < self.stones.min(self.options.max_take) as usize
    }

    fn is_futile(&self, action: usize) -> bool {
        self.options.futile_take == Some(action as u32 + 1)
    }

    fn apply(&mut self, action: usize) {
        let taken = action as u32 + 1;
        self.stones -= taken;
        if self.stones == 0 {
            self.winner = Some(if self.options.last_stone_loses {
                self.to_move.other()
            } else {
                self.to_move
            });
        } else if self.options.extra_turn_take != Some(taken) {
            self.to_move = self.to_move.other();
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Win)
    }

    fn hash(&self) -> u64 {
        u64::from(self.stones) * 4
            + self.to_move.index() as u64 * 2
            + u64::from(self.winner.is_some())
    }

    fn score(&self, _side: Side) -> f32 {
        0.0
    }

    fn symmetry_count(&self) -> usize {
        1
    }

    fn transform_action(&self, _sym: usize, action: usize) -> usize {
        action
    }

    fn action_to_string(&self, action: usize) -> String {
        format!("take{}", action + 1)
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        let action = text
            .strip_prefix("take")
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| n.checked_sub(1))
            .ok_or_else(|| format!("`{text}` is not takeN"))?;
        if self.is_legal(action) {
            Ok(action)
        } else {
            Err(format!("`{text}` is illegal here"))
        }
    }
}

/// A one-move game of chance for the crate's tests: the first side calls a face of a loaded
/// die, which is then thrown; a right call wins, a wrong one loses. Calling the likeliest
/// face is best, worth `2 * p - 1`.
#[derive(Clone, Debug)]
pub struct LoadedDie {
    called: Option<usize>,
    thrown: Option<usize>,
}

impl LoadedDie {
    /// The probability of each face, unequal so that a search that spread its chance visits
    /// evenly would be caught.
    pub const FACES: [f64; 4] = [0.1, 0.5, 0.3, 0.1];

    /// The action of throwing `face` (calling it is action `face`).
    pub fn throw(face: usize) -> usize {
        Self::FACES.len() + face
    }
}

impl Game for LoadedDie {
    type Options = ();

    const NAME: &'static str = "loaded-die";

    fn new(_options: &()) -> Self {
        Self {
            called: None,
            thrown: None,
        }
    }

    fn options(&self) -> &() {
        &()
    }

    fn num_actions(&self) -> usize {
        2 * Self::FACES.len()
    }

    fn to_move(&self) -> Side {
        Side::First
    }

    fn is_chance(&self) -> bool {
        self.called.is_some() && self.thrown.is_none()
    }

    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>) {
        out.clear();
        if self.is_chance() {
            out.extend(
                Self::FACES
                    .iter()
                    .enumerate()
                    .map(|(face, &p)| (Self::throw(face), p)),
            );
        }
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        match (self.called, self.thrown) {
            (None, _) => out.extend(0..Self::FACES.len()),
            (Some(_), None) => out.extend((0..Self::FACES.len()).map(Self::throw)),
            _ => {}
        }
    }

    fn is_legal(&self, action: usize) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        legal.contains(&action)
    }

    fn apply(&mut self, action: usize) {
        match self.called {
            None => self.called = Some(action),
            Some(_) => self.thrown = Some(action - Self::FACES.len()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let winner = if self.thrown? == self.called? {
            Side::First
        } else {
            Side::Second
        };
        Some(Outcome::Win(winner))
    }

    fn hash(&self) -> u64 {
        let code = |face: Option<usize>| face.map_or(0, |f| f as u64 + 1);
        code(self.called) * 8 + code(self.thrown)
    }

    fn score(&self, _side: Side) -> f32 {
        0.0
    }

    fn symmetry_count(&self) -> usize {
        1
    }

    fn transform_action(&self, _sym: usize, action: usize) -> usize {
        action
    }

    fn action_to_string(&self, action: usize) -> String {
        action.to_string()
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        text.parse()
            .ok()
            .filter(|&action| self.is_legal(action))
            .ok_or_else(|| format!("`{text}` is illegal here"))
    }
}
