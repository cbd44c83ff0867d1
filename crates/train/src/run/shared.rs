use crate::metrics::Metrics;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Counters and the stop flag that the run's threads share; no locks on any hot path (the
/// metrics writer is touched a few times a second at most).
pub struct Shared {
    pub stop: AtomicBool,
    /// Positions the searches asked to have evaluated...
    pub evaluations: AtomicU64,
    /// ...and those of them the evaluation cache answered without the network.
    pub cache_hits: AtomicU64,
    pub games: AtomicU64,
    pub positions: AtomicU64,
    /// Stored games searched again by a newer network (`[selfplay] reanalyse_share`).
    pub reanalysed: AtomicU64,
    pub generation: AtomicU64,
    pub steps: AtomicU64,
    pub metrics: Mutex<Metrics>,
}

impl Shared {
    pub fn new(metrics: Metrics, generation: u64, steps: u64) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            evaluations: AtomicU64::new(0),
            cache_hits: AtomicU64::new(0),
            games: AtomicU64::new(0),
            positions: AtomicU64::new(0),
            reanalysed: AtomicU64::new(0),
            generation: AtomicU64::new(generation),
            steps: AtomicU64::new(steps),
            metrics: Mutex::new(metrics),
        }
    }

    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Logs `scalars` at `step`, tolerating a panicked holder of the lock.
    pub fn log(&self, step: u64, scalars: &[(&str, f64)]) {
        let mut metrics = self
            .metrics
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        for &(tag, value) in scalars {
            metrics.scalar(tag, value, step);
        }
        metrics.flush();
    }
}
