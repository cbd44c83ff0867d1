//! The JSON API, as a plain function from a request to a reply so that it is tested without
//! sockets.
//!
//! | request              | body                                  | reply                 |
//! |----------------------|---------------------------------------|-----------------------|
//! | `GET /api/state`     |                                       | [`State`]             |
//! | `POST /api/new`      | `{"human": "orange", "visits": 200, "size": 6}` (all optional) | [`State`] |
//! | `POST /api/play`     | `{"move": "f1:3"}`                    | [`State`]             |
//! | `POST /api/bot`      |                                       | [`State`]             |
//! | `POST /api/undo`     |                                       | [`State`]             |
//! | `POST /api/analyse`  | `{"visits": 200}` (optional)          | [`Analysis`]          |
//! | `GET /api/record`    |                                       | moves, one per line   |
//!
//! Errors are `{"error": "..."}` with status 400 (bad input), 404 or 409 (the game is over).

use crate::analysis::Analysis;
use crate::assets;
use crate::bot::Bot;
use crate::colour::Colour;
use crate::session::Session;
use crate::view::State;
use game::{Game, Side};
use ghast::{Ghast, GhastOptions, RawOptions};
use mcts::Evaluator;
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// Searches larger than this would keep the single-threaded server from answering for
/// minutes.
const MAX_VISITS: u32 = 100_000;

/// An HTTP reply, independent of the server library.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
    /// Served as an attachment with this file name.
    pub download: Option<String>,
}

impl Reply {
    fn json(value: &impl serde::Serialize) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json",
            body: serde_json::to_string(value).expect("views always serialise"),
            download: None,
        }
    }

    fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply {
            status,
            ..Reply::json(&serde_json::json!({ "error": message.into() }))
        }
    }

    fn text(content_type: &'static str, body: impl Into<String>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.into(),
            download: None,
        }
    }
}

/// Settings of a new game; what is left out keeps its current value.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub human: Option<Colour>,
    pub visits: Option<u32>,
    pub size: Option<i64>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Play {
    #[serde(rename = "move")]
    text: String,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Analyse {
    visits: Option<u32>,
}

/// The server's state: the bot, the options of the bot's game and the game being played.
pub struct App<E> {
    bot: Bot<E>,
    /// The options the network was trained with; a new game may change only the size.
    options: GhastOptions,
    session: Session,
}

impl<E: Evaluator<Ghast>> App<E> {
    /// A server whose first game, on `options`, has the human as Orange against `visits`
    /// visits per move.
    pub fn new(bot: Bot<E>, options: GhastOptions, visits: u32) -> Self {
        let session = Session::new(&options, Side::First, visits.clamp(1, MAX_VISITS));
        App {
            bot,
            options,
            session,
        }
    }

    /// Answers one request. `path` may carry a query string, which is ignored.
    pub fn handle(&mut self, method: &str, path: &str, body: &str) -> Reply {
        let path = path.split('?').next().unwrap_or_default();
        self.route(method, path, body).unwrap_or_else(|error| error)
    }

    /// The reply, or the error reply as `Err` so that handlers can use `?`.
    fn route(&mut self, method: &str, path: &str, body: &str) -> Result<Reply, Reply> {
        match (method, path) {
            ("GET", "/") => Ok(Reply::text("text/html; charset=utf-8", assets::PAGE)),
            ("GET", "/page.css") => Ok(Reply::text("text/css; charset=utf-8", assets::CSS)),
            ("GET", "/page.js") => Ok(Reply::text("text/javascript; charset=utf-8", assets::JS)),
            ("GET", "/api/state") => Ok(self.state()),
            ("GET", "/api/record") => Ok(self.record()),
            ("POST", "/api/new") => self.new_game(parse(body)?),
            ("POST", "/api/play") => self.play(parse(body)?),
            ("POST", "/api/bot") => self.bot_move(),
            ("POST", "/api/undo") => {
                self.session.undo();
                Ok(self.state())
            }
            ("POST", "/api/analyse") => self.analyse(parse(body)?),
            (_, "/" | "/page.css" | "/page.js" | "/api/state" | "/api/record") => {
                Err(Reply::error(405, format!("{path} answers GET only")))
            }
            (_, "/api/new" | "/api/play" | "/api/bot" | "/api/undo" | "/api/analyse") => {
                Err(Reply::error(405, format!("{path} answers POST only")))
            }
            _ => Err(Reply::error(404, format!("no such page: {path}"))),
        }
    }

    fn state(&self) -> Reply {
        Reply::json(&State::of(&self.session))
    }

    fn record(&self) -> Reply {
        Reply {
            download: Some(format!(
                "ghast-size{}.txt",
                self.session.game().options().size()
            )),
            ..Reply::text("text/plain; charset=utf-8", self.session.record())
        }
    }

    fn new_game(&mut self, new: NewGame) -> Result<Reply, Reply> {
        let visits = checked_visits(new.visits.unwrap_or(self.session.visits()))?;
        if let Some(size) = new.size {
            // The turn limit follows the board unless the bot's options fixed it.
            let raw = RawOptions {
                size,
                ..self.options.raw().clone()
            };
            self.options = raw
                .validate()
                .map_err(|error| Reply::error(400, error.to_string()))?;
        }
        let human = new.human.map_or(self.session.human(), Side::from);
        self.session = Session::new(&self.options, human, visits);
        Ok(self.state())
    }

    fn play(&mut self, play: Play) -> Result<Reply, Reply> {
        let action = self
            .session
            .game()
            .parse_move(play.text.trim())
            .map_err(|error| Reply::error(400, error.to_string()))?;
        self.session.play(action);
        Ok(self.state())
    }

    fn bot_move(&mut self) -> Result<Reply, Reply> {
        let game = self.ongoing()?;
        let (result, _) = self.bot.search(&game, self.session.visits());
        let geometry = game.options().geometry();
        let action = ghast::Action::from_index(result.action, geometry)
            .expect("the search plays actions of this game");
        self.session.play(action);
        Ok(self.state())
    }

    fn analyse(&mut self, analyse: Analyse) -> Result<Reply, Reply> {
        let game = self.ongoing()?;
        let visits = checked_visits(analyse.visits.unwrap_or(self.session.visits()))?;
        let (result, children) = self.bot.search(&game, visits);
        Ok(Reply::json(&Analysis::of(&game, &result, &children)))
    }

    /// The current position, if the game is not over (there is nothing to search then).
    fn ongoing(&self) -> Result<Ghast, Reply> {
        let game = self.session.game();
        match game.outcome() {
            Some(_) => Err(Reply::error(409, "the game is over")),
            None => Ok(game.clone()),
        }
    }
}

fn checked_visits(visits: u32) -> Result<u32, Reply> {
    if (1..=MAX_VISITS).contains(&visits) {
        Ok(visits)
    } else {
        Err(Reply::error(
            400,
            format!("visits must be 1..={MAX_VISITS}, got {visits}"),
        ))
    }
}

/// Reads a JSON body; an empty body means every field left out.
fn parse<T: DeserializeOwned + Default>(body: &str) -> Result<T, Reply> {
    if body.trim().is_empty() {
        return Ok(T::default());
    }
    serde_json::from_str(body)
        .map_err(|error| Reply::error(400, format!("bad request body: {error}")))
}
