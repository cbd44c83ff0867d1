//! PUCT Monte Carlo tree search over any [`game::Game`], with batched leaf evaluation, and the
//! baseline players.
//!
//! Self-play keeps many [`Tree`]s (one per game in flight) and calls [`Batch::step`] on them
//! with its network evaluator; a tree that [`Tree::is_done`] gives its move
//! ([`Tree::choose_action`]), its policy target ([`Tree::root_visits`]) and value
//! ([`Tree::root_value`]), and moves on with [`Tree::advance`]. [`Search`] wraps the same code
//! for one game at a time.

mod batch;
pub mod bench;
mod cache;
mod config;
mod evaluator;
mod filter;
mod nodes;
mod noise;
pub mod players;
mod resign;
mod rollout;
mod search;
mod temperature;
mod tree;

#[cfg(test)]
mod toy;

pub use batch::Batch;
pub use cache::{CacheStats, CachedEvaluator};
pub use config::{ChanceChoice, Formula, LeadSource, MoveChoice, SearchConfig};
pub use evaluator::UniformEvaluator;
pub use filter::{MoveFilter, MoveRestriction};
pub use game::{DeviceError, Evaluation, Evaluator, Inline, PipelinedEvaluator};
pub use resign::{ResignRule, ResignWatch};
pub use rollout::RolloutEvaluator;
pub use search::{Search, SearchResult};
pub use temperature::TemperatureSchedule;
pub use tree::{ChildStats, Keep, Tree};
