//! The state of the game as the page reads it: everything needed to draw the board and the
//! panel, so the page holds no rules of its own. What every game has is here; the board
//! itself is the game's own ([`BoardView::Board`]).

use crate::session::Session;
use game::{BoardView, Effect, Outcome, Side, colour_name};
use play::Level;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct State<G: BoardView> {
    /// The game's name: the page draws hexes for `ghast`, a Go board for `ghodak`.
    pub game: &'static str,
    /// The game's name as people write it, the page's title.
    pub title: &'static str,
    /// The names of the first and the second side (`orange`/`blue`, `black`/`white`).
    pub colours: [&'static str; 2],
    /// The board size, for games that have a `size` rule.
    pub size: Option<i64>,
    /// The position string in the game's notation, as the human may see it.
    pub position: String,
    pub to_move: &'static str,
    pub human: &'static str,
    pub visits: u32,
    /// The level of play chosen for this game (1 is the weakest), if one was.
    pub level: Option<usize>,
    /// The bot's levels of play, weakest first, for the page's menu.
    pub levels: Vec<LevelView>,
    /// The page asks the bot to move when this is set.
    pub bot_to_move: bool,
    pub can_pass: bool,
    pub board: G::Board,
    pub last: Option<LastMove>,
    /// The first and the second side's score as the rules count it now, komi included.
    pub scores: [f32; 2],
    pub result: Option<GameEnd>,
    pub moves: Vec<String>,
}

/// One level of play as the menu shows it: its search, and its Elo where the ladder
/// measured it.
#[derive(Debug, Serialize)]
pub struct LevelView {
    pub visits: u32,
    /// Elo on the scale of its anchors (the first is 0), with a 95% interval.
    pub elo: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The player rated 0 on that scale.
    pub zero: Option<String>,
    /// The anchors the Elo was measured against, by their `ghast arena` names.
    pub anchors: Vec<String>,
}

impl LevelView {
    fn of(level: &Level) -> LevelView {
        let rating = level.rating.as_ref();
        LevelView {
            visits: level.visits,
            elo: rating.map(|r| r.elo),
            low: rating.map(|r| r.low),
            high: rating.map(|r| r.high),
            zero: rating.map(|r| r.zero.clone()),
            anchors: rating.map(|r| r.anchors.clone()).unwrap_or_default(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct LastMove {
    #[serde(rename = "move")]
    pub text: String,
    pub by: &'static str,
    #[serde(flatten)]
    pub effect: Effect,
}

#[derive(Debug, Serialize)]
pub struct GameEnd {
    /// `None` for a draw.
    pub winner: Option<&'static str>,
    pub reason: &'static str,
    /// As `ghast replay` prints it, e.g. `orange margin`.
    pub text: String,
}

impl<G: BoardView> State<G> {
    /// The state of `session` against a bot with `levels`.
    pub fn of(session: &Session<G>, levels: &[Level]) -> State<G> {
        let game = session.game();
        let to_move = game.to_move();
        let outcome = game.outcome();
        State {
            game: G::NAME,
            title: G::TITLE,
            colours: G::COLOURS,
            size: game::rules::rule_value(game.options(), "size").and_then(|v| v.as_integer()),
            position: game.position_seen_by(session.human()),
            to_move: colour_name::<G>(to_move),
            human: colour_name::<G>(session.human()),
            visits: session.visits(),
            level: session.level(),
            levels: levels.iter().map(LevelView::of).collect(),
            bot_to_move: outcome.is_none() && to_move != session.human(),
            // `pass` is GTP's word for passing, which every GtpGame reads.
            can_pass: outcome.is_none() && game.parse_action("pass").is_ok(),
            board: game.board(session.human()),
            last: session.last().map(|last| LastMove {
                text: G::told_move(&last.before, &last.actions, &last.after, session.human()),
                by: colour_name::<G>(last.before.to_move()),
                effect: G::effect(
                    &last.before_last,
                    *last.actions.last().expect("a move has actions"),
                    &last.after,
                ),
            }),
            scores: Side::BOTH.map(|side| game.score(side)),
            result: outcome.map(|outcome| GameEnd {
                winner: match outcome {
                    Outcome::Win(side) => Some(colour_name::<G>(side)),
                    Outcome::Draw => None,
                },
                reason: game.end_reason().unwrap_or("ended"),
                text: game.result_text().unwrap_or_default(),
            }),
            moves: session.move_texts(),
        }
    }
}
