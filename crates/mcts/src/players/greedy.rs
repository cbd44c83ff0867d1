use super::Player;
use game::Game;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The move that leaves the best score difference right after it, ties at random: one ply of
/// lookahead and no more. (In Ghast a placement may wait for the opponent's veto answer; the
/// score is read before that answer.) A move of several actions (a Fakerghast pair) is judged
/// whole: an action that starts one is worth its best completion. In a game with hidden
/// information it looks only at a sample of what it cannot see ([`Game::sample_hidden`]).
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    rng: ChaCha8Rng,
    legal: Vec<usize>,
    best: Vec<usize>,
}

impl GreedyPlayer {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            legal: Vec::new(),
            best: Vec::new(),
        }
    }
}

impl<G: Game> Player<G> for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_owned()
    }

    fn choose(&mut self, game: &G) -> usize {
        let me = game.to_move();
        let sampled;
        let seen = if G::HIDDEN_INFORMATION {
            let mut sample = game.clone();
            sample.sample_hidden(self.rng.random());
            sampled = sample;
            &sampled
        } else {
            game
        };
        seen.legal_actions(&mut self.legal);
        self.best.clear();
        let mut best_lead = f32::NEG_INFINITY;
        let mut finished = HashMap::new();
        for &action in &self.legal {
            let lead = lead_after(seen, action, me, &mut finished);
            if lead > best_lead {
                best_lead = lead;
                self.best.clear();
            }
            if lead == best_lead {
                self.best.push(action);
            }
        }
        *self
            .best
            .choose(&mut self.rng)
            .expect("the game is not over")
    }
}

/// `side`'s score lead once `action` is played in `game` and the move it starts is finished
/// as well as it can be, by `side` where it decides and against it where the opponent does. `finished` remembers the best lead from each position within a move
/// by its hash: the decisions of a move often commute (a Vastuz cascade's steals in another
/// order reach the same position), and without it their orders multiply.
fn lead_after<G: Game>(
    game: &G,
    action: usize,
    side: game::Side,
    finished: &mut HashMap<u64, f32>,
) -> f32 {
    let mut after = game.clone();
    after.apply(action);
    if after.mid_move() && after.outcome().is_none() {
        if let Some(&lead) = finished.get(&after.hash()) {
            return lead;
        }
        let mut legal = Vec::new();
        after.legal_actions(&mut legal);
        let leads = legal
            .into_iter()
            .map(|next| lead_after(&after, next, side, finished));
        // Each side finishes the move as suits it: the opponent decides some follow-ups of a
        // Ghost Chess turn.
        let lead = if after.to_move() == side {
            leads.fold(f32::NEG_INFINITY, f32::max)
        } else {
            leads.fold(f32::INFINITY, f32::min)
        };
        finished.insert(after.hash(), lead);
        return lead;
    }
    after.score_lead(side)
}
