//! A GTP version 2 engine for any game that speaks GTP ([`game::GtpGame`]), over any reader
//! and writer.
//!
//! Colours are the game's (Ghast: `orange` and `blue`; Ghodak: `black` and `white`); Go's
//! `black`/`b` always names the first player and `white`/`w` the second. Moves are in the
//! game's notation (Ghast: `f6:3`, `pass`, `accept`, `veto`; Ghodak: `D4`, `pass`). The
//! side to move follows the game, not strict alternation: in Ghast, while a placement awaits
//! its veto answer, the answering side is to move. Extensions are prefixed `ghast-`.

mod colour;
mod commands;
mod protocol;

pub use colour::parse_colour;
pub use commands::COMMANDS;
pub use protocol::{Command, write_response};

use crate::bot::Bot;
use game::{DeviceError, GtpGame, Planes, Referee, ServeError};
use std::io::{BufRead, Write};

/// The engine's state: the bot, the game's options, where the game started (its position
/// string) and the moves played since, as the engine was told them (so that `undo` and
/// `komi` can replay them, and a hidden-information game learns its reveals again), and the
/// referee of the game as this side sees it.
#[derive(Debug)]
pub struct GtpEngine<G: GtpGame + Planes> {
    bot: Bot<G>,
    options: G::Options,
    start: String,
    moves: Vec<String>,
    referee: Referee<G>,
    /// The device failed in the command under way: the engine stops once it is answered.
    failed: Option<DeviceError>,
}

impl<G: GtpGame + Planes> GtpEngine<G> {
    /// An engine at the start of a game with `options` (usually the bundle's).
    pub fn new(bot: Bot<G>, options: G::Options) -> Self {
        let game = G::new(&options);
        GtpEngine {
            bot,
            start: game.position_text(),
            options,
            moves: Vec::new(),
            referee: Referee::new(game),
            failed: None,
        }
    }

    pub fn game(&self) -> &G {
        self.referee.game()
    }

    /// Answers commands from `input` until `quit` or the end of the input. Only I/O errors
    /// and a failed device end it early: a bad command gets a `?` response and the engine
    /// reads on, while a command whose search the device failed gets a `?` response with the
    /// device's words, and then the engine stops with that error (as KataGo does).
    pub fn run(
        &mut self,
        mut input: impl BufRead,
        mut output: impl Write,
    ) -> Result<(), ServeError> {
        let mut line = Vec::new();
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                return Ok(());
            }
            let Some(command) = Command::parse(&String::from_utf8_lossy(&line)) else {
                continue;
            };
            let response = self.execute(&command);
            write_response(&mut output, command.id, &response)?;
            if let Some(error) = self.failed.take() {
                return Err(ServeError::Device(error));
            }
            if command.name == "quit" {
                return Ok(());
            }
        }
    }

    /// Starts over from `start` with `options`, replaying `moves` (all legal there: they were
    /// played from it before, and options that can change mid-game do not change which moves
    /// are legal). The empty board is made, not read: a game may not read position strings.
    fn reset(&mut self, options: G::Options, start: String, moves: Vec<String>) {
        let empty = G::new(&options);
        let game = if empty.position_text() == start {
            empty
        } else {
            G::from_position_text(&options, &start).expect("a start position read before")
        };
        let mut referee = Referee::new(game);
        for text in &moves {
            referee.play_told(text).expect("a move played here before");
        }
        self.bot.forget();
        self.options = options;
        self.start = start;
        self.moves = moves;
        self.referee = referee;
    }
}
