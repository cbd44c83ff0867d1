//! Reanalyse (MuZero Reanalyze, LightZero's `reanalyze_ratio`): a stored game's policy
//! targets searched again by a newer network. A small run's early games were searched by a
//! net that knew little; their positions are still worth training on, with targets the
//! newest net's search gives. The record that comes out is the same game (moves, outcome,
//! value targets) with fresh targets where it had targets: the trainer reads it as any other.

use crate::SelfplayConfig;
use game::{DeviceError, Evaluator, Game, Referee};
use mcts::{Batch, Tree};
use replay::GameRecord;

/// Searches the positions of stored games again, all of a game's at once so that their
/// leaves share the network's batches.
pub struct Reanalyser<G: Game> {
    config: SelfplayConfig,
    batch: Batch<G>,
    seed: u64,
}

impl<G: Game> Reanalyser<G> {
    /// Searches as self-play's full searches do (`full_visits`, self-play's search with its
    /// root noise), with its own `seed`.
    pub fn new(config: SelfplayConfig, seed: u64) -> Self {
        Reanalyser {
            config,
            batch: Batch::new(),
            seed,
        }
    }

    /// `record` (a game of `options`) with each position that had a policy target searched
    /// again through `evaluator`: its target, surprise and root value are the new search's,
    /// and its generation `generation`. An error when the record does not replay under
    /// `options` (it names the move), or when the device fails.
    pub fn reanalyse<E: Evaluator<G> + ?Sized>(
        &mut self,
        options: &G::Options,
        record: &GameRecord,
        generation: u32,
        evaluator: &mut E,
    ) -> Result<GameRecord, ReanalyseError> {
        // The referee replays the record, as every driver of a game steps it: a move that is
        // not legal where it was played is refused, not applied.
        let mut referee = Referee::new(G::new(options));
        let mut searched = Vec::new();
        let mut trees = Vec::new();
        for (index, played) in record.moves.iter().enumerate() {
            let action = played.action as usize;
            if played.full_search && !played.policy.is_empty() {
                self.seed = self.seed.wrapping_add(1);
                let position = referee.game().clone();
                let mut tree = Tree::new(position, self.config.search.clone(), self.seed);
                tree.set_budget(self.config.full_visits);
                tree.set_root_noise(self.config.search.root_noise);
                trees.push(tree);
                searched.push(index);
            }
            referee
                .play(action)
                .map_err(|why| ReanalyseError::DoesNotReplay {
                    move_number: index + 1,
                    why,
                })?;
        }
        while trees.iter().any(|tree| !tree.is_done()) {
            self.batch.step(&mut trees, evaluator)?;
        }
        let mut fresh = record.clone();
        fresh.generation = generation;
        for (tree, index) in trees.iter().zip(searched) {
            let target = tree.policy_target();
            let played = &mut fresh.moves[index];
            played.surprise = tree.policy_surprise(&target);
            played.policy = replay::quantise_policy(&target);
            played.root_value = tree.root_value();
        }
        Ok(fresh)
    }
}

/// Why a record could not be reanalysed.
#[derive(Debug, thiserror::Error)]
pub enum ReanalyseError {
    #[error("move {move_number} does not replay under the run's options: {why}")]
    DoesNotReplay { move_number: usize, why: String },
    #[error(transparent)]
    Device(#[from] DeviceError),
}
