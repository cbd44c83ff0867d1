//! A real S3-compatible object store for tests: a single-node Garage server on loopback, in a
//! temporary folder, with one bucket and one access key.
//!
//! Tests of the many-machine pipeline talk to it exactly as a user's workers talk to MinIO,
//! Garage or Amazon S3: over HTTP, with signed requests, through the same client. The server
//! is the binary `scripts/setup-s3.sh` installs (`.tools/garage/bin/garage`, or the path in
//! `GARAGE_BINARY`). It can be stopped and started again on the same data and port, which is
//! how tests take the store away and bring it back.

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The bucket every server holds.
pub const BUCKET: &str = "ghast-test";
/// The region Garage answers to.
pub const REGION: &str = "garage";
const ACCESS_KEY: &str = "GKloopback0123456789abcdef";
const SECRET_KEY: &str = "loopback-secret-0123456789abcdef0123456789abcdef";
const RPC_SECRET: &str = "6c6f6f706261636b2d7270632d7365637265742d666f722d74657374732d3031";
/// How long a server may take to answer after it is started.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A running (or stopped) Garage server; killed when dropped.
pub struct LoopbackS3 {
    dir: tempfile::TempDir,
    s3_port: u16,
    rpc_port: u16,
    child: Option<Child>,
}

impl LoopbackS3 {
    /// Starts a fresh server and waits until its S3 port accepts connections.
    ///
    /// # Panics
    /// If Garage is not installed (the message says how to install it) or does not start.
    pub fn start() -> LoopbackS3 {
        let dir = tempfile::tempdir().expect("a temporary folder for Garage");
        let mut server = LoopbackS3 {
            dir,
            s3_port: free_port(),
            rpc_port: free_port(),
            child: None,
        };
        server.write_config();
        server.resume();
        server
    }

    /// The store URL of `prefix` in the bucket, as `ghast` takes it.
    pub fn url(&self, prefix: &str) -> String {
        format!("s3://{BUCKET}/{prefix}")
    }

    /// The environment a client needs to reach this server: the endpoint and the credentials,
    /// under the names every AWS client reads.
    pub fn env(&self) -> Vec<(String, String)> {
        [
            ("AWS_ENDPOINT", self.endpoint()),
            ("AWS_ALLOW_HTTP", "true".to_owned()),
            ("AWS_REGION", REGION.to_owned()),
            ("AWS_ACCESS_KEY_ID", ACCESS_KEY.to_owned()),
            ("AWS_SECRET_ACCESS_KEY", SECRET_KEY.to_owned()),
        ]
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect()
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.s3_port)
    }

    /// Kills the server: requests fail until [`LoopbackS3::resume`].
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same data and port (or for the first time).
    pub fn resume(&mut self) {
        assert!(self.child.is_none(), "the server is already running");
        let log = std::fs::File::create(self.dir.path().join("garage.log")).expect("a log file");
        let child = Command::new(garage_binary())
            .arg("-c")
            .arg(self.dir.path().join("garage.toml"))
            .args(["server", "--single-node", "--default-bucket"])
            .env("GARAGE_RPC_SECRET", RPC_SECRET)
            .env("GARAGE_DEFAULT_ACCESS_KEY", ACCESS_KEY)
            .env("GARAGE_DEFAULT_SECRET_KEY", SECRET_KEY)
            .env("GARAGE_DEFAULT_BUCKET", BUCKET)
            .env("RUST_LOG", "garage=warn")
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("a log file"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", garage_binary().display()));
        self.child = Some(child);
        self.wait_until_ready();
    }

    fn wait_until_ready(&mut self) {
        let address = SocketAddr::from(([127, 0, 0, 1], self.s3_port));
        let started = Instant::now();
        loop {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                panic!("Garage exited with {status} at start:\n{}", self.log());
            }
            // The S3 port opens once the layout, the key and the bucket exist.
            if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
                return;
            }
            if started.elapsed() > START_TIMEOUT {
                panic!(
                    "Garage did not open {address} within {START_TIMEOUT:?}:\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The server's own log, for failure messages.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("garage.log")).unwrap_or_default()
    }

    fn write_config(&self) {
        let dir = self.dir.path();
        let mut config =
            std::fs::File::create(dir.join("garage.toml")).expect("Garage's config file");
        write!(
            config,
            "metadata_dir = {meta:?}\n\
             data_dir = {data:?}\n\
             db_engine = \"lmdb\"\n\
             replication_factor = 1\n\
             rpc_bind_addr = \"127.0.0.1:{rpc}\"\n\
             rpc_public_addr = \"127.0.0.1:{rpc}\"\n\
             \n\
             [s3_api]\n\
             s3_region = \"{REGION}\"\n\
             api_bind_addr = \"127.0.0.1:{s3}\"\n\
             root_domain = \".s3.localhost\"\n",
            meta = dir.join("meta"),
            data = dir.join("data"),
            rpc = self.rpc_port,
            s3 = self.s3_port,
        )
        .expect("Garage's config file");
    }
}

impl Drop for LoopbackS3 {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Where Garage is: `GARAGE_BINARY`, or where `scripts/setup-s3.sh` installs it.
///
/// # Panics
/// If it is not there, saying how to install it.
pub fn garage_binary() -> PathBuf {
    let path = std::env::var_os("GARAGE_BINARY").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.tools/garage/bin/garage"),
        PathBuf::from,
    );
    assert!(
        path.is_file(),
        "no Garage at {}: run scripts/setup-s3.sh (scripts/test.sh does), or point \
         GARAGE_BINARY at a garage binary",
        path.display()
    );
    path
}

/// A port nobody listens on now. (Another process could take it before Garage binds it; on
/// loopback in a test run that race has not been seen.)
fn free_port() -> u16 {
    TcpListener::bind(("127.0.0.1", 0))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free loopback port")
}
