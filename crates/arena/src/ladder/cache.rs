//! `RUN/ladder/results.json`: every pairing the ladder has played, so that a rerun plays only
//! the new ones. Replaced atomically after each pairing, so a kill loses at most the one in
//! progress.

use crate::rating::Wdl;
use mcts::SearchConfig;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fs;
use std::path::Path;

/// The results of one pairing, from `a`'s point of view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairResult {
    pub a: String,
    pub b: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl PairResult {
    pub fn wdl(&self) -> Wdl {
        Wdl::new(self.wins, self.draws, self.losses)
    }

    /// Whether this is the pairing of `a` and `b`, in either order.
    pub fn pairs(&self, a: &str, b: &str) -> bool {
        (self.a == a && self.b == b) || (self.a == b && self.b == a)
    }
}

/// The cache file's content: the options every game was played with (`O`, the game's
/// options), how the generations searched, and the pairings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultCache<O> {
    pub options: O,
    /// The generations' search settings (files from before this field: PUCT's play defaults).
    #[serde(default = "SearchConfig::play")]
    pub search: SearchConfig,
    pub pairs: Vec<PairResult>,
}

impl<O: Clone + PartialEq + Serialize + DeserializeOwned> ResultCache<O> {
    /// Reads `path`, or an empty cache for `options` and `search` if there is no file yet. A
    /// cache of other options or another search is an error: its games are not comparable.
    pub fn load(path: &Path, options: &O, search: &SearchConfig) -> Result<ResultCache<O>, String> {
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(ResultCache {
                    options: options.clone(),
                    search: search.clone(),
                    pairs: Vec::new(),
                });
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let cache: ResultCache<O> = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{}: not a ladder results file: {e}", path.display()))?;
        if &cache.options != options {
            return Err(format!(
                "{}: its games were played with other game options than the run's latest \
                 checkpoint; move it away to start the ladder afresh",
                path.display()
            ));
        }
        if &cache.search != search {
            return Err(format!(
                "{}: its generations searched with other settings than the run's bot (its \
                 config's [bot] and [selfplay.search]); move it away to start the ladder afresh",
                path.display()
            ));
        }
        Ok(cache)
    }

    pub fn find(&self, a: &str, b: &str) -> Option<&PairResult> {
        self.pairs.iter().find(|pair| pair.pairs(a, b))
    }

    /// Writes the cache durably and atomically: a killed ladder keeps the results it had.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let json = serde_json::to_vec_pretty(self).expect("the cache always serialises");
        durable::write(path, &json).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}
