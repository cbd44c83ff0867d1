//! `ghast serve`: a web page to play against a bot and to analyse positions, for any game
//! that draws itself ([`game::BoardView`]): hexes and tiles for Ghast, a Go board for Ghodak.
//!
//! The server keeps one game per browser (a session cookie names it) and answers a small JSON
//! API ([`App::handle`]) for many clients at once, with a pool of bots searching in parallel;
//! the page (`src/page/`) is embedded in the binary, so serving needs no files besides the
//! bot's weights. [`App`] is generic over the search's evaluator: the command plugs in the
//! network of a `play::Bundle`, tests plug in `mcts::UniformEvaluator` and need no checkpoint.

mod analysis;
mod api;
mod assets;
mod bot;
mod bundle;
mod http;
mod session;
mod sessions;
mod view;

pub use api::{App, MAX_SESSIONS, Reply, Request};
pub use bot::BotPool;
pub use bundle::{LoadedBots, load_bots};
pub use http::{Limits, MAX_BODY, ServeError, serve};
pub use sessions::COOKIE;
