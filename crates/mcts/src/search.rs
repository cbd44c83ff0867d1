use crate::batch::Batch;
use crate::config::SearchConfig;
use crate::tree::Tree;
use game::{DeviceError, Evaluator};
use game::{Game, Outcome};

/// What a search of one position found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited move.
    pub action: usize,
    /// The root's game value from the view of the side to move: win minus loss probability,
    /// in [-1, 1], without the score term the search may add to it.
    pub value: f32,
    /// `(action, visits)` for every visited move.
    pub visits: Vec<(usize, u32)>,
    pub total_visits: u32,
}

/// A legal move after which `game` is over and won by the side that made it, if there is one.
///
/// Search can miss such a move: a move with a tiny prior may get no visit at all (a pass that
/// wins once the opponent has passed, a Ghast placement that reaches the winning margin). No
/// visit count outweighs a won game, so play checks every move for an immediate win (one
/// rules step each, far less than one network evaluation). Self-play keeps choosing by
/// visits, so that training data stays what its measurements were taken on.
fn winning_move<G: Game>(game: &G) -> Option<usize> {
    let mover = game.to_move();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let mut after = game.clone();
    legal.into_iter().find(|&action| {
        after.clone_from(game);
        after.apply(action);
        after.outcome() == Some(Outcome::Win(mover))
    })
}

/// Samples of the hidden part a move must win in to count as winning at once.
const SURE_WIN_SAMPLES: u64 = 32;

/// [`winning_move`], for sure: in a game with hidden information the move must win in the
/// sample `game` and in [`SURE_WIN_SAMPLES`] more drawn from `seed`, since a move that ends the
/// game (a pass after a pass) reveals every pair before the score, and one sample can lie.
fn sure_winning_move<G: Game>(game: &G, seed: u64) -> Option<usize> {
    let action = winning_move(game)?;
    if !G::HIDDEN_INFORMATION {
        return Some(action);
    }
    let mover = game.to_move();
    let mut sample = game.clone();
    (0..SURE_WIN_SAMPLES)
        .all(|k| {
            sample.clone_from(game);
            sample.sample_hidden(seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            sample.apply(action);
            sample.outcome() == Some(Outcome::Win(mover))
        })
        .then_some(action)
}

/// Searching one game at a time, on the same tree and step code as the batched self-play:
/// for players, analysis and tests.
#[derive(Debug)]
pub struct Search<G: Game> {
    config: SearchConfig,
    seed: u64,
    tree: Option<Tree<G>>,
    batch: Batch<G>,
}

impl<G: Game> Search<G> {
    pub fn new(config: SearchConfig, seed: u64) -> Self {
        Self {
            config,
            seed,
            tree: None,
            batch: Batch::new(),
        }
    }

    /// Searches `game` until the root has `visits` visits, counting those kept from an earlier
    /// search of the same position (see [`Search::advance`]). A move that wins the game at
    /// once is played whatever the visits say ([`winning_move`]).
    ///
    /// Fails only where `evaluator` does (its device failed).
    ///
    /// # Panics
    /// If the game is over, chance decides at `game` (the driver draws chance's outcomes;
    /// a search is of a side's decision) or `visits` is 0.
    pub fn run<E: Evaluator<G> + ?Sized>(
        &mut self,
        game: &G,
        evaluator: &mut E,
        visits: u32,
    ) -> Result<SearchResult, DeviceError> {
        assert!(game.outcome().is_none(), "no search in a finished game");
        assert!(!game.is_chance(), "no search of chance's decision");
        assert!(visits > 0, "a search needs at least one visit");
        // Determinized search over several samples of what the side to move cannot know: one
        // search per sample with its share of the visits, the root visits summed. The root's
        // moves are the same in every sample (they depend only on what the mover knows).
        let samples = if G::HIDDEN_INFORMATION {
            self.config.hidden_samples.clamp(1, visits)
        } else {
            1
        };
        let mut visit_totals: Vec<(usize, u32)> = Vec::new();
        let mut value_sum = 0.0;
        for k in 0..samples {
            let tree = self
                .tree
                .get_or_insert_with(|| Tree::new(game.clone(), self.config.clone(), self.seed));
            if samples > 1 || tree.game().hash() != game.hash() {
                tree.reset(game);
            }
            let opponent = game.to_move().other();
            tree.expect_erratic(Some((opponent, self.config.opponent_random_decisions)));
            tree.set_budget(visits / samples + u32::from(k < visits % samples));
            self.batch.run(std::slice::from_mut(tree), evaluator)?;
            if samples == 1 {
                visit_totals = tree.root_visits();
                break;
            }
            for (action, count) in tree.root_visits() {
                match visit_totals.iter_mut().find(|(a, _)| *a == action) {
                    Some((_, total)) => *total += count,
                    None => visit_totals.push((action, count)),
                }
            }
            value_sum += tree.root_game_value() * tree.root_visit_count() as f32;
        }
        let tree = self.tree.as_ref().expect("searched above");
        let (best, value, total_visits) = if samples == 1 {
            (
                tree.best_action(),
                tree.root_game_value(),
                tree.root_visit_count(),
            )
        } else {
            let total = visit_totals.iter().map(|&(_, count)| count).sum::<u32>();
            let most_visited = visit_totals
                .iter()
                .max_by_key(|&&(_, count)| count)
                .map(|&(action, _)| action)
                .expect("a search visits some move");
            (most_visited, value_sum / total.max(1) as f32, total)
        };
        // The sample, not `game`: whether a move wins at once can depend on hidden tiles.
        let (action, value) = match sure_winning_move(tree.searched_game(), self.seed) {
            Some(action) => (action, 1.0),
            None => (best, value),
        };
        Ok(SearchResult {
            action,
            value,
            visits: visit_totals,
            total_visits,
        })
    }

    /// Tells the search that `action` was played, so the next [`Search::run`] starts from the
    /// subtree below it.
    pub fn advance(&mut self, action: usize) {
        if let Some(tree) = &mut self.tree {
            tree.advance(action);
        }
    }

    /// Forgets the tree (a new game starts).
    pub fn clear(&mut self) {
        self.tree = None;
    }

    pub fn tree(&self) -> Option<&Tree<G>> {
        self.tree.as_ref()
    }
}
