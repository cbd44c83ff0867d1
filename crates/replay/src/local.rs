//! The local-directory backend of [`ShardStore`] (also serves NFS mounts).

use crate::{ReplayError, ShardName, ShardStore};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Shards as files in one directory.
#[derive(Clone, Debug)]
pub struct LocalDirStore {
    dir: PathBuf,
}

impl LocalDirStore {
    /// A store in `dir`, created if missing.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self, ReplayError> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(|source| ReplayError::Io {
            file: dir.display().to_string(),
            action: "create the replay directory",
            source,
        })?;
        Ok(Self { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, name: &ShardName) -> PathBuf {
        self.dir.join(name.to_string())
    }

    fn io_error(
        &self,
        name: &ShardName,
        action: &'static str,
    ) -> impl FnOnce(io::Error) -> ReplayError {
        let file = self.locate(name);
        move |source| ReplayError::Io {
            file,
            action,
            source,
        }
    }
}

impl ShardStore for LocalDirStore {
    fn list(&self) -> Result<Vec<ShardName>, ReplayError> {
        let io_error = |source| ReplayError::Io {
            file: self.dir.display().to_string(),
            action: "list the replay directory",
            source,
        };
        let mut names = Vec::new();
        for entry in fs::read_dir(&self.dir).map_err(io_error)? {
            let entry = entry.map_err(io_error)?;
            if let Some(name) = entry.file_name().to_str().and_then(ShardName::parse) {
                names.push(name);
            }
        }
        Ok(names)
    }

    fn get(&self, name: &ShardName) -> Result<Vec<u8>, ReplayError> {
        fs::read(self.path(name)).map_err(self.io_error(name, "read"))
    }

    fn put(&self, name: &ShardName, bytes: &[u8]) -> Result<(), ReplayError> {
        // The temporary name starts with a dot, which never parses as a shard name.
        durable::write(&self.path(name), bytes).map_err(self.io_error(name, "write"))
    }

    fn delete(&self, name: &ShardName) -> Result<(), ReplayError> {
        durable::remove(&self.path(name)).map_err(self.io_error(name, "delete"))
    }

    fn locate(&self, name: &ShardName) -> String {
        self.path(name).display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::numbered_shard;

    #[test]
    fn shards_round_trip_and_listing_ignores_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalDirStore::open(dir.path().join("replay")).unwrap();
        let shard = numbered_shard(1_000, 0, 10);
        let name = store.write_shard(&shard).unwrap();
        // What a writer killed before its rename leaves behind, and an unrelated file.
        fs::write(store.dir().join(format!(".{name}.x1y2.tmp")), b"GHASTRPL").unwrap();
        fs::write(store.dir().join("notes.txt"), b"hello").unwrap();
        assert_eq!(store.list().unwrap(), [name]);
        assert_eq!(name.positions, 10);
        assert_eq!(store.read_shard(&name).unwrap(), shard);
    }

    #[test]
    fn a_shard_under_a_false_name_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalDirStore::open(dir.path()).unwrap();
        let name = store.write_shard(&numbered_shard(1_000, 0, 10)).unwrap();
        let liar = ShardName {
            positions: 99,
            ..name
        };
        fs::rename(store.path(&name), store.path(&liar)).unwrap();
        let err = store.read_shard(&liar).unwrap_err();
        assert!(matches!(err, ReplayError::NameMismatch { .. }), "{err}");
        assert!(err.to_string().contains(&liar.to_string()), "{err}");
    }

    #[test]
    fn a_missing_shard_is_an_error_naming_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalDirStore::open(dir.path()).unwrap();
        let name = numbered_shard(1_000, 0, 10).name();
        let err = store.read_shard(&name).unwrap_err();
        assert!(err.to_string().starts_with(&store.locate(&name)), "{err}");
    }
}
