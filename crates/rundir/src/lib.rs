//! The layout of a training run on disk, and the `latest` pointer workers watch.
//!
//! ```text
//! RUN/config.toml            the configuration the run was started with
//! RUN/shards/                finished self-play games (the replay store)
//! RUN/shards-merge           a shard merge under way (see `replay::Merger`), if any
//! RUN/models/gen-NNNN.*      checkpoints: safetensors weights + JSON sidecar (every Nth
//!                            generation and the newest few are kept, see `RunLimits`)
//! RUN/models/latest          the newest generation's number, replaced atomically
//! RUN/journal.bin            finished games not yet in a shard (see the journal module)
//! RUN/journal-XXXX.bin       the same for another board of a run that mixes board sizes
//! RUN/shards-merge-XXXX      a merge of such a board's shards under way
//! RUN/writer-id              a self-play process's id in shard names (see `writer_id`)
//! RUN/games-stored           how many self-play games this folder's writer has stored
//! RUN/tensorboard/           event files for TensorBoard
//! RUN/bot/                   the bot bundle exported from the final generation
//! ```

mod store;

pub use store::RunStore;

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use std::fs;
use std::path::{Path, PathBuf};

/// One checkpoint of a run, as its sidecar describes it (the weights are not loaded).
#[derive(Clone, Debug, PartialEq)]
pub struct Generation<O> {
    pub generation: u64,
    pub weights: PathBuf,
    pub game_options: O,
    /// Seconds since the Unix epoch when the checkpoint was saved.
    pub unix_time: u64,
    /// Seconds the run had been running when it saved the checkpoint, over all its resumes
    /// (`None` in checkpoints from before this was recorded).
    pub run_seconds: Option<u64>,
}

/// A board's file-name key: the FNV-1a digest of its options, in hex (stable across builds,
/// unlike the standard library's hasher).
fn board_key(options_json: &str) -> String {
    let digest = options_json
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{digest:016x}")
}

/// Every writer id [`RunDir::writer_id`] draws is below this, so that a process writing the
/// shards of several boards (a run that mixes board sizes) names each board's writer this
/// far apart.
pub const WRITER_IDS: u32 = 10_000;

/// A process's reanalysed games are stored under its writer id plus this: clear of the ids of
/// its boards' writers (up to a hundred boards, [`WRITER_IDS`] apart).
pub const REANALYSED_WRITER_IDS: u32 = 100 * WRITER_IDS;

#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
}

impl RunDir {
    pub fn new(root: impl Into<PathBuf>) -> RunDir {
        RunDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> PathBuf {
        self.root.join("config.toml")
    }

    pub fn shards(&self) -> PathBuf {
        self.root.join("shards")
    }

    pub fn models(&self) -> PathBuf {
        self.root.join("models")
    }

    pub fn tensorboard(&self) -> PathBuf {
        self.root.join("tensorboard")
    }

    /// The bot bundle `ghast train` exports when it stops.
    pub fn bot(&self) -> PathBuf {
        self.root.join("bot")
    }

    pub fn journal(&self) -> PathBuf {
        self.root.join("journal.bin")
    }

    /// The journal of the games of another board than the run's own, in a run that mixes
    /// board sizes: named by a digest of the board's options (JSON), so that a resumed run
    /// finds each board's games whatever order its config lists the boards in.
    pub fn board_journal(&self, options_json: &str) -> PathBuf {
        self.root
            .join(format!("journal-{}.bin", board_key(options_json)))
    }

    /// The journal of reanalysed games not yet in a shard (`[selfplay] reanalyse_share`).
    pub fn reanalysed_journal(&self) -> PathBuf {
        self.root.join("journal-reanalysed.bin")
    }

    /// The intent file of a merge of another board's shards ([`RunDir::board_journal`]).
    pub fn board_merge_intent(&self, options_json: &str) -> PathBuf {
        self.root
            .join(format!("shards-merge-{}", board_key(options_json)))
    }

    /// This folder's id among the writers of a shared replay store: drawn at random the first
    /// time (never 0, which `ghast train` uses) and kept in `RUN/writer-id`, so a resumed
    /// process goes on under its own name. Shard names also carry the creation time and a
    /// sequence number, so two processes that drew the same id still collide only if they
    /// seal shards with the same number in the same millisecond.
    pub fn writer_id(&self) -> Result<u32> {
        let path = self.root.join("writer-id");
        if let Some(id) = read_number(&path, "a writer id")? {
            return Ok(id);
        }
        let id = rand::random_range(1..WRITER_IDS);
        write_atomically(&path, format!("{id}\n").as_bytes())?;
        Ok(id)
    }

    /// How many self-play games this folder's shard writer has stored so far (0 before the
    /// first). A resumed run numbers its games on from there, so that the self-play curves,
    /// whose x-axis is the game number, go on instead of starting again at game 0.
    pub fn games_stored(&self) -> Result<u64> {
        Ok(read_number(&self.games_stored_file(), "a number of games")?.unwrap_or(0))
    }

    pub fn set_games_stored(&self, games: u64) -> Result<()> {
        write_atomically(&self.games_stored_file(), format!("{games}\n").as_bytes())
    }

    fn games_stored_file(&self) -> PathBuf {
        self.root.join("games-stored")
    }

    /// The intent file of a shard merge under way.
    pub fn merge_intent(&self) -> PathBuf {
        self.root.join("shards-merge")
    }

    fn latest_pointer(&self) -> PathBuf {
        self.models().join("latest")
    }

    /// The weights file of generation `generation`.
    pub fn checkpoint(&self, generation: u64) -> PathBuf {
        self.models()
            .join(format!("gen-{generation:04}.safetensors"))
    }

    /// The trainer's own weights at generation `generation`, where the generation itself holds
    /// averaged weights (`[training] weight_average`): what a resumed trainer goes on from.
    pub fn trainer_weights(&self, generation: u64) -> PathBuf {
        self.models()
            .join(format!("trainer-{generation:04}.safetensors"))
    }

    /// The uniform average of generations `first` to `last` (`ghast export --average`), a
    /// checkpoint beside them that no listing of generations counts, and retention never
    /// deletes.
    pub fn average_checkpoint(&self, first: u64, last: u64) -> PathBuf {
        self.models()
            .join(format!("average-{first:04}-{last:04}.safetensors"))
    }

    /// Creates the folders of a new run.
    pub fn create(&self) -> Result<()> {
        for dir in [self.shards(), self.models(), self.tensorboard()] {
            fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create run folder {}", dir.display()))?;
        }
        Ok(())
    }

    /// The generation the `latest` pointer names, if any.
    pub fn latest_generation(&self) -> Result<Option<u64>> {
        read_number(&self.latest_pointer(), "a generation number")
    }

    /// The newest generation with both weights and sidecar in place (with gating, newer than
    /// `latest` when recent candidates were rejected).
    pub fn newest_generation(&self) -> Result<Option<u64>> {
        Ok(self.written_generations()?.into_iter().max())
    }

    /// The generations older than `generation` with both files in place, in any order.
    pub fn generations_before(&self, generation: u64) -> Result<Vec<u64>> {
        let mut older = self.written_generations()?;
        older.retain(|&g| g < generation);
        Ok(older)
    }

    /// Every generation with both weights and sidecar in place, in any order.
    fn written_generations(&self) -> Result<Vec<u64>> {
        let dir = self.models();
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => {
                return Err(error).with_context(|| format!("cannot list {}", dir.display()));
            }
        };
        let mut written = Vec::new();
        for entry in entries {
            let name = entry?.file_name();
            let generation = name.to_str().and_then(generation_of_sidecar);
            if let Some(generation) = generation.filter(|&g| self.checkpoint(g).is_file()) {
                written.push(generation);
            }
        }
        Ok(written)
    }

    /// Every checkpoint with weights and sidecar in place, by generation, read as checkpoints
    /// of game `game`; an error names the file at fault (a sidecar of another game included).
    pub fn generations<O: DeserializeOwned>(&self, game: &str) -> Result<Vec<Generation<O>>> {
        let dir = self.models();
        let entries =
            fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))?;
        let mut generations = Vec::new();
        for entry in entries {
            let name = entry?.file_name();
            let Some(generation) = name.to_str().and_then(generation_of_sidecar) else {
                continue;
            };
            let weights = self.checkpoint(generation);
            if !weights.is_file() {
                continue;
            }
            let description = sidecar::describe::<O>(&weights, game)?;
            generations.push(Generation {
                generation,
                weights,
                game_options: description.provenance.game_options,
                unix_time: description.unix_time,
                run_seconds: description.provenance.run_seconds,
            });
        }
        generations.sort_by_key(|g| g.generation);
        Ok(generations)
    }

    /// Deletes generation `generation`: the weights first, so that it stops counting as
    /// written (see [`RunDir::newest_generation`]) before its sidecar goes.
    pub fn remove_generation(&self, generation: u64) -> Result<()> {
        let weights = self.checkpoint(generation);
        let sidecar = sidecar::sidecar_path(&weights);
        for path in [weights, sidecar] {
            durable::remove(&path).with_context(|| format!("cannot delete {}", path.display()))?;
        }
        let trainer = self.trainer_weights(generation);
        if trainer.is_file() {
            durable::remove(&trainer)
                .with_context(|| format!("cannot delete {}", trainer.display()))?;
        }
        Ok(())
    }

    /// Points `latest` at `generation`; its checkpoint must already be in place.
    pub fn set_latest(&self, generation: u64) -> Result<()> {
        write_atomically(&self.latest_pointer(), format!("{generation}\n").as_bytes())
    }
}

/// The generation of a sidecar's file name, `gen-NNNN.json`.
fn generation_of_sidecar(name: &str) -> Option<u64> {
    name.strip_prefix("gen-")?
        .strip_suffix(".json")?
        .parse()
        .ok()
}

/// The number in the one-line file `path`, `None` if there is no such file; `what` says in an
/// error what the file should hold.
fn read_number<T>(path: &Path, what: &str) -> Result<Option<T>>
where
    T: std::str::FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    match fs::read_to_string(path) {
        Ok(text) => text
            .trim()
            .parse()
            .map(Some)
            .with_context(|| format!("{}: expected {what}, found {text:?}", path.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Writes `bytes` to `path` durably and atomically: a kill at any moment leaves either the old
/// file or the new one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    durable::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each board of a mix has its own journal and merge intent, named by its options alone:
    /// the same options the same name, other options another, never the run's own.
    #[test]
    fn each_board_has_files_of_its_own() {
        let run = RunDir::new("run");
        let (small, large) = (r#"{"size":3}"#, r#"{"size":4}"#);
        assert_eq!(
            run.board_journal(small),
            RunDir::new("run").board_journal(small)
        );
        assert_ne!(run.board_journal(small), run.board_journal(large));
        assert_ne!(run.board_journal(small), run.journal());
        assert_ne!(run.board_merge_intent(small), run.merge_intent());
        assert_eq!(
            run.board_journal(small).file_name().unwrap().len(),
            "journal-0123456789abcdef.bin".len()
        );
    }

    #[test]
    fn the_count_of_stored_games_starts_at_zero_round_trips_and_rejects_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        assert_eq!(run.games_stored().unwrap(), 0);
        run.set_games_stored(1234).unwrap();
        assert_eq!(run.games_stored().unwrap(), 1234);
        fs::write(dir.path().join("games-stored"), "many").unwrap();
        let error = run.games_stored().unwrap_err().to_string();
        assert!(error.contains("expected a number of games"), "{error}");
    }

    #[test]
    fn latest_pointer_round_trips_and_rejects_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        run.create().unwrap();
        assert_eq!(run.latest_generation().unwrap(), None);
        run.set_latest(7).unwrap();
        assert_eq!(run.latest_generation().unwrap(), Some(7));
        fs::write(run.models().join("latest"), "seven").unwrap();
        let error = run.latest_generation().unwrap_err().to_string();
        assert!(error.contains("expected a generation number"), "{error}");
    }

    #[test]
    fn a_removed_generation_is_gone_whole() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        run.create().unwrap();
        for generation in [1, 2] {
            fs::write(run.models().join(format!("gen-{generation:04}.json")), "{}").unwrap();
            fs::write(run.checkpoint(generation), "").unwrap();
        }
        run.remove_generation(2).unwrap();
        assert_eq!(run.newest_generation().unwrap(), Some(1));
        assert!(!run.models().join("gen-0002.json").exists());
        run.remove_generation(2).unwrap();
    }

    /// A checkpoint whose sidecar says it is of `game` with `options` (the weights are
    /// never read here, so any bytes do).
    fn save_untrained<O: serde::Serialize>(run: &RunDir, generation: u64, game: &str, options: &O) {
        let weights = run.checkpoint(generation);
        fs::write(&weights, "").unwrap();
        let layout = game::PolicyLayout {
            spatial_planes: 1,
            global_actions: 1,
        };
        let architecture = sidecar::NetConfig::preset(sidecar::Preset::Tiny, 3, layout);
        let provenance = sidecar::Provenance {
            game: game.to_owned(),
            game_options: options,
            generation,
            training_step: 0,
            run_seconds: None,
        };
        sidecar::write(&weights, &architecture, &provenance).unwrap();
    }

    #[test]
    fn generations_come_from_the_sidecars_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        run.create().unwrap();
        let options = ghast::GhastOptions::default();
        for generation in [10, 2] {
            save_untrained(&run, generation, "ghast", &options);
        }
        fs::write(run.models().join("gen-0011.json"), "{}").unwrap();
        let generations = run.generations::<ghast::GhastOptions>("ghast").unwrap();
        let numbers: Vec<u64> = generations.iter().map(|g| g.generation).collect();
        assert_eq!(numbers, [2, 10], "gen-0011 has no weights");
        assert_eq!(generations[1].weights, run.checkpoint(10));
        assert_eq!(generations[1].game_options, options);
        assert!(generations[1].unix_time > 0);
    }

    #[test]
    fn a_checkpoint_of_another_game_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        run.create().unwrap();
        let options = ghodak::RawOptions::default().validate().unwrap();
        save_untrained(&run, 1, "ghodak", &options);
        let error = run.generations::<ghast::GhastOptions>("ghast").unwrap_err();
        let message = format!("{error:#}");
        assert!(message.contains("gen-0001.json"), "{message}");
        assert!(message.contains("ghodak"), "{message}");
    }

    #[test]
    fn the_newest_generation_needs_weights_and_sidecar() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        assert_eq!(run.newest_generation().unwrap(), None);
        run.create().unwrap();
        for (generation, with_weights) in [(2, true), (10, true), (11, false)] {
            fs::write(run.models().join(format!("gen-{generation:04}.json")), "{}").unwrap();
            if with_weights {
                fs::write(run.checkpoint(generation), "").unwrap();
            }
        }
        assert_eq!(run.newest_generation().unwrap(), Some(10));
    }
}
