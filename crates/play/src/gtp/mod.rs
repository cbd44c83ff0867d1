//! A GTP version 2 engine for Ghast, over any reader and writer.
//!
//! Colours are `orange` and `blue` (Go's `black`/`b` is Orange, the first player, and
//! `white`/`w` is Blue); moves are RULES.md notation (`f6:3`, `pass`, `accept`, `veto`). The
//! side to move follows the game, not strict alternation: while a placement awaits its veto
//! answer, the answering side is to move. Extensions are prefixed `ghast-`.

mod colour;
mod commands;
mod protocol;
mod score;

pub use colour::parse_colour;
pub use commands::COMMANDS;
pub use protocol::{Command, write_response};
pub use score::final_score;

use crate::bot::Bot;
use game::Game;
use ghast::{Ghast, GhastOptions, Position};
use std::io::{self, BufRead, Write};

/// The engine's state: the bot, the game's options, where the game started and the moves
/// played since (so that `undo` and `komi` can replay them).
#[derive(Debug)]
pub struct Engine {
    bot: Bot<Ghast>,
    options: GhastOptions,
    start: Position,
    actions: Vec<usize>,
    game: Ghast,
}

impl Engine {
    /// An engine at the start of a game with `options` (usually the bundle's).
    pub fn new(bot: Bot<Ghast>, options: GhastOptions) -> Engine {
        let game = Ghast::new(&options);
        Engine {
            bot,
            start: game.position(),
            options,
            actions: Vec::new(),
            game,
        }
    }

    pub fn game(&self) -> &Ghast {
        &self.game
    }

    /// Answers commands from `input` until `quit` or the end of the input. Only I/O errors
    /// end it early: a bad command gets a `?` response and the engine reads on.
    pub fn run(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
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
            if command.name == "quit" {
                return Ok(());
            }
        }
    }

    /// Starts over from `start` with `options`, replaying `actions` (all legal there: they
    /// were played from it before, and options that can change mid-game do not change which
    /// moves are legal).
    fn reset(&mut self, options: GhastOptions, start: Position, actions: Vec<usize>) {
        let mut game = Ghast::from_position(&options, &start);
        for &action in &actions {
            game.apply(action);
        }
        self.bot.forget();
        self.options = options;
        self.start = start;
        self.actions = actions;
        self.game = game;
    }
}
