//! Where shards live, behind one interface so self-play on many machines can share a store.

use crate::{
    LocalDirStore, ObjectShardStore, ReplayError, Shard, ShardName, decode_shard, encode_shard,
};

/// A flat collection of immutable shards addressed by [`ShardName`].
///
/// Backends only move bytes (a local directory now; an S3-compatible bucket or NFS later):
/// the format, the name checks and the window live above them and stay the same. The trait
/// speaks in names, never paths, and asks nothing an object store cannot do cheaply: one
/// listing, whole-object reads, and whole-object writes that appear atomically.
pub trait ShardStore: Send + Sync {
    /// The names of all complete shards, in any order. Entries that are not shard names
    /// (temporary files of writers in progress or killed, foreign files) are left out.
    fn list(&self) -> Result<Vec<ShardName>, ReplayError>;

    /// The bytes of one shard.
    fn get(&self, name: &ShardName) -> Result<Vec<u8>, ReplayError>;

    /// Stores `bytes` under `name` so that readers see either nothing or all of it, never a
    /// partial shard, even if the writer is killed midway.
    fn put(&self, name: &ShardName, bytes: &[u8]) -> Result<(), ReplayError>;

    /// Removes shard `name` for good; a shard already gone is no error, so an interrupted
    /// clean-up can be repeated.
    fn delete(&self, name: &ShardName) -> Result<(), ReplayError>;

    /// Where `name` lives (a path, a URL), for error messages and logs.
    fn locate(&self, name: &ShardName) -> String;

    /// Reads and decodes a shard, checking that it is the shard its name promises (listing
    /// trusts names for creation order and position counts).
    fn read_shard(&self, name: &ShardName) -> Result<Shard, ReplayError> {
        let file = self.locate(name);
        let shard = decode_shard(&file, &self.get(name)?)?;
        let actual = shard.name();
        if actual != *name {
            return Err(ReplayError::NameMismatch {
                file,
                actual: actual.to_string(),
            });
        }
        Ok(shard)
    }

    /// Encodes and stores a shard under the name derived from its content.
    fn write_shard(&self, shard: &Shard) -> Result<ShardName, ReplayError> {
        let name = shard.name();
        self.put(&name, &encode_shard(shard)?)?;
        Ok(name)
    }
}

/// A boxed store is a store, so a run can hold whichever backend its location names.
impl<S: ShardStore + ?Sized> ShardStore for Box<S> {
    fn list(&self) -> Result<Vec<ShardName>, ReplayError> {
        (**self).list()
    }

    fn get(&self, name: &ShardName) -> Result<Vec<u8>, ReplayError> {
        (**self).get(name)
    }

    fn put(&self, name: &ShardName, bytes: &[u8]) -> Result<(), ReplayError> {
        (**self).put(name, bytes)
    }

    fn delete(&self, name: &ShardName) -> Result<(), ReplayError> {
        (**self).delete(name)
    }

    fn locate(&self, name: &ShardName) -> String {
        (**self).locate(name)
    }
}

/// Opens the store at `location`: a plain path or a `file://` URL is a local directory
/// (created if missing; it also serves NFS), `s3://`, `gs://`, `az://` or `abfs://` an object
/// store (see [`ObjectShardStore::open`]).
pub fn open_store(location: &str) -> Result<Box<dyn ShardStore>, ReplayError> {
    match location.split_once("://") {
        None => Ok(Box::new(LocalDirStore::open(location)?)),
        Some(("file", path)) => Ok(Box::new(LocalDirStore::open(path)?)),
        Some(_) => Ok(Box::new(ObjectShardStore::open(location)?)),
    }
}
