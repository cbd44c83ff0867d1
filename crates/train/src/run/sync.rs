//! Models between a run folder and the shared store: the learner publishes each new `latest`
//! generation, self-play processes download it. Both poll, so either side can start first,
//! and both outlast a store that is down for a while, saying so once when it fails and once
//! when it is back.

use super::shared::Shared;
use crate::{RunDir, RunStore};
use anyhow::Result;
use std::time::Duration;

/// How often each side looks for a new generation.
const POLL: Duration = Duration::from_secs(2);

/// Logs the first failure of a run of failures and the recovery after it.
#[derive(Default)]
struct Outage {
    failing: bool,
}

impl Outage {
    fn note(&mut self, what: &str, result: Result<()>) {
        match result {
            Ok(()) if self.failing => {
                tracing::info!("the store answers again; {what} goes on");
                self.failing = false;
            }
            Ok(()) => {}
            Err(error) if !self.failing => {
                tracing::warn!("cannot {what} (retrying every {POLL:?}): {error:#}");
                self.failing = true;
            }
            Err(_) => {}
        }
    }
}

/// The learner's side: publishes the run folder's `latest` generation whenever it moves
/// (after every generation, or after each accepted one with gating), and removes the one
/// published before it from the store.
pub struct Publisher<'a> {
    store: &'a RunStore,
    run: &'a RunDir,
    published: Option<u64>,
    outage: Outage,
}

impl<'a> Publisher<'a> {
    pub fn new(store: &'a RunStore, run: &'a RunDir) -> Self {
        Publisher {
            store,
            run,
            published: store.latest_generation().ok().flatten(),
            outage: Outage::default(),
        }
    }

    /// Publishes until the run stops; the caller publishes once more after the trainer and
    /// the evaluation have stopped (see [`Publisher::publish_latest`]).
    pub fn run(mut self, shared: &Shared) -> Self {
        while !shared.stopping() {
            let result = self.publish_latest();
            self.outage.note("publish models to the store", result);
            sleep_unless_stopping(shared);
        }
        self
    }

    pub fn publish_latest(&mut self) -> Result<()> {
        let Some(latest) = self.run.latest_generation()? else {
            return Ok(());
        };
        if self.published == Some(latest) {
            return Ok(());
        }
        self.store.publish(self.run, latest)?;
        tracing::debug!("generation {latest} published");
        if let Some(old) = self.published.filter(|&old| old != latest) {
            self.store.remove_generation(self.run, old)?;
        }
        self.published = Some(latest);
        Ok(())
    }
}

/// The self-play side, before anything else: waits for the learner's first generation and
/// downloads it.
pub fn first_model(store: &RunStore, run: &RunDir) -> Result<u64> {
    let mut waiting_said = false;
    let mut outage = Outage::default();
    loop {
        let attempt = (|| -> Result<Option<u64>> {
            let Some(generation) = store.latest_generation()? else {
                return Ok(None);
            };
            if run.latest_generation()? == Some(generation) || store.fetch(generation, run)? {
                Ok(Some(generation))
            } else {
                Ok(None)
            }
        })();
        match attempt {
            Ok(Some(generation)) => {
                tracing::info!("self-play starts with generation {generation}");
                return Ok(generation);
            }
            Ok(None) if !waiting_said => {
                tracing::info!("waiting for the learner to publish its first generation");
                waiting_said = true;
            }
            Ok(None) => {}
            Err(error) => outage.note("download the first model from the store", Err(error)),
        }
        std::thread::sleep(POLL);
    }
}

/// The self-play side, while it plays: downloads each generation the learner publishes into
/// the run folder, where the self-play threads pick it up; keeps the one before it for a
/// thread that may still be loading it.
pub fn pull_models(store: &RunStore, run: &RunDir, shared: &Shared) -> Result<()> {
    let mut outage = Outage::default();
    while !shared.stopping() {
        let result = (|| {
            let Some(latest) = store.latest_generation()? else {
                return Ok(());
            };
            let current = run.latest_generation()?;
            if current == Some(latest) {
                return Ok(());
            }
            if !store.fetch(latest, run)? {
                return Ok(());
            }
            tracing::debug!("generation {latest} downloaded");
            shared
                .generation
                .store(latest, std::sync::atomic::Ordering::Relaxed);
            for old in run.generations_before(current.unwrap_or(0))? {
                run.remove_generation(old)?;
            }
            Ok(())
        })();
        outage.note("download models from the store", result);
        sleep_unless_stopping(shared);
    }
    Ok(())
}

fn sleep_unless_stopping(shared: &Shared) {
    let step = Duration::from_millis(100);
    let mut slept = Duration::ZERO;
    while slept < POLL && !shared.stopping() {
        std::thread::sleep(step);
        slept += step;
    }
}
