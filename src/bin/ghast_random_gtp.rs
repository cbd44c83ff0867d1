//! `ghast-random-gtp [--seed N] [--win-margin M] [--illegal-after K]`: a minimal GTP v2
//! engine that plays uniformly random legal Ghast moves. It exists to test the arena's
//! external-engine support end to end; `--illegal-after K` makes it answer its (K+1)-th
//! `genmove` with a move that is never legal, to exercise forfeits.

use game::{Game, Side};
use ghast::{Ghast, RawOptions};
use mcts::players::{Player, RandomPlayer};
use std::io::{BufRead, Write};

struct Engine {
    options: RawOptions,
    game: Ghast,
    player: RandomPlayer,
    illegal_after: Option<u32>,
    generated: u32,
}

fn main() -> Result<(), String> {
    let mut options = RawOptions::default();
    let (mut seed, mut illegal_after) = (0, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |what: &str| {
            value
                .parse::<u32>()
                .map_err(|_| format!("{what} must be a whole number, got `{value}`"))
        };
        match flag.as_str() {
            "--seed" => seed = u64::from(number("--seed")?),
            "--win-margin" => options.win_margin = i64::from(number("--win-margin")?),
            "--illegal-after" => illegal_after = Some(number("--illegal-after")?),
            _ => return Err(format!("unknown flag `{flag}`")),
        }
    }
    let game = Ghast::new(&options.clone().validate().map_err(|e| e.to_string())?);
    let mut engine = Engine {
        options,
        game,
        player: RandomPlayer::new(seed),
        illegal_after,
        generated: 0,
    };
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, arguments)) = words.split_first() else {
            continue;
        };
        let reply = engine.handle(command, arguments);
        let (mark, text) = match &reply {
            Ok(text) => ('=', text.as_str()),
            Err(text) => ('?', text.as_str()),
        };
        write!(out, "{mark} {text}\n\n")
            .and_then(|()| out.flush())
            .map_err(|e| e.to_string())?;
        if command == "quit" {
            break;
        }
    }
    Ok(())
}

impl Engine {
    fn handle(&mut self, command: &str, arguments: &[&str]) -> Result<String, String> {
        let argument = |i: usize| {
            arguments
                .get(i)
                .copied()
                .ok_or("missing argument".to_owned())
        };
        match command {
            "protocol_version" => Ok("2".to_owned()),
            "name" => Ok("ghast-random-gtp".to_owned()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_owned()),
            "quit" => Ok(String::new()),
            "boardsize" => {
                self.options.size = argument(0)?.parse().map_err(|_| "bad size".to_owned())?;
                self.restart()
            }
            "komi" => {
                self.options.komi = argument(0)?.parse().map_err(|_| "bad komi".to_owned())?;
                self.restart()
            }
            "clear_board" => self.restart(),
            "play" => {
                self.check_colour(argument(0)?)?;
                self.game.play(argument(1)?).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            "genmove" => {
                self.check_colour(argument(0)?)?;
                if self.game.result().is_some() {
                    return Err("the game is over".to_owned());
                }
                if self.illegal_after.is_some_and(|k| self.generated >= k) {
                    return Ok("z99:0".to_owned());
                }
                self.generated += 1;
                let action = self.player.choose(&self.game);
                let text = self.game.action_to_string(action);
                self.game.apply(action);
                Ok(text)
            }
            _ => Err("unknown command".to_owned()),
        }
    }

    fn restart(&mut self) -> Result<String, String> {
        let options = self.options.clone().validate().map_err(|e| e.to_string())?;
        self.game = Ghast::new(&options);
        Ok(String::new())
    }

    /// The colour must be the side to move: this engine keeps no moves out of turn.
    fn check_colour(&self, colour: &str) -> Result<(), String> {
        let expected = match self.game.to_move() {
            Side::First => "orange",
            Side::Second => "blue",
        };
        if colour.eq_ignore_ascii_case(expected) {
            Ok(())
        } else {
            Err(format!("it is {expected}'s turn, not {colour}'s"))
        }
    }
}
