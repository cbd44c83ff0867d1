//! A run on many machines, on one: `ghast learn` and two `ghast selfplay` processes meeting in
//! a real S3 server (Garage on loopback). They produce generations; the learner is killed and
//! resumed; the store goes away and comes back; a self-play process killed while the store is
//! down loses no finished game.

use loopback_s3::LoopbackS3;
use replay::{ObjectShardStore, ShardStore};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

const STORE: &str = "runs/many";

struct Cluster {
    server: LoopbackS3,
    dir: tempfile::TempDir,
}

impl Cluster {
    /// Starts `ghast ARGS` against the server, its output in `DIR/LOG.log`.
    fn spawn(&self, log: &str, args: &[&str]) -> Process {
        let log = fs::File::create(self.dir.path().join(format!("{log}.log"))).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_ghast"))
            .current_dir(self.dir.path())
            .args(args)
            .envs(self.server.env())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        Process(child)
    }

    fn log(&self, log: &str) -> String {
        fs::read_to_string(self.dir.path().join(format!("{log}.log"))).unwrap_or_default()
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    fn selfplay(&self, name: &str, minutes: &str) -> Process {
        let url = self.server.url(STORE);
        self.spawn(
            name,
            &[
                "selfplay",
                "--store",
                &url,
                "--run",
                name,
                "--minutes",
                minutes,
            ],
        )
    }

    fn shards(&self) -> ObjectShardStore {
        let url = self.server.url(&format!("{STORE}/shards"));
        ObjectShardStore::open_with(&url, self.server.env()).unwrap()
    }

    /// Games in the store written by the self-play process in folder `name`.
    fn stored_games(&self, name: &str) -> usize {
        let writer: u32 = fs::read_to_string(self.path(&format!("{name}/writer-id")))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let shards = self.shards();
        shards
            .list()
            .unwrap()
            .iter()
            .filter(|shard| shard.worker == writer)
            .map(|shard| shards.read_shard(shard).unwrap().records.len())
            .sum()
    }

    fn latest_in_store(&self) -> Option<u64> {
        let url = self.server.url(STORE);
        let bucket = storage::Bucket::open_with(&url, self.server.env()).unwrap();
        let text = bucket.get_if_present("models/latest").unwrap()?;
        Some(String::from_utf8(text).unwrap().trim().parse().unwrap())
    }
}

/// A `ghast` process, killed if the test fails before it ends.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The longest any wait goes on, however busy the process it watches looks.
const LONGEST_WAIT: Duration = Duration::from_secs(900);

/// Progress of a process, read from its log: a loaded machine only slows a process down, and
/// its log still grows (a `ghast` process logs a progress line every half minute at least);
/// one that has stalled writes nothing. So a wait fails once the log has been quiet for
/// `quiet`, not after a fixed time, which a busy CI machine could lose.
struct Watch<'a> {
    cluster: &'a Cluster,
    log: &'a str,
    quiet: Duration,
    started: Instant,
    length: usize,
    changed: Instant,
}

impl<'a> Watch<'a> {
    fn new(cluster: &'a Cluster, log: &'a str, quiet: Duration) -> Self {
        Watch {
            cluster,
            log,
            quiet,
            started: Instant::now(),
            length: cluster.log(log).len(),
            changed: Instant::now(),
        }
    }

    /// Why the wait should give up, if it should: the log quiet for too long, or the wait
    /// past [`LONGEST_WAIT`].
    fn gave_up(&mut self) -> Option<String> {
        let length = self.cluster.log(self.log).len();
        if length != self.length {
            self.length = length;
            self.changed = Instant::now();
        }
        if self.changed.elapsed() > self.quiet {
            Some(format!("{}'s log was quiet for {:?}", self.log, self.quiet))
        } else if self.started.elapsed() > LONGEST_WAIT {
            Some(format!("still going after {LONGEST_WAIT:?}"))
        } else {
            None
        }
    }
}

/// Waits for `process` to exit while its log shows progress (see [`Watch`]); its log on
/// failure.
fn finish(cluster: &Cluster, process: &mut Process, log: &str, quiet: Duration) {
    let child = &mut process.0;
    let mut watch = Watch::new(cluster, log, quiet);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{log} failed:\n{}", cluster.log(log));
            return;
        }
        if let Some(why) = watch.gave_up() {
            let _ = child.kill();
            panic!("{log} did not finish: {why}:\n{}", cluster.log(log));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until `done` while process `log`'s log shows progress (see [`Watch`]); that log on
/// failure.
fn wait_for(
    cluster: &Cluster,
    what: &str,
    log: &str,
    quiet: Duration,
    mut done: impl FnMut() -> bool,
) {
    let mut watch = Watch::new(cluster, log, quiet);
    while !done() {
        if let Some(why) = watch.gave_up() {
            panic!("{what} did not happen: {why}; {log}:\n{}", cluster.log(log));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn newest_generation(models: &Path) -> u64 {
    fs::read_dir(models)
        .unwrap()
        .filter_map(|entry| {
            let name = entry.unwrap().file_name().into_string().unwrap();
            name.strip_prefix("gen-")?
                .strip_suffix(".json")?
                .parse()
                .ok()
        })
        .max()
        .unwrap()
}

/// The generation the learner's `latest` pointer names (with gating, the last one accepted).
fn local_latest(cluster: &Cluster) -> u64 {
    fs::read_to_string(cluster.path("learner/models/latest"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn kill(process: &mut Process) {
    process.0.kill().unwrap();
    process.0.wait().unwrap();
}

#[test]
fn a_learner_and_two_selfplay_processes_train_through_a_real_s3_server() {
    let mut cluster = Cluster {
        server: LoopbackS3::start(),
        dir: tempfile::tempdir().unwrap(),
    };
    let config = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/tiny.toml"))
        .unwrap()
        .replace("games_per_shard = 4", "games_per_shard = 32");
    fs::write(cluster.path("tiny.toml"), config).unwrap();
    let url = cluster.server.url(STORE);

    // Self-play first: it waits for the learner to put the run in the store.
    let mut first = cluster.selfplay("first", "10");
    // Kept alive to the end, when dropping it kills it.
    let _second = cluster.selfplay("second", "10");
    let learn = |extra: &[&str]| {
        let mut args = vec!["learn", "--store", &url, "--run", "learner"];
        args.extend_from_slice(extra);
        cluster.spawn("learner", &args)
    };
    let mut learner = learn(&["--config", "tiny.toml", "--generations", "3"]);
    finish(&cluster, &mut learner, "learner", Duration::from_secs(180));
    let published = cluster.latest_in_store();
    assert_eq!(
        published,
        Some(local_latest(&cluster)),
        "{}",
        cluster.log("learner")
    );
    assert!(
        published > Some(0),
        "gating accepts every generation in tiny.toml"
    );
    // Both self-play processes store games; under load the learner may reach its generations
    // on the first one's games alone, so the slower one is given time to store its first shard.
    for name in ["first", "second"] {
        wait_for(
            &cluster,
            &format!("a shard of {name}'s games in the store"),
            name,
            Duration::from_secs(120),
            || cluster.stored_games(name) > 0,
        );
    }

    // The learner killed mid-run resumes from its newest checkpoint and publishes on.
    let mut learner = learn(&["--resume", "--generations", "1000"]);
    wait_for(
        &cluster,
        "generation 5",
        "learner",
        Duration::from_secs(120),
        || newest_generation(&cluster.path("learner/models")) >= 5,
    );
    kill(&mut learner);
    let newest = newest_generation(&cluster.path("learner/models"));
    let target = (newest + 2).to_string();
    let mut learner = learn(&["--resume", "--generations", &target]);
    finish(&cluster, &mut learner, "learner", Duration::from_secs(120));
    let log = cluster.log("learner");
    assert!(
        log.contains(&format!("resuming at generation {newest}")),
        "{log}"
    );
    let published = local_latest(&cluster);
    assert!(published > newest, "{log}");
    assert_eq!(cluster.latest_in_store(), Some(published));
    wait_for(
        &cluster,
        "self-play to download the newest generation",
        "second",
        Duration::from_secs(60),
        || {
            fs::read_to_string(cluster.path("second/models/latest"))
                .is_ok_and(|text| text.trim() == published.to_string())
        },
    );

    // The store goes away; self-play keeps playing into its journal, and one process is
    // killed meanwhile.
    cluster.server.stop();
    for name in ["first", "second"] {
        wait_for(
            &cluster,
            "self-play to notice the outage",
            name,
            Duration::from_secs(60),
            || cluster.log(name).contains("cannot store a shard"),
        );
    }
    kill(&mut first);
    cluster.server.resume();
    wait_for(
        &cluster,
        "self-play to store again",
        "second",
        Duration::from_secs(90),
        || {
            cluster
                .log("second")
                .contains("the replay store works again")
        },
    );
    let stored_before = cluster.stored_games("first");
    let mut restarted = cluster.selfplay("first", "0.1");
    finish(&cluster, &mut restarted, "first", Duration::from_secs(120));
    let log = cluster.log("first");
    let recovered = number_before(&log, " finished games from the journal");
    let played = number_before(&log, " games (");
    assert!(
        recovered > 0,
        "the outage left games in the journal:\n{log}"
    );
    assert_eq!(
        cluster.stored_games("first"),
        stored_before + recovered + played,
        "every game finished before the kill, and since, is in the store:\n{log}"
    );
    assert!(!log.contains("could not be stored yet"), "{log}");
}

/// The number just before `suffix` in the last line of `log` that holds it.
fn number_before(log: &str, suffix: &str) -> usize {
    let line = log
        .lines()
        .rfind(|line| line.contains(suffix))
        .unwrap_or_else(|| panic!("no line with {suffix:?} in:\n{log}"));
    let head = &line[..line.find(suffix).unwrap()];
    let number = head.rsplit(' ').next().unwrap().trim_start_matches('(');
    number.parse().unwrap()
}

/// Self-play throughput into a local folder and into S3 (Garage on loopback), one process
/// pinned to one core on a fixed generation; then one and two self-play processes sharing that
/// core while a learner trains on the other. A measurement, not a check: its figures are in
/// BENCHMARKS.md.
///
/// `scripts/test.sh --test many_machines_cli measure -- --ignored --nocapture`
#[test]
#[ignore = "a 7-minute measurement; see BENCHMARKS.md"]
fn measure_self_play_throughput_by_store_and_process_count() {
    let cluster = Cluster {
        server: LoopbackS3::start(),
        dir: tempfile::tempdir().unwrap(),
    };
    let config =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/small.toml")).unwrap();
    fs::write(cluster.path("small.toml"), config).unwrap();
    let folder = cluster.path("folder-store");
    let folder = folder.to_str().unwrap();
    let s3 = cluster.server.url(STORE);
    // Generation 0 in both stores, for self-play alone.
    for (name, store) in [("fixed-folder", folder), ("fixed-s3", s3.as_str())] {
        let args = [
            "learn",
            "--store",
            store,
            "--config",
            "small.toml",
            "--run",
            name,
            "--minutes",
            "0.02",
        ];
        finish(
            &cluster,
            &mut cluster.spawn(name, &args),
            name,
            Duration::from_secs(60),
        );
    }
    let seconds = 90.0;
    let minutes = (seconds / 60.0).to_string();
    // `ghast ARGS` pinned to `core`, where it sees only that core.
    let pinned = |name: &str, core: &str, args: &[&str]| {
        let log = fs::File::create(cluster.path(&format!("{name}.log"))).unwrap();
        let child = Command::new("taskset")
            .current_dir(cluster.path(""))
            .args(["-c", core, env!("CARGO_BIN_EXE_ghast")])
            .args(args)
            .envs(cluster.server.env())
            .env("OMP_NUM_THREADS", "1")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        Process(child)
    };
    let selfplay = |name: &str, store: &str| {
        let args = [
            "selfplay",
            "--store",
            store,
            "--run",
            name,
            "--minutes",
            &minutes,
        ];
        pinned(name, "0", &args)
    };
    let rate = |name: &str| {
        let log = cluster.log(name);
        number_before(&log, " positions)") as f64 / seconds
    };
    for (name, store) in [("alone-folder", folder), ("alone-s3", s3.as_str())] {
        let mut process = selfplay(name, store);
        finish(&cluster, &mut process, name, Duration::from_secs(300));
        println!("{name}: {:.0} positions/s", rate(name));
    }
    for count in [1, 2] {
        let learner_run = format!("learner-{count}");
        let store = cluster.server.url(&format!("beside-{count}"));
        let args = [
            "learn",
            "--store",
            &store,
            "--config",
            "small.toml",
            "--run",
            &learner_run,
            "--minutes",
            &minutes,
        ];
        let mut learner = pinned(&learner_run, "1", &args);
        let names: Vec<String> = (0..count).map(|i| format!("beside-{count}-{i}")).collect();
        let mut processes: Vec<Process> = names.iter().map(|name| selfplay(name, &store)).collect();
        for (process, name) in processes.iter_mut().zip(&names) {
            finish(&cluster, process, name, Duration::from_secs(300));
        }
        finish(
            &cluster,
            &mut learner,
            &learner_run,
            Duration::from_secs(300),
        );
        let total: f64 = names.iter().map(|name| rate(name)).sum();
        let steps = number_before(&cluster.log(&learner_run), " training steps");
        println!(
            "{count} self-play beside a learner: {total:.0} positions/s, learner {steps} steps"
        );
    }
}
