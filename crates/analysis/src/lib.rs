//! `ghast analysis`: an analysis engine for programs, for every game. A query is one JSON
//! line (KataGo's analysis engine's protocol: `id`, `moves`, `analyzeTurns`, `maxVisits`,
//! ...); each turn it asks about is searched and answered with one JSON line (`moveInfos`,
//! `rootInfo`), as it finishes, so answers may come out of order. The positions of all queries
//! in flight share the evaluator's batches, which is what makes bulk analysis fast.
//!
//! The crate knows no network and no game: [`AnalysisEngine`] takes any [`game::Evaluator`] and any
//! game; what Go tools need beyond that (set-up stones, KataGo's names of rule sets) comes
//! from the game's [`game::GtpGame`].
//!
//! Bad input never stops the engine: a line it cannot act on gets an `error` line naming the
//! field and why, a field it does not know a `warning` line, and the next line is read.

pub mod bench;
mod config;
mod engine;
mod protocol;
mod report;
mod settings;
mod setup;

pub use config::KataGoConfig;
pub use engine::{AnalysisEngine, Settings};
pub use protocol::{Problem, Query, Request, parse_line};
pub use settings::{Perspective, SearchSettings, Setting};
