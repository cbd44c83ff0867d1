//! The object-store backend of [`ShardStore`]: any S3-compatible service, Google Cloud
//! Storage or Azure Blob Storage, through a [`storage::Bucket`]. A shard goes up in one PUT,
//! which object stores make visible whole or not at all.

use crate::{ReplayError, ShardName, ShardStore};
use storage::Bucket;

/// Shards as objects under one prefix of a bucket.
#[derive(Debug)]
pub struct ObjectShardStore {
    bucket: Bucket,
}

impl ObjectShardStore {
    /// Opens the store at `url` (`s3://bucket/prefix`, `gs://...`, `az://...`), configured
    /// from the usual environment variables (see [`Bucket::open`]). Nothing is contacted until
    /// the first request.
    pub fn open(url: &str) -> Result<Self, ReplayError> {
        Ok(ObjectShardStore {
            bucket: Bucket::open(url)?,
        })
    }

    /// Opens the store at `url` with `options` given as the environment would give them
    /// (`AWS_ENDPOINT`, ...), instead of the process environment.
    pub fn open_with(
        url: &str,
        options: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, ReplayError> {
        Ok(ObjectShardStore {
            bucket: Bucket::open_with(url, options)?,
        })
    }
}

impl ShardStore for ObjectShardStore {
    fn list(&self) -> Result<Vec<ShardName>, ReplayError> {
        Ok(self
            .bucket
            .list("")?
            .iter()
            .filter_map(|name| ShardName::parse(name))
            .collect())
    }

    fn get(&self, name: &ShardName) -> Result<Vec<u8>, ReplayError> {
        Ok(self.bucket.get(&name.to_string())?)
    }

    fn put(&self, name: &ShardName, bytes: &[u8]) -> Result<(), ReplayError> {
        Ok(self.bucket.put(&name.to_string(), bytes)?)
    }

    fn delete(&self, name: &ShardName) -> Result<(), ReplayError> {
        Ok(self.bucket.delete(&name.to_string())?)
    }

    fn locate(&self, name: &ShardName) -> String {
        self.bucket.locate(&name.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::open_store;
    use crate::test_support::numbered_shard;

    /// The object-store client over its local-filesystem backend: the same code path as a
    /// bucket, short of the network.
    fn store_in(dir: &std::path::Path) -> ObjectShardStore {
        ObjectShardStore::open(&format!("file://{}/shards", dir.display())).unwrap()
    }

    #[test]
    fn shards_round_trip_and_listing_skips_other_keys() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_in(dir.path());
        assert_eq!(store.list().unwrap(), [], "an empty prefix lists nothing");
        let shard = numbered_shard(1_000, 0, 10);
        let name = store.write_shard(&shard).unwrap();
        let shards = dir.path().join("shards");
        std::fs::write(shards.join("notes.txt"), b"hello").unwrap();
        std::fs::create_dir_all(shards.join("deeper")).unwrap();
        std::fs::write(shards.join("deeper").join(name.to_string()), b"x").unwrap();
        assert_eq!(store.list().unwrap(), [name]);
        assert_eq!(store.read_shard(&name).unwrap(), shard);
        assert!(store.locate(&name).ends_with(&format!("/shards/{name}")));
        store.delete(&name).unwrap();
        store.delete(&name).unwrap();
        assert_eq!(store.list().unwrap(), []);
        let error = store.get(&name).unwrap_err().to_string();
        assert!(
            error.contains(&name.to_string()) && error.ends_with("not found"),
            "{error}"
        );
    }

    #[test]
    fn locations_choose_the_backend_and_unknown_schemes_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        let store = open_store(plain.to_str().unwrap()).unwrap();
        let name = store.write_shard(&numbered_shard(1_000, 0, 3)).unwrap();
        assert!(plain.join(name.to_string()).is_file());
        let url = format!("file://{}", plain.display());
        assert_eq!(open_store(&url).unwrap().list().unwrap(), [name]);
        let Err(error) = open_store("ftp://host/shards") else {
            panic!("ftp:// opened");
        };
        let error = error.to_string();
        assert!(error.contains("`ftp://` is not a store"), "{error}");
        assert!(
            open_store("s3://bucket/run/shards").is_ok(),
            "opening contacts nothing"
        );
    }

    /// A store in a fresh prefix of a real S3 server on loopback.
    fn s3_store(server: &loopback_s3::LoopbackS3, prefix: &str) -> ObjectShardStore {
        ObjectShardStore::open_with(&server.url(prefix), server.env()).unwrap()
    }

    #[test]
    fn shards_round_trip_through_a_real_s3_server() {
        let server = loopback_s3::LoopbackS3::start();
        let store = s3_store(&server, "run/shards");
        assert_eq!(store.list().unwrap(), [], "{}", server.log());
        let shard = numbered_shard(1_000, 0, 10);
        let name = store.write_shard(&shard).unwrap();
        let other = s3_store(&server, "other-run/shards");
        other.write_shard(&numbered_shard(2_000, 0, 3)).unwrap();
        assert_eq!(
            store.list().unwrap(),
            [name],
            "another prefix is another store"
        );
        assert_eq!(store.read_shard(&name).unwrap(), shard);
        assert_eq!(
            store.locate(&name),
            format!("s3://{}/run/shards/{name}", loopback_s3::BUCKET)
        );
        store.delete(&name).unwrap();
        store.delete(&name).unwrap();
        assert_eq!(store.list().unwrap(), []);
        let error = store.get(&name).unwrap_err().to_string();
        assert!(error.contains(&store.locate(&name)), "{error}");
    }

    #[test]
    fn listing_goes_past_one_page_of_an_s3_listing() {
        // S3 lists at most 1,000 keys per request.
        let server = loopback_s3::LoopbackS3::start();
        let store = s3_store(&server, "shards");
        let mut written: Vec<ShardName> = (0..1_050u64)
            .map(|i| store.write_shard(&numbered_shard(1_000 + i, 0, 1)).unwrap())
            .collect();
        let mut listed = store.list().unwrap();
        written.sort();
        listed.sort();
        assert_eq!(listed.len(), 1_050);
        assert_eq!(listed, written);
    }

    #[test]
    fn a_store_that_is_down_says_so_within_seconds_and_works_when_back() {
        let mut server = loopback_s3::LoopbackS3::start();
        let store = s3_store(&server, "shards");
        let before = store.write_shard(&numbered_shard(1_000, 0, 5)).unwrap();
        server.stop();
        let shard = numbered_shard(2_000, 0, 5);
        let started = std::time::Instant::now();
        let error = store.write_shard(&shard).unwrap_err().to_string();
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
        assert!(error.contains("s3://ghast-test/shards/shard-"), "{error}");
        server.resume();
        let during = store.write_shard(&shard).unwrap();
        let mut listed = store.list().unwrap();
        listed.sort();
        assert_eq!(listed, [before, during]);
        assert_eq!(store.read_shard(&during).unwrap(), shard);
    }
}
