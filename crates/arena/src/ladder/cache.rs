//! `RUN/ladder/results.json`: every pairing the ladder has played, so that a rerun plays only
//! the new ones (see [`crate::kept`]).

use crate::kept::{self, PairResult};
use mcts::SearchConfig;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::path::Path;

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
        let Some(cache) = kept::read::<ResultCache<O>>(path, "a ladder results file")? else {
            return Ok(ResultCache {
                options: options.clone(),
                search: search.clone(),
                pairs: Vec::new(),
            });
        };
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
        kept::write(path, self)
    }
}
