//! Bytes by key under one URL: a local folder, any S3-compatible service, Google Cloud
//! Storage or Azure Blob Storage, through Apache Arrow's `object_store` client.
//!
//! Everything that a run shares between machines (replay shards, checkpoints, the `latest`
//! pointer, the config) goes through a [`Bucket`]. A put is one request that readers see whole
//! or not at all, on every backend (the local one writes a temporary file and renames it).
//! Requests retry briefly (see [`retry_config`]): a store that is down reaches the caller
//! within seconds, and the caller, who holds the data, decides how long to keep trying.

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
use thiserror::Error;
use tokio::runtime::Runtime;

/// The URL schemes of the object stores, for messages.
pub const OBJECT_SCHEMES: &str = "s3://, gs://, az:// or abfs://";

/// Why a request failed; every message starts with the key's full location.
#[derive(Debug, Error)]
pub enum StorageError {
    #[error("{location}: cannot {action}: {source}")]
    Request {
        location: String,
        action: &'static str,
        source: object_store::Error,
    },
    #[error("{location}: not found")]
    NotFound { location: String },
    #[error("store {url}: {detail}")]
    Config { url: String, detail: String },
}

/// The objects under one prefix of a store, addressed by keys relative to it
/// (`models/latest`).
#[derive(Debug)]
pub struct Bucket {
    store: Box<dyn ObjectStore>,
    prefix: Path,
    /// The URL the bucket was opened with, without a trailing slash, for messages.
    url: String,
    /// `object_store` is async; a bucket is called from plain threads, so it drives its
    /// requests on a small runtime of its own.
    runtime: Runtime,
}

impl Bucket {
    /// Opens the bucket at `location`: a plain path or `file://` URL (a local folder, created
    /// if missing; it also serves NFS), or `s3://bucket/prefix`, `gs://...`, `az://...`
    /// configured from the usual environment variables (`AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, and `AWS_ENDPOINT` with `AWS_ALLOW_HTTP=true`
    /// for a self-hosted S3 service such as MinIO, Garage or Ceph; `GOOGLE_SERVICE_ACCOUNT`;
    /// `AZURE_STORAGE_ACCOUNT_NAME`, ...). Nothing is contacted until the first request.
    pub fn open(location: &str) -> Result<Self, StorageError> {
        let environment = std::env::vars().filter(|(key, _)| {
            key.starts_with("AWS_") || key.starts_with("GOOGLE_") || key.starts_with("AZURE_")
        });
        Self::open_with(location, environment)
    }

    /// Opens the bucket at `location` with `options` given as the environment would give them
    /// (`AWS_ENDPOINT`, ...), instead of the process environment.
    pub fn open_with(
        location: &str,
        options: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, StorageError> {
        let config_error = |detail: String| StorageError::Config {
            url: location.to_owned(),
            detail,
        };
        let url = to_url(location).map_err(config_error)?;
        let (store, prefix) =
            build_store(&url, options).map_err(|e| config_error(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("object-store")
            .enable_all()
            .build()
            .map_err(|e| config_error(format!("cannot start the client's threads: {e}")))?;
        Ok(Bucket {
            store,
            prefix,
            url: location.trim_end_matches('/').to_owned(),
            runtime,
        })
    }

    /// Where `key` lives: its URL, which also opens the bucket under it (`run` →
    /// `run/shards`).
    pub fn locate(&self, key: &str) -> String {
        format!("{}/{key}", self.url)
    }

    /// The names of the objects right under `folder` (`""` for the bucket's own prefix), in
    /// any order; deeper keys are left out.
    pub fn list(&self, folder: &str) -> Result<Vec<String>, StorageError> {
        let prefix = self.path(folder);
        let location = if folder.is_empty() {
            self.url.clone()
        } else {
            self.locate(folder)
        };
        let objects = self.run(location, "list", async {
            self.store.list(Some(&prefix)).try_collect::<Vec<_>>().await
        })?;
        let depth = prefix.parts().count() + 1;
        Ok(objects
            .into_iter()
            .filter(|object| object.location.parts().count() == depth)
            .filter_map(|object| object.location.filename().map(str::to_owned))
            .collect())
    }

    /// The bytes of `key`; [`StorageError::NotFound`] when there is no such object.
    pub fn get(&self, key: &str) -> Result<Vec<u8>, StorageError> {
        let path = self.path(key);
        let bytes = self.run(self.locate(key), "read", async {
            self.store.get(&path).await?.bytes().await
        });
        match bytes {
            Ok(bytes) => Ok(bytes.to_vec()),
            Err(StorageError::Request {
                location,
                source: object_store::Error::NotFound { .. },
                ..
            }) => Err(StorageError::NotFound { location }),
            Err(error) => Err(error),
        }
    }

    /// The bytes of `key`, or `None` when there is no such object.
    pub fn get_if_present(&self, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        match self.get(key) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(StorageError::NotFound { .. }) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Stores `bytes` under `key` in one request: readers see the old object or the new one.
    pub fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StorageError> {
        let path = self.path(key);
        let payload = PutPayload::from(bytes.to_vec());
        self.run(self.locate(key), "write", async {
            self.store.put(&path, payload).await.map(|_| ())
        })
    }

    /// Removes `key`; an object already gone is no error, so a clean-up can be repeated.
    pub fn delete(&self, key: &str) -> Result<(), StorageError> {
        let path = self.path(key);
        self.run(self.locate(key), "delete", async {
            match self.store.delete(&path).await {
                Err(object_store::Error::NotFound { .. }) => Ok(()),
                done => done,
            }
        })
    }

    fn path(&self, key: &str) -> Path {
        key.split('/')
            .filter(|part| !part.is_empty())
            .fold(self.prefix.clone(), |path, part| path.join(part))
    }

    fn run<T>(
        &self,
        location: String,
        action: &'static str,
        request: impl Future<Output = object_store::Result<T>>,
    ) -> Result<T, StorageError> {
        self.runtime
            .block_on(request)
            .map_err(|source| StorageError::Request {
                location,
                action,
                source,
            })
    }
}

/// `location` as a URL: plain paths become `file://` URLs of the (created) folder.
fn to_url(location: &str) -> Result<url::Url, String> {
    match location.split_once("://") {
        None | Some(("file", _)) => {
            let path = location.strip_prefix("file://").unwrap_or(location);
            std::fs::create_dir_all(path).map_err(|e| format!("cannot create the folder: {e}"))?;
            let absolute = std::fs::canonicalize(path)
                .map_err(|e| format!("cannot resolve the folder: {e}"))?;
            url::Url::from_directory_path(&absolute)
                .map_err(|()| format!("{} is not a usable folder", absolute.display()))
        }
        Some(("s3" | "s3a" | "gs" | "az" | "azure" | "abfs" | "abfss", _)) => {
            url::Url::parse(location).map_err(|e| e.to_string())
        }
        Some((scheme, _)) => Err(format!(
            "`{scheme}://` is not a store this build reaches: give a path, a file:// URL, \
             or {OBJECT_SCHEMES}"
        )),
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
    // `object_store` reads lower-case option names; the environment spells them upper case.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(bucket: &Bucket) {
        assert_eq!(bucket.list("models").unwrap(), Vec::<String>::new());
        assert_eq!(bucket.get_if_present("models/latest").unwrap(), None);
        bucket.put("models/latest", b"3").unwrap();
        bucket.put("models/gen-0003.json", b"{}").unwrap();
        bucket.put("models/deeper/x", b"x").unwrap();
        bucket.put("config.toml", b"[run]").unwrap();
        let mut listed = bucket.list("models").unwrap();
        listed.sort();
        assert_eq!(listed, ["gen-0003.json", "latest"]);
        assert_eq!(bucket.list("").unwrap(), ["config.toml"]);
        assert_eq!(bucket.get("models/latest").unwrap(), b"3");
        bucket.put("models/latest", b"4").unwrap();
        assert_eq!(bucket.get("models/latest").unwrap(), b"4");
        bucket.delete("models/latest").unwrap();
        bucket.delete("models/latest").unwrap();
        let error = bucket.get("models/latest").unwrap_err().to_string();
        assert_eq!(
            error,
            format!("{}: not found", bucket.locate("models/latest"))
        );
    }

    #[test]
    fn keys_round_trip_in_a_local_folder_given_as_a_path_or_url() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run");
        round_trip(&Bucket::open(path.to_str().unwrap()).unwrap());
        assert!(path.join("config.toml").is_file());
        let url = format!("file://{}", path.display());
        assert_eq!(
            Bucket::open(&url).unwrap().get("config.toml").unwrap(),
            b"[run]"
        );
    }

    #[test]
    fn keys_round_trip_through_a_real_s3_server() {
        let server = loopback_s3::LoopbackS3::start();
        let bucket = Bucket::open_with(&server.url("run"), server.env()).unwrap();
        round_trip(&bucket);
        assert_eq!(
            bucket.locate("config.toml"),
            format!("s3://{}/run/config.toml", loopback_s3::BUCKET)
        );
    }

    #[test]
    fn unknown_schemes_are_named() {
        let error = Bucket::open("ftp://host/run").unwrap_err().to_string();
        assert!(error.contains("`ftp://` is not a store"), "{error}");
        assert!(
            Bucket::open("s3://bucket/run").is_ok(),
            "opening contacts nothing"
        );
    }
}
