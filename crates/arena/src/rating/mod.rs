//! Match statistics and ratings: pure math over game results, no game code.
//!
//! - [`MatchStats`]: score, Elo difference with a 95% interval and LOS for one pairing.
//! - [`SprtParams`]: a sequential test deciding between two Elo hypotheses as games arrive.
//! - [`BradleyTerry`]: ratings for many players from a [`ResultTable`], anchored at one of them.

mod bootstrap;
mod bradley_terry;
mod elo;
mod linalg;
mod match_stats;
mod outcomes;
mod result_table;
mod sample;
mod sprt;

pub use bradley_terry::{BradleyTerry, Rating, RatingError};
pub use elo::{ELO_PER_NAT, Z_95, elo_from_score, normal_cdf, score_from_elo};
pub use match_stats::MatchStats;
pub use outcomes::{Cell, Outcomes, Pentanomial, Wdl};
pub use result_table::ResultTable;
pub use sample::ScoreSample;
pub use sprt::{SprtDecision, SprtParams, SprtParamsError, SprtStatus};
