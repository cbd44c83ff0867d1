//! `ghast serve`: a web page to play Ghast against a bot and to analyse positions.
//!
//! The server keeps one game ([`Session`]) and answers a small JSON API ([`App::handle`]);
//! the page (`src/page/`) is embedded in the binary, so serving needs no files besides the
//! bot's weights. [`App`] is generic over the search's evaluator: the command plugs in the
//! network of a `play::Bundle`, tests plug in `mcts::UniformEvaluator` and need no checkpoint.

mod analysis;
mod api;
mod assets;
mod bot;
mod bundle;
mod colour;
mod http;
mod session;
mod view;

pub use api::{App, Reply};
pub use bot::Bot;
pub use bundle::{LoadedBot, load_bot};
pub use http::{ServeError, serve};
