//! What each GTP command does.

use super::{GtpEngine, colour::parse_colour, protocol::Command};
use crate::PlayError;
use crate::bot::Analysis;
use game::{
    AgentFailure, Choice, DeviceError, Ending, GtpGame, Outcome, Planes, resigned_score_text,
};
use std::fmt::Write;

/// Every command the engine knows, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "ghast-position",
    "ghast-set_position",
    "ghast-analyze",
    "ghast-set_visits",
    "ghast-chance",
];

/// Moves `ghast-analyze` lists at most.
const ANALYZE_MOVES: usize = 10;

type Response = Result<String, String>;

impl<G: GtpGame + Planes> GtpEngine<G> {
    /// The response to one command (`Err` for a `?` response).
    pub fn execute(&mut self, command: &Command) -> Response {
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        match (command.name.as_str(), args.as_slice()) {
            ("protocol_version", []) => Ok("2".into()),
            ("name", []) => Ok("ghast".into()),
            ("version", []) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [name]) => Ok(COMMANDS.contains(name).to_string()),
            ("list_commands", []) => Ok(COMMANDS.join("\n")),
            ("quit", []) => Ok(String::new()),
            ("boardsize", [size]) => self.boardsize(size),
            ("clear_board", []) => {
                let start = G::new(&self.options).position_text();
                self.reset(self.options.clone(), start, Vec::new());
                Ok(String::new())
            }
            ("komi", [komi]) => self.komi(komi),
            ("play", [colour, text]) => self.play(colour, text),
            ("genmove", [colour]) => self.genmove(colour),
            ("undo", []) => self.undo(),
            ("showboard", []) => Ok(format!("\n{}", self.game().diagram())),
            ("final_score", []) => Ok(self.final_score()),
            ("ghast-position", []) => Ok(self.game().position_text()),
            ("ghast-set_position", [_, ..]) => self.set_position(&args.join(" ")),
            ("ghast-analyze", []) => self.analyze(None),
            ("ghast-analyze", [visits]) => self.analyze(Some(parse_visits(visits)?)),
            ("ghast-chance", [outcome]) => self.chance(outcome),
            ("ghast-set_visits", [visits]) => {
                let visits = parse_visits(visits)?;
                self.bot.set_visits(visits).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            (name, _) if COMMANDS.contains(&name) => {
                Err(format!("syntax error: wrong arguments for {name}"))
            }
            _ => Err("unknown command".into()),
        }
    }

    /// A new, empty board of `size` with the other options kept. The network is fully
    /// convolutional and pools over the board, so every size the rules allow is playable.
    fn boardsize(&mut self, size: &str) -> Response {
        let size: i64 = size
            .parse()
            .map_err(|_| "boardsize not an integer".to_owned())?;
        let options = with_rule(&self.options, "size", &size.to_string())
            .map_err(|_| "unacceptable size".to_owned())?;
        let start = G::new(&options).position_text();
        self.reset(options, start, Vec::new());
        Ok(String::new())
    }

    /// Changes komi and keeps the game: komi decides only who wins at the end.
    fn komi(&mut self, komi: &str) -> Response {
        let komi: f64 = komi.parse().map_err(|_| "komi not a float".to_owned())?;
        let options = with_rule(&self.options, "komi", &komi.to_string())?;
        self.reset(options, self.start.clone(), self.moves.clone());
        Ok(String::new())
    }

    /// A move as the engine's side is told it: its own in full, the other side's in the
    /// public form of a game with hidden information.
    /// At a chance position it is chance's outcome (`play black r213.31`, Qast's roll, the
    /// colour being anyone's), as `ghast-chance` gives it.
    fn play(&mut self, colour: &str, text: &str) -> Response {
        if self.game().is_chance() && self.game().outcome().is_none() {
            parse_colour::<G>(colour)?;
            return self.chance(text);
        }
        self.check_turn(colour)?;
        let actions = self
            .referee
            .play_told(text)
            .map_err(|reason| format!("illegal move: {reason}"))?;
        for action in actions {
            self.bot.observe(action);
        }
        self.moves.push(text.to_owned());
        Ok(String::new())
    }

    /// Chance's outcome, drawn by whoever referees the game (a roll of the dice), in the
    /// game's notation.
    fn chance(&mut self, outcome: &str) -> Response {
        let game = self.referee.game();
        if self.referee.is_over() {
            return Err("the game is over".into());
        }
        if !game.is_chance() {
            return Err("no chance event is due: a side decides now".into());
        }
        let action = game
            .parse_action(outcome)
            .map_err(|reason| format!("illegal outcome: {reason}"))?;
        self.referee.play(action)?;
        self.bot.observe(action);
        self.moves.push(outcome.to_owned());
        Ok(String::new())
    }

    /// Searches each action of the move (a Fakerghast pair is two: the real tile, then the
    /// fake) and answers the move in full, or `resign` when the bot gives the game up (by the
    /// rule of its `bot.toml`); the game is then over.
    fn genmove(&mut self, colour: &str) -> Response {
        self.check_turn(colour)?;
        let choice = match self.referee.take_whole_move(&mut self.bot) {
            Ok(choice) => choice,
            Err(AgentFailure::Device(error)) => return Err(self.fail(error)),
            Err(AgentFailure::Lost(why)) => return Err(why),
        };
        if choice == Choice::Resign {
            return Ok("resign".to_owned());
        }
        let played = self
            .referee
            .last_move()
            .expect("the bot played a whole move");
        let text = played.in_full();
        self.moves.push(text.clone());
        Ok(text)
    }

    /// The score of the board as it stands, or who won by resignation.
    fn final_score(&self) -> String {
        match self.referee.ending() {
            Some(Ending {
                outcome: Outcome::Win(winner),
                reason,
                ..
            }) if reason == "resign" => resigned_score_text::<G>(winner),
            _ => self.game().final_score(),
        }
    }

    /// Checks that `colour` is the side to move (which, with Ghast's vetoes, is not simply
    /// the other side of the last move) and that the game goes on.
    fn check_turn(&self, colour: &str) -> Result<(), String> {
        let side = parse_colour::<G>(colour)?;
        let game = self.game();
        if self.referee.is_over() {
            return Err("the game is over".into());
        }
        if game.is_chance() {
            return Err("chance decides now: tell the engine its outcome with ghast-chance".into());
        }
        let to_move = game.to_move();
        if side != to_move {
            return Err(format!(
                "it is {}'s turn {}, not {}'s",
                G::COLOURS[to_move.index()],
                game.turn_task(),
                G::COLOURS[side.index()]
            ));
        }
        Ok(())
    }

    /// The device failed: the response says so, and the engine stops after it.
    fn fail(&mut self, error: DeviceError) -> String {
        let message = error.to_string();
        self.failed = Some(error);
        message
    }

    fn undo(&mut self) -> Response {
        let mut moves = self.moves.clone();
        moves.pop().ok_or_else(|| "cannot undo".to_owned())?;
        self.reset(self.options.clone(), self.start.clone(), moves);
        Ok(String::new())
    }

    /// Starts from a position string; in a game with a `size` rule, a board of another size
    /// changes the size, as `boardsize` would.
    fn set_position(&mut self, text: &str) -> Response {
        let options = if game::rules::keys_of::<G::Options>().contains(&"size") {
            with_rule(&self.options, "size", &G::position_size(text)?.to_string())?
        } else {
            self.options.clone()
        };
        let start = G::from_position_text(&options, text)?.position_text();
        self.reset(options, start, Vec::new());
        Ok(String::new())
    }

    /// `value <v> winrate <p> visits <n>` for the side to move, then one line per top move:
    /// `<move> visits <n> prior <p> value <v>` (value `-` for an unvisited move).
    fn analyze(&mut self, visits: Option<u32>) -> Response {
        let analysis = match self.bot.analyze(self.referee.game(), visits) {
            Ok(analysis) => analysis,
            Err(PlayError::Device(error)) => return Err(self.fail(error)),
            Err(error) => return Err(error.to_string()),
        };
        Ok(format_analysis(
            &analysis,
            G::COLOURS[self.game().to_move().index()],
        ))
    }
}

fn format_analysis(analysis: &Analysis, to_move: &str) -> String {
    let mut out = format!(
        "to_move {to_move} value {:.3} winrate {:.3} visits {}",
        analysis.value,
        analysis.win_probability(),
        analysis.total_visits
    );
    for stats in analysis.moves.iter().take(ANALYZE_MOVES) {
        let value = stats
            .value
            .map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"));
        write!(
            out,
            "\n{} visits {} prior {:.3} value {value}",
            stats.text, stats.visits, stats.prior
        )
        .expect("writing to a String");
    }
    out
}

/// `options` with the rule `key` set to `value` (GTP's `boardsize` and `komi` set the
/// game's `size` and `komi`); a game without that rule refuses, naming it.
fn with_rule<O>(options: &O, key: &str, value: &str) -> Result<O, String>
where
    O: serde::Serialize + serde::de::DeserializeOwned,
{
    if !game::rules::keys_of::<O>().contains(&key) {
        return Err(format!("this game has no {key}"));
    }
    game::rules::with_rules(options, &[game::rules::Rule::new(key, value)])
}

fn parse_visits(text: &str) -> Result<u32, String> {
    text.parse()
        .ok()
        .filter(|&visits| visits > 0)
        .ok_or_else(|| format!("visits must be a whole number from 1, got `{text}`"))
}
