//! Match records on disk, in the form `ghast replay` reads: `game-NNNN.moves` holds one game's
//! moves separated by spaces, and `match.json` the options, the exact `ghast replay` command
//! line that reproduces every game, and each game's players and result. (`ghast replay` reads
//! nothing but moves, so the options cannot travel inside the move files.)

use crate::runner::{GameRecord, MatchResult};
use game::Game;
use serde_json::json;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Writes one match's records into a folder.
pub struct RecordWriter {
    dir: PathBuf,
    options: serde_json::Value,
    /// The game's names of the sides, the keys of each game's players in `match.json`.
    colours: [&'static str; 2],
    replay: String,
    /// Whether the game has chance, whose outcomes each colour-swapped pair shared.
    paired_chance: bool,
}

impl RecordWriter {
    /// Creates `dir` (and its parents) if needed, for games of `G` with `options`.
    /// `replay_flags` are the `ghast replay` flags that set up such a game.
    pub fn create<G: Game>(
        dir: &Path,
        options: &G::Options,
        replay_flags: &[String],
    ) -> io::Result<RecordWriter> {
        fs::create_dir_all(dir)?;
        Ok(RecordWriter {
            dir: dir.to_owned(),
            options: serde_json::to_value(options).map_err(io::Error::other)?,
            colours: G::COLOURS,
            replay: format!(
                "ghast replay {} < game-NNNN.moves",
                replay_flags
                    .iter()
                    .map(|word| shell_word(word))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            paired_chance: G::CHANCE,
        })
    }

    /// The moves file of game `index`.
    pub fn game_path(&self, index: u32) -> PathBuf {
        self.dir.join(format!("game-{index:04}.moves"))
    }

    /// Writes a finished game's moves.
    pub fn write_game(&self, record: &GameRecord) -> io::Result<PathBuf> {
        let path = self.game_path(record.index);
        fs::write(&path, format!("{}\n", record.moves.join(" ")))?;
        Ok(path)
    }

    /// Writes `match.json`: the options, the replay command and a line per game.
    pub fn write_summary(&self, result: &MatchResult) -> io::Result<PathBuf> {
        let games: Vec<_> = result
            .games
            .iter()
            .map(|game| {
                let [first, second] = self.colours;
                json!({
                    "file": self.game_path(game.index).file_name().map(|n| n.to_string_lossy()),
                    first: game.players[0],
                    second: game.players[1],
                    "opening_moves": game.opening_moves,
                    "outcome": format!("{:?}", game.ending.outcome),
                    "reason": game.ending.reason,
                    "forfeit": game.ending.forfeit,
                })
            })
            .collect();
        let summary = json!({
            "a": result.a,
            "b": result.b,
            "wins": result.wdl.wins,
            "draws": result.wdl.draws,
            "losses": result.wdl.losses,
            "options": self.options,
            "replay": self.replay,
            "paired_chance": self.paired_chance,
            "games": games,
        });
        let path = self.dir.join("match.json");
        let text = serde_json::to_string_pretty(&summary).map_err(io::Error::other)?;
        fs::write(&path, text + "\n")?;
        Ok(path)
    }
}
/// `word` as a shell reads it back: quoted when it holds anything but plain characters.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_=.,:/+@".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
