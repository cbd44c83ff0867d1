//! The evaluation thread: baseline matches every few generations and, with gating, the match
//! that decides whether a new generation reaches the self-play workers.

use super::shared::Shared;
use crate::{EvaluationConfig, RunDir};
use anyhow::Result;
use arena::{Baseline, Entrant, Match, MatchSettings};
use game::{Agent, AgentFailure, Game, Planes};
use mcts::SearchConfig;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

struct Network {
    name: String,
    weights: PathBuf,
    search: SearchConfig,
    visits: u32,
}

impl<G: Planes> Entrant<G> for Network {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn agent(&self, options: &G::Options, seed: u64) -> Result<Box<dyn Agent<G>>, AgentFailure> {
        arena::network_agent::<G>(
            &self.name,
            &self.weights,
            options,
            self.search.clone(),
            self.visits,
            arena::Runtime::default(),
            seed,
        )
    }
}

struct Fixed(Baseline);

impl<G: Game> Entrant<G> for Fixed {
    fn name(&self) -> String {
        format!("{:?}", self.0).to_lowercase()
    }

    fn agent(&self, _options: &G::Options, seed: u64) -> Result<Box<dyn Agent<G>>, AgentFailure> {
        Ok(arena::baseline_agent(self.0, seed))
    }
}

/// Judges each new generation until the run stops. A run that stops because it has written
/// its `last_generation` still has that generation judged before it ends; one that ends at a
/// time, or on an error, does not run past it.
pub fn run_matches<G: Planes>(
    run: &RunDir,
    config: &EvaluationConfig,
    options: &G::Options,
    search: &SearchConfig,
    shared: &Shared,
    last_generation: Option<u64>,
) -> Result<()> {
    let baseline = Fixed(config.baseline().map_err(anyhow::Error::msg)?);
    let mut considered = shared.generation.load(Ordering::Relaxed);
    loop {
        let stopping = shared.stopping();
        let newest = shared.generation.load(Ordering::Relaxed);
        let judge_last = last_generation.is_some_and(|last| newest >= last);
        if stopping && !(judge_last && newest > considered) {
            break;
        }
        if newest <= considered {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        }
        considered = newest;
        let baseline_due =
            config.every_generations > 0 && newest.is_multiple_of(config.every_generations);
        if stopping && (config.gating || baseline_due) {
            tracing::info!("the run has reached its last generation; judging it before it ends");
        }
        let candidate = network(run, newest, search, config.visits);
        if config.gating {
            let best = run.latest_generation()?.unwrap_or(0);
            let score = score::<G>(
                options,
                &candidate,
                &network(run, best, search, config.visits),
                config.gating_games,
            )?;
            let accepted = score >= config.gating_score;
            if accepted {
                run.set_latest(newest)?;
            }
            tracing::info!(
                "gating: generation {newest} scored {:.1}% against generation {best}: {}",
                score * 100.0,
                if accepted { "accepted" } else { "rejected" }
            );
            shared.log(
                newest,
                &[
                    ("gating/score", score),
                    ("gating/accepted", f64::from(u8::from(accepted))),
                ],
            );
        }
        if baseline_due {
            let score = score::<G>(options, &candidate, &baseline, config.games)?;
            let elo = arena::rating::elo_from_score(score.clamp(0.001, 0.999));
            tracing::info!(
                "generation {newest} scored {:.1}% against {}",
                score * 100.0,
                config.baseline
            );
            shared.log(newest, &[("eval/score", score), ("eval/elo", elo)]);
        }
    }
    Ok(())
}

/// A generation as the exported bot would play it, at `visits` per move.
fn network(run: &RunDir, generation: u64, search: &SearchConfig, visits: u32) -> Network {
    Network {
        name: format!("gen-{generation:04}@{visits}"),
        weights: run.checkpoint(generation),
        search: search.clone(),
        visits,
    }
}

/// `a`'s score against `b` over `games` games on one thread (self-play keeps the others).
fn score<G: Planes>(
    options: &G::Options,
    a: &dyn Entrant<G>,
    b: &dyn Entrant<G>,
    games: u32,
) -> Result<f64> {
    let game_match = Match {
        options: options.clone(),
        a,
        b,
        settings: MatchSettings {
            games,
            threads: 1,
            opening_moves: 2,
            sprt: None,
            seed: games as u64,
        },
    };
    let result = game_match.run(&mut |_| {})?;
    Ok(result.stats().score)
}
