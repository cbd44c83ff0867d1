//! The training loop: self-play threads feed the replay store, the trainer samples a window
//! of it and writes checkpoints, and the workers pick the newest checkpoint up.

mod averaged;
pub mod bench;
mod config;
mod evaluation;
mod examples;
mod journal;
mod metrics;
mod run;
mod run_config;
mod start_positions;
mod trainer;
mod warm_start;

pub use averaged::{AveragedGenerations, average_newest_generations};
pub use config::{OptimizerKind, TrainerConfig};
pub use evaluation::EvaluationConfig;
pub use examples::{Example, example_at};
pub use run::{Limit, Role, RunSummary, train};
pub use run_config::{BotConfig, NetworkConfig, RunConfig, RunLimits, game_name};
pub use rundir::{RunDir, RunStore, write_atomically};
pub use trainer::{StepError, Trainer};
pub use warm_start::initial_network;
