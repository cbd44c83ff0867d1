//! The object-store backend of [`ShardStore`]: any S3-compatible service, Google Cloud
//! Storage or Azure Blob Storage, through Apache Arrow's `object_store` client, which also
//! retries failed requests with backoff, briefly (see [`retry_config`]). A shard goes up in one PUT, which object stores make
//! visible whole or not at all.

use crate::{ReplayError, ShardName, ShardStore};
use futures::TryStreamExt;
use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::path::Path;
use object_store::{
    BackoffConfig, ObjectStore, ObjectStoreExt, ObjectStoreScheme, PutPayload, RetryConfig,
};
use std::future::Future;
use std::time::Duration;
use tokio::runtime::Runtime;

/// Shards as objects under one prefix of a bucket.
#[derive(Debug)]
pub struct ObjectShardStore {
    store: Box<dyn ObjectStore>,
    prefix: Path,
    /// The URL the store was opened with, for messages.
    url: String,
    /// `object_store` is async; this store is called from plain threads, so it drives its
    /// requests on a small runtime of its own.
    runtime: Runtime,
}

/// The schemes [`ObjectShardStore::open`] knows, for messages.
pub const OBJECT_SCHEMES: &str = "s3://, gs://, az:// or abfs://";

impl ObjectShardStore {
    /// Opens the store at `url` (`s3://bucket/prefix`, `gs://...`, `az://...`), configured
    /// from the usual environment variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_REGION`, and `AWS_ENDPOINT` with `AWS_ALLOW_HTTP=true` for a self-hosted S3 service
    /// such as MinIO, Garage or Ceph; `GOOGLE_SERVICE_ACCOUNT`; `AZURE_STORAGE_ACCOUNT_NAME`,
    /// ...). Nothing is contacted until the first request.
    pub fn open(url: &str) -> Result<Self, ReplayError> {
        let environment = std::env::vars().filter(|(key, _)| {
            key.starts_with("AWS_") || key.starts_with("GOOGLE_") || key.starts_with("AZURE_")
        });
        Self::open_with(url, environment)
    }

    /// Opens the store at `url` with `options` given as the environment would give them
    /// (`AWS_ENDPOINT`, ...), instead of the process environment.
    pub fn open_with(
        url: &str,
        options: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, ReplayError> {
        let config_error = |detail: String| ReplayError::StoreConfig {
            url: url.to_owned(),
            detail,
        };
        let parsed = url::Url::parse(url).map_err(|e| config_error(e.to_string()))?;
        // `object_store` reads lower-case option names; the environment spells them upper case.
        let (store, prefix) =
            build_store(&parsed, options).map_err(|e| config_error(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("object-store")
            .enable_all()
            .build()
            .map_err(|e| config_error(format!("cannot start the client's threads: {e}")))?;
        Ok(ObjectShardStore {
            store,
            prefix,
            url: url.trim_end_matches('/').to_owned(),
            runtime,
        })
    }

    fn path(&self, name: &ShardName) -> Path {
        self.prefix.clone().join(name.to_string())
    }

    fn run<T>(
        &self,
        file: String,
        action: &'static str,
        request: impl Future<Output = object_store::Result<T>>,
    ) -> Result<T, ReplayError> {
        self.runtime
            .block_on(request)
            .map_err(|source| ReplayError::Store {
                file,
                action,
                source,
            })
    }
}

/// How long one request keeps retrying: briefly, so that a store that is down reaches the
/// caller (who keeps its data and retries with its own backoff, saying so) within seconds
/// rather than after the client's default three minutes.
fn retry_config() -> RetryConfig {
    RetryConfig {
        backoff: BackoffConfig::default(),
        max_retries: 3,
        retry_timeout: Duration::from_secs(20),
    }
}

/// The client for `url`, configured by `options` (environment-style names, any case): what
/// `object_store::parse_url_opts` makes, with [`retry_config`] for the network stores.
fn build_store(
    url: &url::Url,
    options: impl IntoIterator<Item = (String, String)>,
) -> object_store::Result<(Box<dyn ObjectStore>, Path)> {
    let (scheme, path) = ObjectStoreScheme::parse(url)?;
    let path = Path::parse(path)?;
    let options: Vec<(String, String)> = options
        .into_iter()
        .map(|(key, value)| (key.to_ascii_lowercase(), value))
        .collect();
    macro_rules! configured {
        ($builder:ty) => {{
            let builder = options.into_iter().fold(
                <$builder>::new().with_url(url.to_string()),
                |builder, (key, value)| match key.parse() {
                    Ok(key) => builder.with_config(key, value),
                    Err(_) => builder,
                },
            );
            Box::new(builder.with_retry(retry_config()).build()?) as Box<dyn ObjectStore>
        }};
    }
    let store = match scheme {
        ObjectStoreScheme::AmazonS3 => configured!(AmazonS3Builder),
        ObjectStoreScheme::GoogleCloudStorage => configured!(GoogleCloudStorageBuilder),
        ObjectStoreScheme::MicrosoftAzure => configured!(MicrosoftAzureBuilder),
        _ => return object_store::parse_url_opts(url, options),
    };
    Ok((store, path))
}

impl ShardStore for ObjectShardStore {
    fn list(&self) -> Result<Vec<ShardName>, ReplayError> {
        let objects = self.run(self.url.clone(), "list the shards", async {
            self.store
                .list(Some(&self.prefix))
                .try_collect::<Vec<_>>()
                .await
        })?;
        // Only objects right under the prefix: a deeper key is another store's business.
        let depth = self.prefix.parts().count() + 1;
        Ok(objects
            .into_iter()
            .filter(|object| object.location.parts().count() == depth)
            .filter_map(|object| object.location.filename().and_then(ShardName::parse))
            .collect())
    }

    fn get(&self, name: &ShardName) -> Result<Vec<u8>, ReplayError> {
        let path = self.path(name);
        let bytes = self.run(self.locate(name), "read", async {
            self.store.get(&path).await?.bytes().await
        })?;
        Ok(bytes.to_vec())
    }

    fn put(&self, name: &ShardName, bytes: &[u8]) -> Result<(), ReplayError> {
        let path = self.path(name);
        let payload = PutPayload::from(bytes.to_vec());
        self.run(self.locate(name), "write", async {
            self.store.put(&path, payload).await.map(|_| ())
        })
    }

    fn delete(&self, name: &ShardName) -> Result<(), ReplayError> {
        let path = self.path(name);
        self.run(self.locate(name), "delete", async {
            match self.store.delete(&path).await {
                Err(object_store::Error::NotFound { .. }) => Ok(()),
                done => done,
            }
        })
    }

    fn locate(&self, name: &ShardName) -> String {
        format!("{}/{name}", self.url)
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
            error.contains(&name.to_string()) && error.contains("cannot read"),
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
