use super::Player;
use game::{Game, Outcome, Side};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// Depth-limited expectimax, the classical backgammon programs' search: the side to move
/// takes its best action, the opponent its worst for us, chance averages its outcomes with
/// their probabilities, and the search stops `depth` decisions deep (chance's outcomes do not
/// count) where the game's score lead judges the position (Qast: discs on gold and progress,
/// the race's count). A finished game is worth more than any lead. Positions met twice within
/// one choice (orders of a move's decisions that commute) are searched once.
#[derive(Clone, Debug)]
pub struct ExpectimaxPlayer {
    depth: u32,
    rng: ChaCha8Rng,
}

/// What a won game is worth against a score lead, which is a few points in every game here.
const WIN: f32 = 1.0e6;

impl ExpectimaxPlayer {
    /// Searches `depth` (at least 1) decisions deep.
    pub fn new(depth: u32, seed: u64) -> Self {
        Self {
            depth: depth.max(1),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Player<G> for ExpectimaxPlayer {
    fn name(&self) -> String {
        format!("expectimax:{}", self.depth)
    }

    fn choose(&mut self, game: &G) -> usize {
        let me = game.to_move();
        let mut seen = game.clone();
        if G::HIDDEN_INFORMATION {
            seen.sample_hidden(self.rng.random());
        }
        let mut legal = Vec::new();
        seen.legal_actions(&mut legal);
        let mut memo = HashMap::new();
        let values: Vec<f32> = legal
            .iter()
            .map(|&action| {
                let mut after = seen.clone();
                after.apply(action);
                value(&after, self.depth - 1, me, &mut memo)
            })
            .collect();
        let best = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let ties: Vec<usize> = legal
            .iter()
            .zip(&values)
            .filter(|&(_, &v)| v == best)
            .map(|(&action, _)| action)
            .collect();
        *ties.choose(&mut self.rng).expect("the game is not over")
    }
}

/// The expectimax value of `game` for `me`, `depth` decisions more.
fn value<G: Game>(game: &G, depth: u32, me: Side, memo: &mut HashMap<(u64, u32), f32>) -> f32 {
    if let Some(outcome) = game.outcome() {
        return match outcome {
            Outcome::Win(side) if side == me => WIN,
            Outcome::Win(_) => -WIN,
            Outcome::Draw => 0.0,
        };
    }
    if depth == 0 && !game.is_chance() {
        return game.score_lead(me);
    }
    let key = (game.hash(), depth);
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let result = if game.is_chance() {
        let mut outcomes = Vec::new();
        game.chance_outcomes(&mut outcomes);
        outcomes
            .iter()
            .map(|&(action, probability)| {
                let mut after = game.clone();
                after.apply(action);
                probability as f32 * value(&after, depth, me, memo)
            })
            .sum()
    } else {
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let children = legal.iter().map(|&action| {
            let mut after = game.clone();
            after.apply(action);
            value(&after, depth - 1, me, memo)
        });
        if game.to_move() == me {
            children.fold(f32::NEG_INFINITY, f32::max)
        } else {
            children.fold(f32::INFINITY, f32::min)
        }
    };
    memo.insert(key, result);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::LoadedDie;

    #[test]
    fn it_calls_the_likeliest_face_of_a_loaded_die() {
        // The caller wins when the die shows the face called: the likeliest face is the best
        // call, which only the chance node's probabilities reveal.
        let mut player = ExpectimaxPlayer::new(2, 7);
        let game = LoadedDie::new(&());
        assert_eq!(player.choose(&game), 1);
    }
}
