//! A tiny game for the crate's tests: Nim where taking the last stone wins, and taking exactly
//! `extra_turn_take` stones lets the same side move again, so that sides do not alternate.

use game::{Game, Outcome, Side};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NimOptions {
    pub stones: u32,
    pub max_take: u32,
    pub extra_turn_take: Option<u32>,
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
        })
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

    fn apply(&mut self, action: usize) {
        let taken = action as u32 + 1;
        self.stones -= taken;
        if self.stones == 0 {
            self.winner = Some(self.to_move);
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
