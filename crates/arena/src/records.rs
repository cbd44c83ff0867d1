//! Match records on disk, in the form `ghast replay` reads: `game-NNNN.moves` holds one game's
//! moves separated by spaces, and `match.json` the options, the exact `ghast replay` command
//! line that reproduces every game, and each game's players and result. (`ghast replay` reads
//! nothing but moves, so the options cannot travel inside the move files.) A game that SGF
//! knows (Go) also gets `game-NNNN.sgf`, the whole record as Go tools read it.

use crate::runner::{GameRecord, MatchResult};
use game::{Game, SgfGame, SgfWork};
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
    /// A game's record as SGF, for a game that SGF knows.
    sgf: Option<SgfWriter>,
}

type SgfWriter = Box<dyn Fn(&GameRecord) -> Result<String, String> + Send + Sync>;

/// The SGF writer of a game that has one ([`Game::with_sgf`]).
struct ToSgf<G: Game>(G::Options);

impl<G: Game> SgfWork<G> for ToSgf<G> {
    type Output = SgfWriter;

    fn run(self) -> SgfWriter
    where
        G: SgfGame,
    {
        let options = self.0;
        Box::new(move |record| sgf_record::<G>(&options, record))
    }
}

/// A match game written as SGF, with its players and result.
fn sgf_record<G: SgfGame>(options: &G::Options, record: &GameRecord) -> Result<String, String> {
    sgf::write_moves(
        &G::new(options),
        &record.moves,
        record.players.clone().map(Some),
        Some((record.ending.outcome, &record.ending.reason)),
    )
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
            sgf: G::with_sgf(ToSgf::<G>(options.clone())),
        })
    }

    /// The moves file of game `index`.
    pub fn game_path(&self, index: u32) -> PathBuf {
        self.dir.join(format!("game-{index:04}.moves"))
    }

    /// The SGF file of game `index`, written for a game that SGF knows.
    pub fn sgf_path(&self, index: u32) -> Option<PathBuf> {
        self.sgf
            .as_ref()
            .map(|_| self.dir.join(format!("game-{index:04}.sgf")))
    }

    /// Writes a finished game's moves, and its SGF where the game has one.
    pub fn write_game(&self, record: &GameRecord) -> io::Result<PathBuf> {
        let path = self.game_path(record.index);
        fs::write(&path, format!("{}\n", record.moves.join(" ")))?;
        if let (Some(write), Some(sgf_path)) = (&self.sgf, self.sgf_path(record.index)) {
            let text = write(record).map_err(|error| {
                io::Error::other(format!(
                    "game {}: its moves do not replay: {error}",
                    record.index
                ))
            })?;
            fs::write(sgf_path, text)?;
        }
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
                    "sgf": self.sgf_path(game.index).as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy()),
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
