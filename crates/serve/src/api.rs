//! The JSON API, as a plain function from a request to a reply so that it is tested without
//! sockets.
//!
//! | request              | body                                  | reply                 |
//! |----------------------|---------------------------------------|-----------------------|
//! | `GET /api/state`     |                                       | [`State`]             |
//! | `POST /api/new`      | `{"human": "orange", "visits": 200, "size": 6}` or `"level": 3` for `"visits"` (all optional) | [`State`] |
//! | `POST /api/play`     | `{"move": "f1:3"}` (Ghodak: `"D4"`)   | [`State`]             |
//! | `POST /api/bot`      |                                       | [`State`]             |
//! | `POST /api/undo`     |                                       | [`State`]             |
//! | `POST /api/analyse`  | `{"visits": 200}` (optional)          | [`Analysis`]          |
//! | `GET /api/record`    |                                       | moves, one per line   |
//!
//! Sides are named by the game's colours (`orange`/`blue` for Ghast, `black`/`white` for
//! Ghodak), moves in its notation. Errors are `{"error": "..."}` with status 400 (bad input), 404, 405 or 409 (the game is
//! over, or changed while the bot was thinking).
//!
//! Each client has its own game, named by the session cookie (see [`crate::sessions`]); a
//! request without a known cookie starts a new game and the reply carries the new cookie.

use crate::analysis::Analysis;
use crate::assets;
use crate::bot::BotPool;
use crate::session::Session;
use crate::sessions::Sessions;
use crate::view::State;
use game::{Agent, AgentFailure, BoardView, Choice, DeviceError, Referee, Side};
use mcts::Evaluator;
use play::{Level, PlayError};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::sync::{Mutex, OnceLock, PoisonError};

/// Searches larger than this would hold a bot for many minutes.
const MAX_VISITS: u32 = 100_000;

/// Games kept at once; the least recently used goes when a new client comes (about 1 MB each
/// at worst, a full game on the largest board).
pub const MAX_SESSIONS: usize = 256;

/// An HTTP reply, independent of the server library.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
    /// Served as an attachment with this file name.
    pub download: Option<String>,
    /// A new session's id, for the client's cookie.
    pub new_session: Option<String>,
}

impl Reply {
    fn json(value: &impl serde::Serialize) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json",
            body: serde_json::to_string(value).expect("views always serialise"),
            download: None,
            new_session: None,
        }
    }

    pub fn error(status: u16, message: impl Into<String>) -> Reply {
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
            new_session: None,
        }
    }
}

/// Settings of a new game; what is left out keeps its current value.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The human's colour.
    pub human: Option<String>,
    /// Visits per move of a bot that plays its most visited move (no level).
    pub visits: Option<u32>,
    /// One of the bot's levels of play (1 is the weakest), instead of `visits`.
    pub level: Option<usize>,
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

/// One request, independent of the server library.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    pub method: &'a str,
    /// The path, which may carry a query string (ignored).
    pub path: &'a str,
    /// The id in the client's session cookie, if it sent one.
    pub session: Option<&'a str>,
    pub body: &'a str,
}

/// The server's state: the bots, the options of the bots' game `G` and every client's game.
/// Requests take `&self`, so the HTTP side answers many at once.
pub struct App<G: BoardView, E> {
    bots: BotPool<G, E>,
    /// The options the network was trained with; a new game may change only the size.
    options: G::Options,
    /// Visits per move of a new client's first game.
    visits: u32,
    /// The bot's levels of play, weakest first (from its `bot.toml`).
    levels: Vec<Level>,
    sessions: Mutex<Sessions<Session<G>>>,
    /// The device's failure, once a search met it: the server stops after answering it.
    failure: OnceLock<DeviceError>,
}

impl<G: BoardView, E: Evaluator<G>> App<G, E> {
    /// A server whose clients' first games, on `options`, have the human moving first
    /// against `visits` visits per move.
    pub fn new(bots: BotPool<G, E>, options: G::Options, visits: u32) -> Self {
        App {
            bots,
            options,
            visits: visits.clamp(1, MAX_VISITS),
            levels: Vec::new(),
            sessions: Mutex::new(Sessions::new(MAX_SESSIONS)),
            failure: OnceLock::new(),
        }
    }

    /// The server with the bot's levels of play, weakest first, which a new game may choose
    /// and the page lists with their Elo.
    pub fn with_levels(self, levels: Vec<Level>) -> Self {
        App { levels, ..self }
    }

    /// The failure of the bots' device, once a search met it: every search fails from then
    /// on, and the server should stop.
    pub fn device_failure(&self) -> Option<&DeviceError> {
        self.failure.get()
    }

    /// Answers one request.
    pub fn handle(&self, request: Request) -> Reply {
        let path = request.path.split('?').next().unwrap_or_default();
        match (request.method, path) {
            ("GET", "/page.css") => return Reply::text("text/css; charset=utf-8", assets::CSS),
            ("GET", "/page.js") => {
                return Reply::text("text/javascript; charset=utf-8", assets::JS);
            }
            ("GET", "/kit.js") => {
                return Reply::text("text/javascript; charset=utf-8", assets::KIT);
            }
            ("GET", "/game.js") => {
                return Reply::text("text/javascript; charset=utf-8", G::PAGE_MODULE);
            }
            _ => {}
        }
        let (id, new) = self.sessions().find_or_start(request.session, || {
            Session::new(&self.options, Side::First, self.visits, rand::random())
        });
        let mut reply = self
            .route(&id, request.method, path, request.body)
            .unwrap_or_else(|error| error);
        if new {
            reply.new_session = Some(id);
        }
        reply
    }

    /// The reply, or the error reply as `Err` so that handlers can use `?`.
    fn route(&self, id: &str, method: &str, path: &str, body: &str) -> Result<Reply, Reply> {
        match (method, path) {
            ("GET", "/") => Ok(Reply::text("text/html; charset=utf-8", assets::PAGE)),
            ("GET", "/api/state") => self.read(id, |session, _| self.state(session)),
            ("GET", "/api/record") => self.read(id, |session, _| Ok(record(session))),
            ("POST", "/api/new") => self.new_game(id, parse(body)?),
            ("POST", "/api/play") => self.play(id, parse(body)?),
            ("POST", "/api/bot") => self.bot_move(id),
            ("POST", "/api/undo") => self.change(id, |session, _| {
                session.undo();
                self.state(session)
            }),
            ("POST", "/api/analyse") => self.analyse(id, parse(body)?),
            (
                _,
                "/" | "/page.css" | "/page.js" | "/kit.js" | "/game.js" | "/api/state"
                | "/api/record",
            ) => Err(Reply::error(405, format!("{path} answers GET only"))),
            (_, "/api/new" | "/api/play" | "/api/bot" | "/api/undo" | "/api/analyse") => {
                Err(Reply::error(405, format!("{path} answers POST only")))
            }
            _ => Err(Reply::error(404, format!("no such page: {path}"))),
        }
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, Sessions<Session<G>>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads the client's game, holding the table's lock only while `read` runs.
    fn read<T>(
        &self,
        id: &str,
        read: impl FnOnce(&Session<G>, u64) -> Result<T, Reply>,
    ) -> Result<T, Reply> {
        self.sessions()
            .read(id, read)
            .unwrap_or_else(|| Err(forgotten()))
    }

    /// Changes the client's game, holding the table's lock only while `change` runs.
    fn change<T>(
        &self,
        id: &str,
        change: impl FnOnce(&mut Session<G>, u64) -> Result<T, Reply>,
    ) -> Result<T, Reply> {
        self.sessions()
            .change(id, change)
            .unwrap_or_else(|| Err(forgotten()))
    }

    fn new_game(&self, id: &str, new: NewGame) -> Result<Reply, Reply> {
        let visits = new.visits.map(checked_visits).transpose()?;
        let level = new.level.map(|number| self.level(number)).transpose()?;
        if visits.is_some() && level.is_some() {
            return Err(Reply::error(
                400,
                "give a level or visits, not both: a level has its own visits",
            ));
        }
        let human = new.human.as_deref().map(side_named::<G>).transpose()?;
        // The rest of the options stay the bot's (a move limit that follows the board size
        // follows it here too).
        let options = new
            .size
            .map(|size| {
                let rule = game::rules::Rule::new("size", &size.to_string());
                game::rules::with_rules(&self.options, &[rule])
            })
            .transpose()
            .map_err(|error| Reply::error(400, error))?;
        self.change(id, |session, _| {
            let options = options.unwrap_or_else(|| session.game().options().clone());
            let human = human.unwrap_or(session.human());
            // A game keeps the last game's level unless told visits, and its visits.
            let level = match (level, visits) {
                (Some((number, _)), _) => Some(number),
                (None, Some(_)) => None,
                (None, None) => session.level(),
            };
            let visits = visits.unwrap_or(session.visits());
            let fresh = Session::new(&options, human, visits, rand::random());
            *session = match level {
                Some(number) => fresh.with_level(number, self.levels[number - 1].visits),
                None => fresh,
            };
            self.state(session)
        })
    }

    /// Level `number` of the bot (1 is the weakest), or the error that says which there are.
    fn level(&self, number: usize) -> Result<(usize, &Level), Reply> {
        match number
            .checked_sub(1)
            .and_then(|index| self.levels.get(index))
        {
            Some(level) => Ok((number, level)),
            None if self.levels.is_empty() => Err(Reply::error(
                400,
                format!(
                    "level {number}: this bot has no levels of play (`ghast ladder --bot DIR \
                     --levels` rates them)"
                ),
            )),
            None => Err(Reply::error(
                400,
                format!(
                    "level {number}: the bot has levels 1 to {}",
                    self.levels.len()
                ),
            )),
        }
    }

    fn state(&self, session: &Session<G>) -> Result<Reply, Reply> {
        Ok(Reply::json(&State::of(session, &self.levels)))
    }

    fn play(&self, id: &str, play: Play) -> Result<Reply, Reply> {
        self.change(id, |session, _| {
            let action = session
                .game()
                .parse_action(play.text.trim())
                .map_err(|error| Reply::error(400, error))?;
            session
                .play(action)
                .map_err(|error| Reply::error(400, error))?;
            self.state(session)
        })
    }

    /// Searches without holding any lock, then plays the move if the game is still where the
    /// search started. A move of several actions (a Fakerghast pair) is searched action by
    /// action and played whole.
    fn bot_move(&self, id: &str) -> Result<Reply, Reply> {
        let (game, visits, level, revision) = self.read(id, |session, revision| {
            let level = session.level().map(|number| &self.levels[number - 1]);
            Ok((ongoing(session)?, session.visits(), level, revision))
        })?;
        let mut referee = Referee::new(game);
        let mut bot = PoolAgent {
            app: self,
            visits,
            level,
            error: None,
        };
        if let Err(failure) = referee.take_move(&mut bot) {
            return Err(bot
                .error
                .unwrap_or_else(|| Reply::error(500, failure.to_string())));
        }
        self.change(id, |session, now| {
            unchanged(revision, now)?;
            for &action in referee.actions() {
                session
                    .play(action)
                    .map_err(|error| Reply::error(500, error))?;
            }
            self.state(session)
        })
    }

    /// In a game with hidden information, only for the human's own move: the search of the
    /// bot's would show what the bot knows.
    fn analyse(&self, id: &str, analyse: Analyse) -> Result<Reply, Reply> {
        let requested = analyse.visits.map(checked_visits).transpose()?;
        let (game, visits) = self.read(id, |session, _| {
            let game = ongoing(session)?;
            if G::HIDDEN_INFORMATION && game.to_move() != session.human() {
                return Err(Reply::error(
                    409,
                    "in a game with hidden information only your own move can be analysed",
                ));
            }
            // A level's few visits would make a poor analysis: it searches as the bot at
            // full strength does.
            let visits = match session.level() {
                Some(_) => self.visits,
                None => session.visits(),
            };
            Ok((game, requested.unwrap_or(visits)))
        })?;
        let search = self.search(&game, visits)?;
        Ok(Reply::json(&Analysis::of(&game, &search)))
    }

    /// A search of `game` (not over) with `visits` (checked) by a free bot; a failed device
    /// is kept ([`App::device_failure`]).
    fn search(&self, game: &G, visits: u32) -> Result<play::Analysis, Reply> {
        self.bots.analyze(game, visits).map_err(|error| {
            if let PlayError::Device(failure) = &error {
                let _ = self.failure.set(failure.clone());
            }
            Reply::error(500, format!("the search failed: {error}"))
        })
    }
}

/// A free bot of the pool as the referee's agent, searching `visits` per action and choosing
/// as `level` does (the most visited move without one); a failed search is kept as the reply
/// to give.
struct PoolAgent<'a, G: BoardView, E> {
    app: &'a App<G, E>,
    visits: u32,
    level: Option<&'a Level>,
    error: Option<Reply>,
}

impl<G: BoardView, E: Evaluator<G>> Agent<G> for PoolAgent<'_, G, E> {
    fn new_game(&mut self, _options: &G::Options, _side: Side) -> Result<(), AgentFailure> {
        Ok(())
    }

    fn choose(&mut self, game: &G) -> Result<Choice, AgentFailure> {
        match self.app.search(game, self.visits) {
            Ok(analysis) => Ok(Choice::Play(match self.level {
                Some(level) => level.choose(&analysis, &mut rand::rng()),
                None => analysis.best,
            })),
            Err(reply) => {
                self.error = Some(reply);
                Err(AgentFailure::Lost("the search failed".to_owned()))
            }
        }
    }
}

/// The side the game calls `name` (one of its colours).
fn side_named<G: BoardView>(name: &str) -> Result<Side, Reply> {
    Side::BOTH
        .into_iter()
        .find(|&side| G::COLOURS[side.index()] == name)
        .ok_or_else(|| {
            let [first, second] = G::COLOURS;
            Reply::error(
                400,
                format!("human must be {first} or {second}, got `{name}`"),
            )
        })
}

/// The session's game, if it is not over (there is nothing to search then).
fn ongoing<G: BoardView>(session: &Session<G>) -> Result<G, Reply> {
    let game = session.game();
    match game.outcome() {
        Some(_) => Err(Reply::error(409, "the game is over")),
        None => Ok(game.clone()),
    }
}

/// Refuses to play a searched move into a game that changed while the search ran (a move,
/// an undo or a new game from another tab of the same browser).
fn unchanged(searched_at: u64, revision: u64) -> Result<(), Reply> {
    if revision == searched_at {
        Ok(())
    } else {
        Err(Reply::error(
            409,
            "the game changed while the bot was thinking; ask again",
        ))
    }
}

fn forgotten() -> Reply {
    Reply::error(
        409,
        "this game was forgotten to make room for newer ones; start a new game",
    )
}

/// The whole game, each move in full; in a game with hidden information only once it is
/// over, since it shows the bot's real tiles.
fn record<G: BoardView>(session: &Session<G>) -> Reply {
    if G::HIDDEN_INFORMATION && session.game().outcome().is_none() {
        return Reply::error(
            409,
            "the record shows the bot's hidden tiles: it is there once the game is over",
        );
    }
    let size = game::rules::rule_value(session.game().options(), "size")
        .map(|size| format!("-size{}", game::rules::value_text(&size)))
        .unwrap_or_default();
    Reply {
        download: Some(format!("{}{size}.txt", G::NAME)),
        ..Reply::text("text/plain; charset=utf-8", session.record())
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
