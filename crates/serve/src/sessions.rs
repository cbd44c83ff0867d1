//! One game per browser: sessions named by a random cookie, bounded in number.
//!
//! A server open to a network must not grow without bound as clients come and go, so the
//! table holds at most its capacity and forgets the least recently used game to make room.
//! Every change to a game bumps its revision, which is how a search that ran without the lock
//! notices that the game moved on meanwhile.

use rand::RngCore;
use std::collections::HashMap;

/// The name of the session cookie.
pub const COOKIE: &str = "ghast_session";

/// The games `S` of all clients, by session id.
#[derive(Debug)]
pub struct Sessions<S> {
    entries: HashMap<String, Entry<S>>,
    capacity: usize,
    /// Counts uses, so that the least recently used entry has the smallest stamp.
    clock: u64,
}

#[derive(Debug)]
struct Entry<S> {
    session: S,
    revision: u64,
    last_used: u64,
}

impl<S> Sessions<S> {
    /// An empty table that holds at most `capacity` (at least 1) games.
    pub fn new(capacity: usize) -> Sessions<S> {
        Sessions {
            entries: HashMap::new(),
            capacity: capacity.max(1),
            clock: 0,
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The id of the session `id` names if it is known, else of a new session made by
    /// `start`; the flag says whether it is new (and so the client must be given its cookie).
    pub fn find_or_start(&mut self, id: Option<&str>, start: impl FnOnce() -> S) -> (String, bool) {
        if let Some(id) = id.filter(|id| self.entries.contains_key(*id)) {
            return (id.to_owned(), false);
        }
        if self.entries.len() >= self.capacity {
            self.evict_least_recently_used();
        }
        let id = new_id();
        self.clock += 1;
        let entry = Entry {
            session: start(),
            revision: 0,
            last_used: self.clock,
        };
        self.entries.insert(id.clone(), entry);
        (id, true)
    }

    /// Reads session `id` and its revision; `None` once it has been forgotten.
    pub fn read<T>(&mut self, id: &str, read: impl FnOnce(&S, u64) -> T) -> Option<T> {
        let entry = self.touch(id)?;
        Some(read(&entry.session, entry.revision))
    }

    /// Changes session `id`, which `change` sees with its revision before the change, and
    /// bumps the revision (also when `change` declines, which costs at most a spurious
    /// conflict); `None` once the session has been forgotten.
    pub fn change<T>(&mut self, id: &str, change: impl FnOnce(&mut S, u64) -> T) -> Option<T> {
        let entry = self.touch(id)?;
        let revision = entry.revision;
        entry.revision += 1;
        Some(change(&mut entry.session, revision))
    }

    fn touch(&mut self, id: &str) -> Option<&mut Entry<S>> {
        self.clock += 1;
        let entry = self.entries.get_mut(id)?;
        entry.last_used = self.clock;
        Some(entry)
    }

    fn evict_least_recently_used(&mut self) {
        let oldest = self
            .entries
            .iter()
            .min_by_key(|(_, entry)| entry.last_used)
            .map(|(id, _)| id.clone());
        if let Some(id) = oldest {
            self.entries.remove(&id);
        }
    }
}

/// 128 random bits from the operating system's generator, as hex: not guessable, so one
/// client cannot play in another's game.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use game::Side;
    use ghast::{Ghast, GhastOptions};

    fn start() -> Session<Ghast> {
        Session::new(&GhastOptions::default(), Side::First, 8, 0)
    }

    #[test]
    fn a_known_id_finds_its_session_and_an_unknown_one_starts_another() {
        let mut sessions = Sessions::new(4);
        let (first, new) = sessions.find_or_start(None, start);
        assert!(new);
        assert_eq!(first.len(), 32);
        assert_eq!(
            sessions.find_or_start(Some(&first), start),
            (first.clone(), false)
        );
        let (second, new) = sessions.find_or_start(Some("forged"), start);
        assert!(new);
        assert_ne!(first, second);
        assert_eq!(sessions.len(), 2);
    }

    #[test]
    fn changes_bump_the_revision_and_reads_do_not() {
        let mut sessions = Sessions::new(4);
        let (id, _) = sessions.find_or_start(None, start);
        assert_eq!(sessions.read(&id, |_, revision| revision), Some(0));
        sessions.change(&id, |session, _| session.undo());
        assert_eq!(sessions.read(&id, |_, revision| revision), Some(1));
        assert_eq!(sessions.read("gone", |_, revision| revision), None);
    }

    #[test]
    fn a_full_table_forgets_the_least_recently_used_game() {
        let mut sessions = Sessions::new(2);
        let (a, _) = sessions.find_or_start(None, start);
        let (b, _) = sessions.find_or_start(None, start);
        sessions.read(&a, |_, _| ());
        let (c, _) = sessions.find_or_start(None, start);
        assert_eq!(sessions.len(), 2);
        assert!(
            sessions.read(&b, |_, _| ()).is_none(),
            "b was used least recently"
        );
        assert!(sessions.read(&a, |_, _| ()).is_some());
        assert!(sessions.read(&c, |_, _| ()).is_some());
    }
}
