//! Self-play: workers that play many games at once through one batched evaluator and turn
//! finished games into [`replay::GameRecord`]s.
//!
//! A worker owns its games and their trees; it knows nothing of threads, files or networks.
//! The training loop runs one worker per thread, feeds it the newest model's evaluator and
//! writes the records it returns to the replay store.

mod boards;
mod config;
mod game_in_flight;
mod reanalyse;
mod resign_calibration;
mod start_positions;
mod worker;

pub use boards::Boards;
pub use config::{Handicap, HandicapSide, Inference, ResignConfig, SelfplayConfig};
pub use reanalyse::{ReanalyseError, Reanalyser};
pub use start_positions::StartPositions;
pub use worker::{FinishedGame, StepReport, Worker};
