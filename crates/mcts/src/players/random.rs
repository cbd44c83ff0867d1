use super::Player;
use game::Game;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Uniformly random legal moves: the floor of every rating table.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
    legal: Vec<usize>,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            legal: Vec::new(),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn choose(&mut self, game: &G) -> usize {
        game.legal_actions(&mut self.legal);
        *self
            .legal
            .choose(&mut self.rng)
            .expect("the game is not over")
    }
}
