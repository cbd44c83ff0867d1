//! The half of a run that machines share, in a store named by URL: what one learner and any
//! number of self-play processes need from each other.
//!
//! ```text
//! STORE/config.toml             the run's configuration, written by the learner
//! STORE/shards/                 finished games from every self-play process
//! STORE/models/gen-NNNN.*       the generation self-play should play, weights and sidecar
//! STORE/models/latest           its number, written after its files
//! ```
//!
//! Each process keeps a [`RunDir`] of its own beside it: the learner its checkpoints and
//! TensorBoard curves, a self-play process its journal and the models it downloaded.

use crate::RunDir;
use anyhow::{Context, Result};
use storage::{Bucket, StorageError};

pub struct RunStore {
    bucket: Bucket,
}

const CONFIG: &str = "config.toml";
const LATEST: &str = "models/latest";

impl RunStore {
    /// Opens the store at `location` (a path, `file://`, `s3://`, `gs://` or `az://` URL,
    /// configured from the environment as [`Bucket::open`] says). Contacts nothing yet.
    pub fn open(location: &str) -> Result<RunStore> {
        Ok(RunStore {
            bucket: Bucket::open(location)?,
        })
    }

    /// The location of the replay shards, for `replay::open_store`.
    pub fn shards(&self) -> String {
        self.bucket.locate("shards")
    }

    /// The run's configuration as the learner wrote it, if it has.
    pub fn config(&self) -> Result<Option<String>> {
        let Some(bytes) = self.bucket.get_if_present(CONFIG)? else {
            return Ok(None);
        };
        String::from_utf8(bytes)
            .map(Some)
            .with_context(|| format!("{}: not UTF-8 text", self.bucket.locate(CONFIG)))
    }

    pub fn put_config(&self, text: &str) -> Result<()> {
        Ok(self.bucket.put(CONFIG, text.as_bytes())?)
    }

    /// The generation self-play should play, if the learner has published one.
    pub fn latest_generation(&self) -> Result<Option<u64>> {
        let Some(bytes) = self.bucket.get_if_present(LATEST)? else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&bytes);
        text.trim().parse().map(Some).with_context(|| {
            format!(
                "{}: expected a generation number, found {text:?}",
                self.bucket.locate(LATEST)
            )
        })
    }

    /// Uploads generation `generation` of `run`, then points `latest` at it, so a reader that
    /// sees the pointer finds the files.
    pub fn publish(&self, run: &RunDir, generation: u64) -> Result<()> {
        for (key, path) in self.files(run, generation) {
            let bytes =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            self.bucket.put(&key, &bytes)?;
        }
        Ok(self
            .bucket
            .put(LATEST, format!("{generation}\n").as_bytes())?)
    }

    /// Downloads generation `generation` into `run` and points its local `latest` at it; the
    /// sidecar goes last, since a checkpoint counts as written once both files are there.
    /// False if the generation is gone from the store: the learner has published a newer one
    /// since its number was read.
    pub fn fetch(&self, generation: u64, run: &RunDir) -> Result<bool> {
        for (key, path) in self.files(run, generation) {
            let bytes = match self.bucket.get(&key) {
                Ok(bytes) => bytes,
                Err(StorageError::NotFound { .. }) => return Ok(false),
                Err(error) => return Err(error.into()),
            };
            crate::write_atomically(&path, &bytes)?;
        }
        run.set_latest(generation)?;
        Ok(true)
    }

    /// Deletes generation `generation` from the store (not from any run folder).
    pub fn remove_generation(&self, run: &RunDir, generation: u64) -> Result<()> {
        for (key, _) in self.files(run, generation) {
            self.bucket.delete(&key)?;
        }
        Ok(())
    }

    /// The keys of a generation's weights and sidecar, each with its path in `run`.
    fn files(&self, run: &RunDir, generation: u64) -> [(String, std::path::PathBuf); 2] {
        let weights = run.checkpoint(generation);
        let sidecar = sidecar::sidecar_path(&weights);
        [weights, sidecar].map(|path| {
            let name = path
                .file_name()
                .expect("a checkpoint file")
                .to_string_lossy();
            (format!("models/{name}"), path)
        })
    }
}
