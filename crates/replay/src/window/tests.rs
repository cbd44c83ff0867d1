use super::*;
use crate::test_support::{GAME_LEN, numbered_shard, test_origin};
use crate::{FORMAT_VERSION, LocalDirStore, MAGIC, encode_shard};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tempfile::TempDir;

/// A local store that counts shard reads, to check what the window caches.
struct CountingStore {
    inner: LocalDirStore,
    reads: AtomicUsize,
}

impl ShardStore for CountingStore {
    fn list(&self) -> Result<Vec<ShardName>, ReplayError> {
        self.inner.list()
    }

    fn get(&self, name: &ShardName) -> Result<Vec<u8>, ReplayError> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        self.inner.get(name)
    }

    fn put(&self, name: &ShardName, bytes: &[u8]) -> Result<(), ReplayError> {
        self.inner.put(name, bytes)
    }

    fn delete(&self, name: &ShardName) -> Result<(), ReplayError> {
        self.inner.delete(name)
    }

    fn locate(&self, name: &ShardName) -> String {
        self.inner.locate(name)
    }
}

struct Fixture {
    _dir: TempDir,
    window: Window<CountingStore>,
}

impl Fixture {
    fn new(c: f64) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let store = CountingStore {
            inner: LocalDirStore::open(dir.path()).unwrap(),
            reads: AtomicUsize::new(0),
        };
        let config = WindowConfig {
            c,
            ..WindowConfig::default()
        };
        Self {
            _dir: dir,
            window: Window::new(store, config, vec![test_origin()]),
        }
    }

    /// A window (c = 100) refreshed over four shards of 100 positions, actions 0..400.
    fn with_four_shards() -> Self {
        let mut fixture = Fixture::new(100.0);
        for index in 0..4 {
            fixture.write(index, 100);
        }
        fixture.window.refresh().unwrap();
        fixture
    }

    fn store(&self) -> &CountingStore {
        &self.window.store
    }

    /// Writes shard number `index` holding `size` positions numbered from `index * size`.
    fn write(&self, index: u32, size: u32) -> ShardName {
        let shard = numbered_shard(u64::from(index), index * size, size);
        self.store().write_shard(&shard).unwrap()
    }

    fn reads(&self) -> usize {
        self.store().reads.load(Ordering::Relaxed)
    }

    /// How often each action was sampled, over `draws` draws.
    fn histogram(&self, targets: Targets, draws: usize) -> HashMap<u32, usize> {
        let mut rng = StdRng::seed_from_u64(7);
        let mut counts = HashMap::new();
        for _ in 0..draws {
            let position = self.window.sample(&mut rng, targets).unwrap();
            *counts.entry(position.played().action).or_default() += 1;
        }
        counts
    }
}

/// Asserts that `counts` covers exactly `expected` and is uniform over it: Pearson's
/// chi-squared statistic must stay below its mean plus five standard deviations, which a
/// uniform sampler misses with negligible probability and a skewed one (a shard drawn twice
/// as often, a span off by one) exceeds by far.
fn assert_uniform(counts: &HashMap<u32, usize>, expected: impl IntoIterator<Item = u32>) {
    let expected: HashSet<u32> = expected.into_iter().collect();
    let seen: HashSet<u32> = counts.keys().copied().collect();
    assert_eq!(
        seen, expected,
        "sampled positions outside the window or missing"
    );
    let draws: usize = counts.values().sum();
    let mean = draws as f64 / expected.len() as f64;
    let chi2: f64 = counts
        .values()
        .map(|&count| (count as f64 - mean).powi(2) / mean)
        .sum();
    let dof = (expected.len() - 1) as f64;
    assert!(
        chi2 < dof + 5.0 * (2.0 * dof).sqrt(),
        "chi2 {chi2:.1} for {dof} degrees of freedom"
    );
}

#[test]
fn an_empty_store_gives_no_samples() {
    let mut fixture = Fixture::new(100.0);
    fixture.window.refresh().unwrap();
    assert!(fixture.window.is_empty(Targets::Any));
    let mut rng = StdRng::seed_from_u64(0);
    assert!(fixture.window.sample(&mut rng, Targets::Any).is_none());
}

#[test]
fn samples_uniformly_from_the_newest_positions_only() {
    let fixture = Fixture::with_four_shards();
    // window(400) = 100 * (1 + 0.4 * (4^0.75 - 1) / 0.75) = 197.5: the whole newest shard
    // and the newest 97 positions of the one before.
    assert_eq!(fixture.window.total_positions(), 400);
    assert_eq!(fixture.window.len(Targets::Any), 197);
    assert_uniform(&fixture.histogram(Targets::Any, 40_000), 203..400);
}

#[test]
fn refreshing_loads_new_shards_keeps_cached_ones_and_drops_old_ones() {
    let mut fixture = Fixture::with_four_shards();
    assert_eq!(fixture.reads(), 2);
    fixture.write(4, 100);
    fixture.window.refresh().unwrap();
    // window(500) = 100 * (1 + 0.4 * (5^0.75 - 1) / 0.75) = 224.997: shards 4 and 3 whole and
    // the newest 24 positions of shard 2; shard 1 falls out.
    assert_eq!(
        fixture.reads(),
        3,
        "shards 3 and 2 should come from the cache"
    );
    assert_eq!(fixture.window.spans.len(), 3, "shard 1 should be dropped");
    assert_eq!(fixture.window.len(Targets::Any), 224);
    assert_uniform(&fixture.histogram(Targets::Any, 40_000), 276..500);
    fixture.window.refresh().unwrap();
    assert_eq!(fixture.reads(), 3, "an unchanged store should read nothing");
}

#[test]
fn policy_targets_come_only_from_full_searches() {
    let fixture = Fixture::with_four_shards();
    // Even actions are full searches; the window holds actions 203..400.
    assert_eq!(fixture.window.len(Targets::PolicyTarget), 98);
    let counts = fixture.histogram(Targets::PolicyTarget, 20_000);
    assert_uniform(&counts, (204..400).step_by(2));
}

#[test]
fn samples_point_at_the_move_and_carry_the_shard_header() {
    let mut fixture = Fixture::new(100.0);
    fixture.write(0, 3 * GAME_LEN - 2);
    fixture.window.refresh().unwrap();
    let mut rng = StdRng::seed_from_u64(0);
    for _ in 0..100 {
        let position = fixture.window.sample(&mut rng, Targets::Any).unwrap();
        assert_eq!(position.header.game, "test");
        let action = position.played().action;
        assert_eq!(position.move_index as u32, action % GAME_LEN);
        assert_eq!(position.record.moves[0].action, action - action % GAME_LEN);
    }
}

/// Collects what `tracing` writes, to check the warnings.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Self;

    fn make_writer(&'a self) -> Self {
        self.clone()
    }
}

#[test]
fn shards_of_another_game_or_other_options_are_skipped_with_a_warning() {
    let mut fixture = Fixture::new(1e9);
    fixture.write(0, 50);
    let foreign: Vec<ShardName> = [("other", "{}"), ("test", "{\"size\":5}")]
        .into_iter()
        .zip(1..)
        .map(|((game, options_json), index)| {
            let mut shard = numbered_shard(index, 0, 50);
            shard.header.game = game.into();
            shard.header.options_json = options_json.into();
            fixture.store().write_shard(&shard).unwrap()
        })
        .collect();

    let captured = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(captured.clone())
        .with_ansi(false)
        .finish();
    tracing::subscriber::with_default(subscriber, || fixture.window.refresh().unwrap());

    let log = captured.text();
    assert_eq!(log.matches("WARN").count(), 2, "{log}");
    for name in &foreign {
        assert!(
            log.contains(&name.to_string()),
            "no warning names {name}:\n{log}"
        );
    }
    assert!(
        log.contains("games of another run (other {}; this run plays test {})"),
        "{log}"
    );
    assert!(
        log.contains("test {\"size\":5}; this run plays test {}"),
        "{log}"
    );
    assert_eq!(fixture.window.len(Targets::Any), 50);
}

/// A run that mixes board sizes reads the shards of each, and each sampled position's header
/// says which options it was played under.
#[test]
fn a_window_of_several_origins_takes_the_shards_of_each() {
    let mut fixture = Fixture::new(1e9);
    let small = ShardOrigin {
        game: "test".into(),
        options_json: "{\"size\":3}".into(),
    };
    fixture.window.origins.push(small.clone());
    fixture.write(0, 50);
    for (index, options_json) in [(1, small.options_json.as_str()), (2, "{\"size\":5}")] {
        let mut shard = numbered_shard(index, 50 * index as u32, 50);
        shard.header.options_json = options_json.into();
        fixture.store().write_shard(&shard).unwrap();
    }
    fixture.window.refresh().unwrap();

    assert_eq!(
        fixture.window.len(Targets::Any),
        100,
        "size 5 is none of the run's"
    );
    let mut rng = StdRng::seed_from_u64(3);
    let mut seen = HashSet::new();
    for _ in 0..200 {
        let position = fixture.window.sample(&mut rng, Targets::Any).unwrap();
        let action = position.played().action;
        let origin = position.header.origin();
        let expected = if action < 50 {
            test_origin()
        } else {
            small.clone()
        };
        assert_eq!(origin, expected, "position {action}");
        seen.insert(origin.options_json);
    }
    assert_eq!(seen.len(), 2, "both sizes are sampled");
}

#[test]
fn bad_shards_are_skipped_with_a_warning_and_older_ones_take_their_place() {
    let mut fixture = Fixture::new(1e9);
    fixture.write(0, 50);
    let good = encode_shard(&numbered_shard(0, 0, 50)).unwrap();
    let mut newer = good.clone();
    newer[MAGIC.len()..MAGIC.len() + 4].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let bad: Vec<(ShardName, Vec<u8>)> = [
        b"PK\x03\x04 a zip file".to_vec(),
        good[..good.len() / 2].to_vec(),
        newer,
    ]
    .into_iter()
    .zip(1..)
    .map(|(bytes, index)| (numbered_shard(index, 0, 50).name(), bytes))
    .collect();
    for (name, bytes) in &bad {
        fixture.store().put(name, bytes).unwrap();
    }

    let captured = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(captured.clone())
        .with_ansi(false)
        .finish();
    tracing::subscriber::with_default(subscriber, || {
        fixture.window.refresh().unwrap();
        fixture.window.refresh().unwrap();
    });

    let log = captured.text();
    assert_eq!(
        log.matches("WARN").count(),
        3,
        "each bad shard warns once:\n{log}"
    );
    for (name, _) in &bad {
        assert!(
            log.contains(&name.to_string()),
            "no warning names {name}:\n{log}"
        );
    }
    assert!(log.contains("not a replay shard"), "{log}");
    let refusal = format!(
        "format version {}, this build reads {FORMAT_VERSION}",
        FORMAT_VERSION + 1
    );
    assert!(log.contains(&refusal), "{log}");
    assert_eq!(fixture.window.total_positions(), 200);
    assert_eq!(fixture.window.len(Targets::Any), 50);
    assert_uniform(&fixture.histogram(Targets::Any, 10_000), 0..50);
}

#[test]
fn games_lists_each_game_with_a_position_in_the_window_newest_shard_first() {
    let fixture = Fixture::with_four_shards();
    // The window holds positions 203..400: shard 3 whole, and of shard 2 the game whose
    // moves 200..207 it cuts, and every game after it.
    let first_moves: Vec<u32> = fixture
        .window
        .games()
        .map(|(header, record)| {
            assert_eq!(header.game, "test");
            record.moves[0].action
        })
        .collect();
    let expected: Vec<u32> = (300..400).step_by(7).chain((200..300).step_by(7)).collect();
    assert_eq!(first_moves, expected);
}
