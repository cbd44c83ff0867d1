//! The results a ladder keeps between its runs, in a JSON file beside what they rate: the run
//! ladder's `RUN/ladder/results.json` and the levels ladder's `DIR/levels-games.json`. Each
//! names what its games were played with and is refused for anything else; both are read
//! whole and replaced durably and atomically after every match, so a kill loses at most the
//! match in progress.

use crate::rating::Wdl;
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
    /// `a` against `b`, with `wdl` from `a`'s point of view.
    pub fn new(a: String, b: String, wdl: Wdl) -> PairResult {
        PairResult {
            a,
            b,
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
        }
    }

    pub fn wdl(&self) -> Wdl {
        Wdl::new(self.wins, self.draws, self.losses)
    }

    /// Whether this is the pairing of `a` and `b`, in either order.
    pub fn pairs(&self, a: &str, b: &str) -> bool {
        (self.a == a && self.b == b) || (self.a == b && self.b == a)
    }
}

/// The file at `path`, `None` if there is none yet; `what` names its kind in the error for a
/// file that does not read as one.
pub(crate) fn read<T: DeserializeOwned>(path: &Path, what: &str) -> Result<Option<T>, String> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| format!("{}: not {what}: {e}", path.display()))
}

/// Writes `kept` to `path`, durably and atomically.
pub(crate) fn write<T: Serialize>(path: &Path, kept: &T) -> Result<(), String> {
    let json = serde_json::to_vec_pretty(kept).expect("kept results always serialise");
    durable::write(path, &json).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
