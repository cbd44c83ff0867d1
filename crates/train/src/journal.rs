//! Finished games not yet in a stored shard, kept so that a kill loses none of them.
//!
//! Each game is appended as a length-prefixed bincode entry and synced; once a shard is
//! stored, the journal is rewritten without its games. On resume, every complete entry is
//! recovered (a torn last entry, from a kill mid-append, is dropped: that game had not been
//! acknowledged).

use anyhow::{Context, Result};
use replay::GameRecord;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens (creating) the journal at `path` and returns the games it already holds.
    pub fn open(path: &Path) -> Result<(Journal, Vec<GameRecord>)> {
        let (recovered, intact) = match fs::read(path) {
            Ok(bytes) => decode_entries(&bytes),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => (Vec::new(), 0),
            Err(error) => {
                return Err(error).with_context(|| format!("cannot read {}", path.display()));
            }
        };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        // Cut a torn tail so that new entries follow the last intact one.
        file.set_len(intact as u64)?;
        Ok((
            Journal {
                path: path.to_owned(),
                file,
            },
            recovered,
        ))
    }

    pub fn append(&mut self, record: &GameRecord) -> Result<()> {
        self.file.write_all(&entry(record)?)?;
        self.file
            .sync_data()
            .with_context(|| format!("cannot write {}", self.path.display()))
    }

    /// Replaces the journal's games with `records` (those still not safely in a shard),
    /// atomically: a kill midway leaves either the old journal or the new one.
    pub fn rewrite(&mut self, records: &[GameRecord]) -> Result<()> {
        let mut bytes = Vec::new();
        for record in records {
            bytes.extend_from_slice(&entry(record)?);
        }
        durable::write(&self.path, &bytes)
            .with_context(|| format!("cannot rewrite {}", self.path.display()))?;
        self.file = OpenOptions::new()
            .append(true)
            .open(&self.path)
            .with_context(|| format!("cannot open {}", self.path.display()))?;
        Ok(())
    }
}

/// The top two bits of an entry's length word say the replay format of its record: `00`
/// format 2 (written before chance outcomes were marked), `10` format 3 (before handicap
/// games were marked), `11` this build's.
const FORMAT_BITS: u64 = 0b11 << 62;
const FORMAT_3: u64 = 0b10 << 62;
const CURRENT_FORMAT: u64 = 0b11 << 62;

/// The replay format version of an entry with length word `word`.
fn format_of(word: u64) -> u32 {
    match word & FORMAT_BITS {
        CURRENT_FORMAT => replay::FORMAT_VERSION,
        FORMAT_3 => 3,
        _ => 2,
    }
}

/// One length-prefixed journal entry.
fn entry(record: &GameRecord) -> Result<Vec<u8>> {
    let body = replay::encode_record(record)?;
    let mut entry = (body.len() as u64 | CURRENT_FORMAT).to_le_bytes().to_vec();
    entry.extend_from_slice(&body);
    Ok(entry)
}

/// The intact entries at the start of `bytes`, and how many bytes they take.
fn decode_entries(bytes: &[u8]) -> (Vec<GameRecord>, usize) {
    let mut records = Vec::new();
    let mut intact = 0;
    while let Some(header) = bytes.get(intact..intact + 8) {
        let word = u64::from_le_bytes(header.try_into().expect("eight bytes"));
        let len = (word & !FORMAT_BITS) as usize;
        let Some(body) = bytes.get(intact + 8..(intact + 8).saturating_add(len)) else {
            break;
        };
        match replay::decode_record(body, format_of(word)) {
            Ok(record) => records.push(record),
            Err(error) => {
                tracing::warn!(
                    "journal entry {} is damaged ({error}); dropping the rest",
                    records.len() + 1
                );
                break;
            }
        }
        intact += 8 + len;
    }
    (records, intact)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use game::{Outcome, Side};
    use replay::MoveRecord;

    /// A game of `moves` moves, for tests.
    pub(crate) fn record(moves: u32) -> GameRecord {
        GameRecord {
            generation: 1,
            moves: (0..moves)
                .map(|action| MoveRecord {
                    action,
                    policy: vec![(action, 3)],
                    root_value: 0.5,
                    full_search: true,
                    surprise: 0.0,
                    chance: false,
                })
                .collect(),
            outcome: Outcome::Win(Side::First),
            end_reason: "margin".into(),
            final_position: "3/4/5/4/3 o 1".into(),
            resign_playthrough: None,
            handicap: None,
        }
    }

    /// A journal left by builds before chance outcomes (format 2) and handicap games (format
    /// 3) were marked keeps its games.
    #[test]
    fn entries_of_the_previous_formats_are_recovered() {
        let game = record(3);
        let mut bytes = Vec::new();
        for (body, format) in [
            (replay::encode_record_v2(&game), 0),
            (replay::encode_record_v3(&game), FORMAT_3),
        ] {
            bytes.extend_from_slice(&(body.len() as u64 | format).to_le_bytes());
            bytes.extend_from_slice(&body);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.bin");
        fs::write(&path, &bytes).unwrap();
        let (mut journal, recovered) = Journal::open(&path).unwrap();
        assert_eq!(recovered, vec![game.clone(), game.clone()]);
        let mut handicapped = record(1);
        handicapped.handicap = Some(replay::Handicapped {
            side: Side::First,
            random_decisions: 0.25,
        });
        journal.append(&handicapped).unwrap();
        drop(journal);
        let (_, recovered) = Journal::open(&path).unwrap();
        assert_eq!(
            recovered,
            vec![game.clone(), game, handicapped],
            "old and new entries side by side"
        );
    }

    #[test]
    fn complete_entries_survive_and_a_torn_one_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.bin");
        let (mut journal, recovered) = Journal::open(&path).unwrap();
        assert!(recovered.is_empty());
        journal.append(&record(2)).unwrap();
        journal.append(&record(5)).unwrap();
        drop(journal);
        let length = fs::metadata(&path).unwrap().len();
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(length - 3).unwrap();
        let (mut journal, recovered) = Journal::open(&path).unwrap();
        assert_eq!(recovered, vec![record(2)]);
        journal.append(&record(1)).unwrap();
        drop(journal);
        let (mut journal, recovered) = Journal::open(&path).unwrap();
        assert_eq!(
            recovered,
            vec![record(2), record(1)],
            "appends follow the intact entries"
        );
        journal.rewrite(&[record(1)]).unwrap();
        journal.append(&record(3)).unwrap();
        drop(journal);
        let (mut journal, recovered) = Journal::open(&path).unwrap();
        assert_eq!(
            recovered,
            vec![record(1), record(3)],
            "rewritten, then appended"
        );
        journal.rewrite(&[]).unwrap();
        let (_, recovered) = Journal::open(&path).unwrap();
        assert!(recovered.is_empty());
    }
}
