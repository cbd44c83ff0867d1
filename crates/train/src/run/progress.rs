//! What a person watching `ghast train` sees: a bar towards the run's limit with the counts
//! that matter, or (when stderr is not a terminal) a log line every half minute.

use super::shared::Shared;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const LOG_INTERVAL: Duration = Duration::from_secs(30);

pub struct Progress {
    bar: ProgressBar,
    limit: Limit,
    start: Instant,
    last_log: Instant,
}

/// What ends the run, and so what the bar measures.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    Minutes(f64),
    Generations(u64),
    None,
}

impl Limit {
    /// The generation that ends the run, if a number of generations does.
    pub fn last_generation(self) -> Option<u64> {
        match self {
            Limit::Generations(last) => Some(last),
            Limit::Minutes(_) | Limit::None => None,
        }
    }
}

impl Progress {
    pub fn new(limit: Limit) -> Progress {
        let length = match limit {
            Limit::Minutes(minutes) => (minutes * 60.0).ceil() as u64,
            Limit::Generations(generations) => generations,
            Limit::None => 0,
        };
        let bar = if length > 0 {
            ProgressBar::new(length)
        } else {
            ProgressBar::new_spinner()
        };
        let unit = match limit {
            Limit::Minutes(_) => "s",
            Limit::Generations(_) => " generations",
            Limit::None => "",
        };
        let template =
            format!("{{spinner}} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}}{unit}  {{msg}}");
        let style = if length > 0 {
            ProgressStyle::with_template(&template).expect("a valid template")
        } else {
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                .expect("a valid template")
        };
        bar.set_style(style);
        if !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        Progress {
            bar,
            limit,
            start: Instant::now(),
            last_log: Instant::now(),
        }
    }

    /// Redraws from the shared counters; true once the run's limit is reached.
    pub fn update(&mut self, shared: &Shared) -> bool {
        let generation = shared.generation.load(Ordering::Relaxed);
        let steps = shared.steps.load(Ordering::Relaxed);
        let games = shared.games.load(Ordering::Relaxed);
        let positions = shared.positions.load(Ordering::Relaxed);
        let evals = shared.evaluations.load(Ordering::Relaxed) as f64
            / self.start.elapsed().as_secs_f64().max(1e-9);
        let reanalysed = match shared.reanalysed.load(Ordering::Relaxed) {
            0 => String::new(),
            games => format!(", {games} reanalysed"),
        };
        let message = format!(
            "gen {generation} | step {steps} | {games} games, {positions} positions{reanalysed} | {evals:.0} evals/s"
        );
        let (position, done) = match self.limit {
            Limit::Minutes(minutes) => {
                let seconds = self.start.elapsed().as_secs_f64();
                (seconds as u64, seconds >= minutes * 60.0)
            }
            Limit::Generations(limit) => (generation, generation >= limit),
            Limit::None => (0, false),
        };
        self.bar.set_position(position);
        self.bar.set_message(message.clone());
        self.bar.tick();
        if self.bar.is_hidden() && self.last_log.elapsed() >= LOG_INTERVAL {
            self.last_log = Instant::now();
            tracing::info!("{message}");
        }
        done
    }

    pub fn finish(&self) {
        self.bar.finish();
    }
}
