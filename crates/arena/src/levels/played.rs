//! `DIR/levels-games.json`: every match a bundle's levels ladder has played, so that a ladder
//! stopped part way (a Go ladder takes hours) or run again with other levels plays only what
//! it lacks (see [`crate::kept`]). The games are only worth keeping for the weights, game
//! options, search and openings they were played with, so the file names them all.

use crate::kept::{self, PairResult};
use mcts::SearchConfig;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};

/// The levels ladder's games inside a bundle.
pub const GAMES_FILE: &str = "levels-games.json";

/// One match of the levels ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedMatch {
    /// The players (a level as `level VISITS:TEMPERATURE:RANDOM`, an anchor by its name) and
    /// the games, from `a`'s point of view.
    #[serde(flatten)]
    pub result: PairResult,
    /// How many matches of `a` and `b` the ladder played before this one (a level plays an
    /// anchor once to probe it, then again to top the pairing up).
    pub round: u32,
}

/// What every game in the file was played with; a ladder with anything else starts afresh.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedWith<O> {
    /// SHA-256 of the bundle's weights, in hex.
    pub weights: String,
    pub options: O,
    pub search: SearchConfig,
    pub opening_moves: usize,
    pub seed: u64,
}

/// The file's content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedLevels<O> {
    pub played_with: PlayedWith<O>,
    pub matches: Vec<PlayedMatch>,
    /// Where it is kept.
    #[serde(skip)]
    pub path: PathBuf,
}

impl<O: PartialEq + Serialize + DeserializeOwned + std::fmt::Debug> PlayedLevels<O> {
    /// Reads `path`, or an empty file for `played_with` if there is none yet. Games played
    /// with anything else are an error that says what differs: they cannot be mixed in.
    pub fn load(path: &Path, played_with: PlayedWith<O>) -> Result<Self, String> {
        let Some(mut played) = kept::read::<PlayedLevels<O>>(path, "a levels ladder's games")?
        else {
            return Ok(PlayedLevels {
                played_with,
                matches: Vec::new(),
                path: path.to_owned(),
            });
        };
        let theirs = &played.played_with;
        let differs = if theirs.weights != played_with.weights {
            Some("other weights")
        } else if theirs.options != played_with.options {
            Some("other game options")
        } else if theirs.search != played_with.search {
            Some("another search")
        } else if (theirs.opening_moves, theirs.seed)
            != (played_with.opening_moves, played_with.seed)
        {
            Some("other --openings or --seed")
        } else {
            None
        };
        if let Some(what) = differs {
            return Err(format!(
                "{}: its games were played with {what} than this ladder's; move it away to \
                 rate the levels afresh",
                path.display()
            ));
        }
        played.path = path.to_owned();
        Ok(played)
    }

    /// The match of `a` against `b` in `round` of `games` games, if it was played.
    pub fn find(&self, a: &str, b: &str, round: u32, games: u32) -> Option<&PlayedMatch> {
        self.matches.iter().find(|played| {
            let result = &played.result;
            result.a == a && result.b == b && played.round == round && result.wdl().games() == games
        })
    }

    /// Adds a match and writes the file durably and atomically.
    pub fn record(&mut self, played: PlayedMatch) -> Result<(), String> {
        self.matches.push(played);
        kept::write(&self.path, self)
    }
}

/// SHA-256 of the file at `path`, in hex.
pub fn sha256_of(path: &Path) -> Result<String, String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

/// The seed of round `round` of `a` against `b`: it depends on the players and the round,
/// not on where the match falls in the schedule, so that a match kept from a ladder with
/// other levels is the one this ladder would have played.
pub fn match_seed(seed: u64, a: &str, b: &str, round: u32) -> u64 {
    let digest = Sha256::new()
        .chain_update(a.as_bytes())
        .chain_update([0])
        .chain_update(b.as_bytes())
        .chain_update([0])
        .chain_update(round.to_le_bytes())
        .finalize();
    let first: [u8; 8] = digest[..8].try_into().expect("a digest has 32 bytes");
    seed ^ u64::from_le_bytes(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::Wdl;

    fn played_with(weights: &str) -> PlayedWith<u32> {
        PlayedWith {
            weights: weights.into(),
            options: 4,
            search: SearchConfig::play(),
            opening_moves: 4,
            seed: 0,
        }
    }

    #[test]
    fn matches_are_kept_across_loads_and_refused_for_other_weights() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let mut played = PlayedLevels::load(&path, played_with("aa")).unwrap();
        assert!(played.matches.is_empty());
        let probe = PlayedMatch {
            result: PairResult::new("level 1:1:0".into(), "random".into(), Wdl::new(9, 0, 1)),
            round: 0,
        };
        played.record(probe.clone()).unwrap();

        let again = PlayedLevels::load(&path, played_with("aa")).unwrap();
        assert_eq!(again.find("level 1:1:0", "random", 0, 10), Some(&probe));
        assert_eq!(
            again.find("level 1:1:0", "random", 1, 10),
            None,
            "another round"
        );
        assert_eq!(
            again.find("level 1:1:0", "random", 0, 40),
            None,
            "more games"
        );
        assert_eq!(
            again.find("random", "level 1:1:0", 0, 10),
            None,
            "other colours"
        );

        let refused = PlayedLevels::load(&path, played_with("bb")).unwrap_err();
        assert!(refused.contains("other weights"), "{refused}");
        assert!(refused.contains(GAMES_FILE), "{refused}");
    }

    #[test]
    fn a_match_seed_depends_on_its_players_and_round_only() {
        let seed = match_seed(7, "level 1:1:0", "random", 0);
        assert_eq!(seed, match_seed(7, "level 1:1:0", "random", 0));
        assert_ne!(seed, match_seed(7, "level 1:1:0", "random", 1));
        assert_ne!(seed, match_seed(7, "random", "level 1:1:0", 0));
        assert_ne!(seed, match_seed(8, "level 1:1:0", "random", 0));
    }
}
