//! Measuring the search alone: simulations per second with [`UniformEvaluator`], so that the
//! cost of the tree and the rules shows without a network in front of it.

use crate::batch::Batch;
use crate::config::SearchConfig;
use crate::evaluator::UniformEvaluator;
use crate::tree::Tree;
use game::Game;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Measuring time for each of the two runs (one thread, all threads).
    pub seconds: f64,
    pub threads: usize,
    /// Games in flight per thread, as in self-play: their leaves make one batch.
    pub trees_per_thread: usize,
    pub visits_per_search: u32,
    pub config: SearchConfig,
}

impl Default for BenchOptions {
    fn default() -> Self {
        Self {
            seconds: 3.0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            trees_per_thread: 64,
            visits_per_search: 800,
            config: SearchConfig::default(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    pub sims_per_sec: f64,
    pub sims_per_sec_all_threads: f64,
    pub threads: usize,
    pub trees_per_thread: usize,
    pub visits_per_search: u32,
    /// Mean positions per evaluator call on one thread.
    pub mean_batch: f64,
}

/// Searches `position` over and over, on one thread and then on `options.threads` threads
/// with independent trees.
pub fn measure<G: Game>(position: &G, options: &BenchOptions) -> BenchReport {
    let single = run_thread(position, options, 0);
    let seeds: Vec<u64> = (0..options.threads as u64).collect();
    let all: Vec<ThreadRun> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .iter()
            .map(|&seed| scope.spawn(move || run_thread(position, options, seed)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("bench thread"))
            .collect()
    });
    let all_sims: u64 = all.iter().map(|run| run.sims).sum();
    let slowest = all.iter().map(|run| run.elapsed).max().unwrap_or_default();
    BenchReport {
        sims_per_sec: single.sims as f64 / single.elapsed.as_secs_f64(),
        sims_per_sec_all_threads: all_sims as f64 / slowest.as_secs_f64(),
        threads: options.threads,
        trees_per_thread: options.trees_per_thread,
        visits_per_search: options.visits_per_search,
        mean_batch: single.evaluated as f64 / single.steps.max(1) as f64,
    }
}

/// A position `plies` uniformly random moves into a game from `start` that is still going
/// (retrying with other moves if a game ends sooner): a typical mid-game to search from.
pub fn random_position<G: Game>(start: &G, plies: usize, seed: u64) -> G {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
    // Chance's outcomes come with their odds and do not count as plies; the position returned
    // is a side's decision, as search needs.
    let draw_chance = |game: &mut G, rng: &mut ChaCha8Rng, outcomes: &mut Vec<(usize, f64)>| {
        while game.outcome().is_none() && game.is_chance() {
            let outcome = game::draw_outcome(game, rng.random(), outcomes);
            game.apply(outcome);
        }
    };
    loop {
        let mut game = start.clone();
        for _ in 0..plies {
            draw_chance(&mut game, &mut rng, &mut outcomes);
            game.legal_actions(&mut legal);
            let Some(&action) = legal.choose(&mut rng) else {
                break;
            };
            game.apply(action);
        }
        draw_chance(&mut game, &mut rng, &mut outcomes);
        if game.outcome().is_none() {
            return game;
        }
    }
}

struct ThreadRun {
    sims: u64,
    evaluated: u64,
    steps: u64,
    elapsed: Duration,
}

fn run_thread<G: Game>(position: &G, options: &BenchOptions, seed: u64) -> ThreadRun {
    let mut trees: Vec<Tree<G>> = (0..options.trees_per_thread as u64)
        .map(|i| {
            let mut tree = Tree::new(position.clone(), options.config.clone(), seed << 32 | i);
            tree.set_budget(options.visits_per_search);
            tree
        })
        .collect();
    let mut batch = Batch::new();
    let mut evaluator = UniformEvaluator;
    let mut run = ThreadRun {
        sims: 0,
        evaluated: 0,
        steps: 0,
        elapsed: Duration::ZERO,
    };
    let limit = Duration::from_secs_f64(options.seconds);
    let start = Instant::now();
    while start.elapsed() < limit {
        let evaluated = batch
            .step(&mut trees, &mut evaluator)
            .expect("uniform priors have no device to fail");
        run.evaluated += evaluated as u64;
        run.steps += 1;
        for tree in trees.iter_mut().filter(|tree| tree.is_done()) {
            run.sims += u64::from(tree.root_visit_count());
            tree.reset(position);
        }
    }
    run.elapsed = start.elapsed();
    run.sims += trees
        .iter()
        .map(|tree| u64::from(tree.root_visit_count()))
        .sum::<u64>();
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::Nim;

    #[test]
    fn random_position_is_unfinished_and_reproducible() {
        let start = Nim::start(30, 3, None);
        let a = random_position(&start, 8, 7);
        let b = random_position(&start, 8, 7);
        assert!(a.outcome().is_none());
        assert_eq!(a.hash(), b.hash());
    }

    #[test]
    fn measure_reports_simulations() {
        let options = BenchOptions {
            seconds: 0.05,
            threads: 2,
            trees_per_thread: 4,
            visits_per_search: 50,
            ..BenchOptions::default()
        };
        let report = measure(&Nim::start(30, 3, None), &options);
        assert!(report.sims_per_sec > 0.0);
        assert!(report.sims_per_sec_all_threads > 0.0);
        assert!(
            report.mean_batch > 1.0 && report.mean_batch <= 4.0,
            "{}",
            report.mean_batch
        );
    }
}
