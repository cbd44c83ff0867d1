//! Evaluation of model generations: matches between players and external engines, match
//! statistics, SPRT, Bradley-Terry ratings, the ladder of a training run and plots.

mod agent;
mod entrants;
pub mod gtp;
mod kept;
pub mod ladder;
pub mod levels;
pub mod plot;
pub mod rating;
mod records;
mod runner;
mod spec;

pub use agent::Entrant;
pub use entrants::{Baseline, OnRuntime, baseline_agent, network_agent};
/// What runs a network player ([`network_agent`], [`OnRuntime`]).
pub use play::Runtime;
pub use records::RecordWriter;
pub use runner::{GameRecord, Match, MatchError, MatchResult, MatchSettings};
pub use spec::{DEFAULT_VISITS, PlayerSpec, SpecError};
