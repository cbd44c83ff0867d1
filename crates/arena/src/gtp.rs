//! External engines speaking GTP v2 over standard input and output.
//!
//! Per game the arena sends `boardsize`, `komi` and `clear_board`, then `genmove` for the
//! engine's moves and `play` for every other move (openings included), with the game's
//! colours (`orange`/`blue` for Ghast, `black`/`white` for Go-like games) and moves in its
//! notation, as the engine's side may be told them (Fakerghast: the opponent's pairs in public
//! form); chance's outcomes as `ghast-chance OUTCOME`; `quit` when the engine is dropped.
//! Replies are read on a helper thread so that a hung engine costs a timeout, not the match.

use game::{Agent, AgentFailure, Choice, GtpGame, Mover, Played, Side, colour_name};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// Longest wait for one reply; generous, since a strong engine may think for a while.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(300);

/// How long a dropped engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// A running engine process and the GTP conversation with it.
pub struct GtpProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl GtpProcess {
    /// Starts `command` (program, then arguments); `name` labels it in error messages.
    pub fn spawn(name: &str, command: &[String]) -> Result<GtpProcess, AgentFailure> {
        let (program, arguments) = command
            .split_first()
            .ok_or_else(|| AgentFailure::Lost(format!("engine `{name}`: empty command line")))?;
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                // Debian installs game engines (GNU Go) in /usr/games, off many PATHs.
                let hint = if e.kind() == std::io::ErrorKind::NotFound && !program.contains('/') {
                    " (not on the PATH; Debian puts game engines in /usr/games)"
                } else {
                    ""
                };
                AgentFailure::Lost(format!(
                    "engine `{name}`: cannot start `{program}`: {e}{hint}"
                ))
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(GtpProcess {
            name: name.to_owned(),
            child,
            stdin,
            lines,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one command and returns the text of a success reply (`= text`); a failure reply
    /// (`? text`), a closed pipe or a timeout is an error naming the engine and the command.
    pub fn send(&mut self, command: &str) -> Result<String, AgentFailure> {
        let fail =
            |why: String| AgentFailure::Lost(format!("engine `{}`: `{command}`: {why}", self.name));
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| fail(format!("cannot send: {e}")))?;
        let deadline = Instant::now() + REPLY_TIMEOUT;
        let mut reply: Option<(bool, String)> = None;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(wait) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(fail(format!("no reply within {REPLY_TIMEOUT:?}")));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(fail("the engine closed its output".to_owned()));
                }
            };
            let line = line.trim_end_matches('\r');
            match &mut reply {
                None => {
                    if let Some(rest) = line.strip_prefix('=') {
                        reply = Some((true, strip_id(rest).to_owned()));
                    } else if let Some(rest) = line.strip_prefix('?') {
                        reply = Some((false, strip_id(rest).to_owned()));
                    }
                }
                Some((ok, text)) if line.trim().is_empty() => {
                    return if *ok {
                        Ok(std::mem::take(text))
                    } else {
                        Err(fail(format!("the engine answered `? {text}`")))
                    };
                }
                Some((_, text)) => {
                    text.push('\n');
                    text.push_str(line);
                }
            }
        }
    }
}

/// The reply text after the `=`/`?` and an optional numeric command id.
fn strip_id(rest: &str) -> &str {
    rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim()
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A GTP engine playing game `G`, told whole moves: a move of several actions (Fakerghast's
/// pair) is sent once complete, in full if it is the engine's own (an opening move) and in
/// the public form if it is the opponent's, so the engine never learns what its side may
/// not know.
pub struct GtpAgent<G> {
    engine: GtpProcess,
    /// The side the engine plays in this game.
    side: Side,
    /// Actions of the engine's last answer still to hand to the referee, one per `choose`.
    queued: VecDeque<usize>,
    /// The move being told is the one the engine generated, so it knows it already.
    generated: bool,
    game: std::marker::PhantomData<G>,
}

impl<G> GtpAgent<G> {
    pub fn new(engine: GtpProcess) -> GtpAgent<G> {
        GtpAgent {
            engine,
            side: Side::First,
            queued: VecDeque::new(),
            generated: false,
            game: std::marker::PhantomData,
        }
    }
}

impl<G: GtpGame> Agent<G> for GtpAgent<G> {
    fn new_game(&mut self, options: &G::Options, side: Side) -> Result<(), AgentFailure> {
        self.side = side;
        self.queued.clear();
        self.generated = false;
        for (command, key) in [("boardsize", "size"), ("komi", "komi")] {
            if let Some(value) = game::rules::rule_value(options, key) {
                self.engine
                    .send(&format!("{command} {}", game::rules::value_text(&value)))?;
            }
        }
        self.engine.send("clear_board")?;
        Ok(())
    }

    fn choose(&mut self, game: &G) -> Result<Choice, AgentFailure> {
        if let Some(action) = self.queued.pop_front() {
            return Ok(Choice::Play(action));
        }
        let reply = self
            .engine
            .send(&format!("genmove {}", colour_name::<G>(game.to_move())))?;
        if reply.eq_ignore_ascii_case("resign") {
            return Ok(Choice::Resign);
        }
        let actions = game.parse_move(&reply).map_err(|why| {
            AgentFailure::Lost(format!(
                "engine `{}` played the illegal move `{reply}`: {why}",
                self.engine.name()
            ))
        })?;
        self.generated = true;
        self.queued = actions.into();
        let first = self.queued.pop_front().ok_or_else(|| {
            AgentFailure::Lost(format!("engine `{}` answered no move", self.engine.name()))
        })?;
        Ok(Choice::Play(first))
    }

    fn whole_moves(&self) -> bool {
        true
    }

    fn observe_move(&mut self, played: &Played<'_, G>) -> Result<(), AgentFailure> {
        if std::mem::take(&mut self.generated) {
            return Ok(());
        }
        let text = played.told_to(self.side);
        let command = match played.mover {
            Mover::Side(side) => format!("play {} {text}", colour_name::<G>(side)),
            Mover::Chance => format!("ghast-chance {text}"),
        };
        self.engine.send(&command)?;
        Ok(())
    }
}
