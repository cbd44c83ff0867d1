//! Player specifications as users write them on the command line: `random`, `greedy`,
//! `uct:N`, `expectimax:D`, `path.safetensors[@visits]`, `DIR[@visits]` (a bot bundle) or `gtp:COMMAND LINE`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use thiserror::Error;

/// Search visits per move for a network player when the spec does not say.
pub const DEFAULT_VISITS: u32 = 100;

/// Who plays one side of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Random,
    Greedy,
    /// Classic UCT with this many random playouts per move.
    Uct {
        playouts: u32,
    },
    /// Expectimax this many decisions deep (1..=6), leaves judged by the score lead.
    Expectimax {
        depth: u32,
    },
    /// A network checkpoint (`.safetensors` with its `.json` sidecar) searched with PUCT.
    Checkpoint {
        weights: PathBuf,
        visits: u32,
    },
    /// A bot bundle folder; its search settings apply, `visits` overrides its budget.
    Bundle {
        dir: PathBuf,
        visits: Option<u32>,
    },
    /// An external engine speaking GTP v2: the program and its arguments.
    Gtp {
        command: Vec<String>,
    },
}

/// Why a player spec was rejected; the message quotes the spec.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("player `{spec}`: {reason}")]
pub struct SpecError {
    pub spec: String,
    pub reason: String,
}

impl PlayerSpec {
    /// The checkpoint file or bundle folder of a network player, which says its game.
    pub fn file(&self) -> Option<&Path> {
        match self {
            PlayerSpec::Checkpoint { weights, .. } => Some(weights),
            PlayerSpec::Bundle { dir, .. } => Some(dir),
            _ => None,
        }
    }

    /// The program of an external engine that cannot be found: a path that is no file, or a
    /// bare name in no folder of `search_path` (the `PATH` variable's value). `None` for a
    /// player that needs no program or whose program is there.
    pub fn missing_program(&self, search_path: Option<&std::ffi::OsStr>) -> Option<&str> {
        let PlayerSpec::Gtp { command } = self else {
            return None;
        };
        let program = command[0].as_str();
        let found = if program.contains('/') {
            Path::new(program).is_file()
        } else {
            search_path.is_some_and(|folders| {
                std::env::split_paths(folders).any(|folder| folder.join(program).is_file())
            })
        };
        (!found).then_some(program)
    }

    /// The label used in tables, ratings and file names: `random`, `uct:200`,
    /// `gen-0003@64`, `gtp:my-engine`, `gtp:gnugo-level-5` (an engine's `--level`).
    pub fn name(&self) -> String {
        let file_stem = |path: &PathBuf| {
            path.file_stem().map_or_else(
                || path.display().to_string(),
                |s| s.to_string_lossy().into_owned(),
            )
        };
        match self {
            PlayerSpec::Random => "random".to_owned(),
            PlayerSpec::Greedy => "greedy".to_owned(),
            PlayerSpec::Uct { playouts } => format!("uct:{playouts}"),
            PlayerSpec::Expectimax { depth } => format!("expectimax:{depth}"),
            PlayerSpec::Checkpoint { weights, visits } => {
                format!("{}@{visits}", file_stem(weights))
            }
            PlayerSpec::Bundle { dir, visits: None } => file_stem(dir),
            PlayerSpec::Bundle {
                dir,
                visits: Some(visits),
            } => format!("{}@{visits}", file_stem(dir)),
            PlayerSpec::Gtp { command } => {
                let program = PathBuf::from(&command[0]);
                match level_argument(&command[1..]) {
                    Some(level) => format!("gtp:{}-level-{level}", file_stem(&program)),
                    None => format!("gtp:{}", file_stem(&program)),
                }
            }
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let error = |reason: String| SpecError {
            spec: text.to_owned(),
            reason,
        };
        if let Some(command) = text.strip_prefix("gtp:") {
            let command: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
            if command.is_empty() {
                return Err(error("`gtp:` needs the engine's command line".to_owned()));
            }
            return Ok(PlayerSpec::Gtp { command });
        }
        match text {
            "random" => return Ok(PlayerSpec::Random),
            "greedy" => return Ok(PlayerSpec::Greedy),
            _ => {}
        }
        if let Some(count) = text.strip_prefix("uct:") {
            let playouts = positive(count).map_err(|reason| error(format!("playouts {reason}")))?;
            return Ok(PlayerSpec::Uct { playouts });
        }
        if let Some(count) = text.strip_prefix("expectimax:") {
            let depth = positive(count)
                .ok()
                .filter(|&depth| depth <= 6)
                .ok_or_else(|| error(format!("depth must be 1..=6, got `{count}`")))?;
            return Ok(PlayerSpec::Expectimax { depth });
        }
        let (path, visits) = match text.rsplit_once('@') {
            Some((path, visits)) => {
                let visits =
                    positive(visits).map_err(|reason| error(format!("visits {reason}")))?;
                (PathBuf::from(path), Some(visits))
            }
            None => (PathBuf::from(text), None),
        };
        if path.extension().is_some_and(|e| e == "safetensors") {
            if !path.is_file() {
                return Err(error("no such checkpoint file".to_owned()));
            }
            let visits = visits.unwrap_or(DEFAULT_VISITS);
            return Ok(PlayerSpec::Checkpoint {
                weights: path,
                visits,
            });
        }
        if path.is_dir() {
            return Ok(PlayerSpec::Bundle { dir: path, visits });
        }
        Err(error(
            "expected random, greedy, uct:N, expectimax:D, a .safetensors checkpoint, a bot \
             bundle folder \
             (each optionally @visits) or gtp:COMMAND"
                .to_owned(),
        ))
    }
}

/// Parses a count that must be at least 1; the error says what was found.
fn positive(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("must be a whole number >= 1, got `{text}`"))
}

/// The value of a `--level N` (or `--level=N`) argument, which engines such as GNU Go take
/// for their strength: one engine at two levels is two players, with two names.
fn level_argument(arguments: &[String]) -> Option<&str> {
    arguments.iter().enumerate().find_map(|(index, argument)| {
        if argument == "--level" {
            arguments.get(index + 1).map(String::as_str)
        } else {
            argument.strip_prefix("--level=")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<PlayerSpec, String> {
        text.parse::<PlayerSpec>().map_err(|e| e.to_string())
    }

    #[test]
    fn baselines_and_engines_parse() {
        assert_eq!(parse("random"), Ok(PlayerSpec::Random));
        assert_eq!(parse("greedy"), Ok(PlayerSpec::Greedy));
        assert_eq!(parse("uct:200"), Ok(PlayerSpec::Uct { playouts: 200 }));
        assert_eq!(
            parse("expectimax:2"),
            Ok(PlayerSpec::Expectimax { depth: 2 })
        );
        assert_eq!(parse("expectimax:2").unwrap().name(), "expectimax:2");
        assert!(
            parse("expectimax:7")
                .unwrap_err()
                .to_string()
                .contains("depth must be 1..=6")
        );
        assert_eq!(
            parse("gtp:./engine --level 3"),
            Ok(PlayerSpec::Gtp {
                command: vec!["./engine".into(), "--level".into(), "3".into()]
            })
        );
        assert_eq!(parse("uct:200").unwrap().name(), "uct:200");
        assert_eq!(
            parse("gtp:/usr/games/gnugo --mode gtp --level 5")
                .unwrap()
                .name(),
            "gtp:gnugo-level-5"
        );
        assert_eq!(
            parse("gtp:gnugo --level=0").unwrap().name(),
            "gtp:gnugo-level-0"
        );
        assert_eq!(
            parse("gtp:/usr/bin/engine -x").unwrap().name(),
            "gtp:engine"
        );
    }

    #[test]
    fn an_engine_is_missing_when_its_program_is_in_no_folder_of_the_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("engine"), b"").unwrap();
        let path = std::env::join_paths([Path::new("/nonexistent"), dir.path()]).unwrap();
        let found = parse("gtp:engine --level 3").unwrap();
        assert_eq!(found.missing_program(Some(&path)), None);
        assert_eq!(found.missing_program(None), Some("engine"));
        let other = parse("gtp:other-engine").unwrap();
        assert_eq!(other.missing_program(Some(&path)), Some("other-engine"));
        let by_path = format!("gtp:{}", dir.path().join("engine").display());
        assert_eq!(parse(&by_path).unwrap().missing_program(None), None);
        let gone = format!("gtp:{}", dir.path().join("gone").display());
        assert!(parse(&gone).unwrap().missing_program(None).is_some());
        assert_eq!(parse("uct:10").unwrap().missing_program(None), None);
    }

    #[test]
    fn checkpoints_and_bundles_need_to_exist() {
        let dir = tempfile::tempdir().unwrap();
        let weights = dir.path().join("gen-0002.safetensors");
        std::fs::write(&weights, b"").unwrap();
        let spec = parse(&format!("{}@32", weights.display())).unwrap();
        assert_eq!(
            spec,
            PlayerSpec::Checkpoint {
                weights: weights.clone(),
                visits: 32
            }
        );
        assert_eq!(spec.name(), "gen-0002@32");
        let bundle = parse(&dir.path().display().to_string()).unwrap();
        assert!(matches!(bundle, PlayerSpec::Bundle { visits: None, .. }));
        let missing = parse("nowhere/gen-0001.safetensors").unwrap_err();
        assert!(missing.contains("no such checkpoint file"), "{missing}");
    }

    #[test]
    fn bad_specs_say_why() {
        assert_eq!(
            parse("uct:0").unwrap_err(),
            "player `uct:0`: playouts must be a whole number >= 1, got `0`"
        );
        assert!(
            parse("gtp:  ")
                .unwrap_err()
                .contains("needs the engine's command line")
        );
        assert!(
            parse("x.safetensors@many")
                .unwrap_err()
                .contains("visits must be")
        );
        assert!(
            parse("grandmaster")
                .unwrap_err()
                .contains("expected random, greedy")
        );
    }
}
