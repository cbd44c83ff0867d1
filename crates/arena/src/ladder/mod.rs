//! The ladder of a training run: every generation checkpoint rated together with fixed
//! baselines by Bradley-Terry (anchored at `random` = 0 when it takes part), with the
//! results cached under `RUN/ladder/` and the ratings plotted against generation and time.
//!
//! Schedule, chosen to stay affordable on a small CPU: each generation meets its predecessor
//! and every baseline, and each baseline meets the one listed before it. That links every
//! player to the anchor by a short chain while the number of pairings grows linearly.

mod cache;

pub use crate::kept::PairResult;
pub use cache::ResultCache;

use crate::agent::Entrant;
use crate::entrants::network_agent;
use crate::plot::{Baseline, GenerationPoint, PlotError, PlotFiles, RatingPlot, save_rating_plots};
use crate::rating::{BradleyTerry, Rating, RatingError, ResultTable};
use crate::runner::{GameRecord, Match, MatchError, MatchResult, MatchSettings};
use crate::spec::PlayerSpec;
use game::{Agent, AgentFailure, Planes};
use mcts::SearchConfig;
use rundir::{Generation, RunDir};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// How the ladder plays its pairings.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderSettings {
    /// Games per new pairing (even).
    pub games_per_pair: u32,
    pub baselines: Vec<PlayerSpec>,
    /// Search visits per move of every generation.
    pub visits: u32,
    /// How every generation searches: as the run's bot does (`RunConfig`'s `[bot]` over its
    /// self-play search), so that the ladder rates the players the run ships.
    pub search: SearchConfig,
    pub threads: usize,
    pub opening_moves: usize,
    pub seed: u64,
    /// Rate every `every`-th generation (and always the latest): a long run writes hundreds.
    pub every: u64,
}

/// What the ladder is doing, for progress displays.
pub enum LadderEvent<'a> {
    /// Pairing `index` of `total` new ones starts, `games` games of `a` against `b`.
    Pairing {
        index: usize,
        total: usize,
        a: &'a str,
        b: &'a str,
        games: u32,
    },
    Game(&'a GameRecord),
}

/// The ratings and where they were drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderReport {
    /// Every player, generations first (by generation), then the baselines.
    pub ratings: Vec<Rating>,
    /// The player rated 0.
    pub anchor: String,
    pub played_pairs: usize,
    pub cached_pairs: usize,
    pub plot: PlotFiles,
}

#[derive(Debug, Error)]
pub enum LadderError {
    #[error("{0}")]
    Run(String),
    #[error("no generation checkpoints (gen-NNNN.safetensors) in {0}")]
    NoGenerations(PathBuf),
    #[error("{a} vs {b}: {source}")]
    Match {
        a: String,
        b: String,
        source: MatchError,
    },
    #[error(transparent)]
    Rating(#[from] RatingError),
    #[error("{0}")]
    Plot(#[from] PlotError),
    /// Levels of play ([`crate::levels`]) with no anchor to be rated against.
    #[error("levels need at least one anchor to be rated against")]
    NoAnchors,
}

/// Plays one pairing of a ladder, each finished game reported as a [`LadderEvent::Game`];
/// a match that fails names the pairing.
pub(crate) fn run_pairing<G: Planes>(
    game_match: &Match<'_, G>,
    a: &str,
    b: &str,
    on_event: &mut dyn FnMut(LadderEvent),
) -> Result<MatchResult, LadderError> {
    game_match
        .run(&mut |record| on_event(LadderEvent::Game(record)))
        .map_err(|source| LadderError::Match {
            a: a.to_owned(),
            b: b.to_owned(),
            source,
        })
}

/// One player of the ladder; `O` are the game's options.
struct Entry<O> {
    spec: PlayerSpec,
    /// The checkpoint behind a generation; `None` for a baseline.
    generation: Option<Generation<O>>,
}

impl<O> Entry<O> {
    fn name(&self) -> String {
        self.spec.name()
    }
}

/// An entry as it plays a pairing: a generation searches with the ladder's settings, a
/// baseline is its spec's player.
struct Contender<'a, O> {
    entry: &'a Entry<O>,
    search: &'a SearchConfig,
}

impl<G: Planes> Entrant<G> for Contender<'_, G::Options>
where
    G::Options: Sync,
{
    fn name(&self) -> String {
        self.entry.name()
    }

    fn agent(&self, options: &G::Options, seed: u64) -> Result<Box<dyn Agent<G>>, AgentFailure> {
        match &self.entry.spec {
            PlayerSpec::Checkpoint { weights, visits } if self.entry.generation.is_some() => {
                network_agent::<G>(
                    &self.entry.name(),
                    weights,
                    options,
                    self.search.clone(),
                    *visits,
                    play::Runtime::default(),
                    seed,
                )
            }
            spec => Entrant::<G>::agent(spec, options, seed),
        }
    }
}

/// The ladder of the run in `run`.
pub struct Ladder {
    run: RunDir,
    settings: LadderSettings,
}

impl Ladder {
    pub fn new(run: &Path, settings: LadderSettings) -> Ladder {
        Ladder {
            run: RunDir::new(run),
            settings,
        }
    }

    /// `RUN/ladder`, where results and plots go.
    pub fn dir(&self) -> PathBuf {
        self.run.root().join("ladder")
    }

    /// Plays the pairings not in the cache, rates everyone and draws the plot. The run's
    /// checkpoints must be of game `G`.
    pub fn run<G: Planes>(
        &self,
        on_event: &mut dyn FnMut(LadderEvent),
    ) -> Result<LadderReport, LadderError> {
        let mut generations = self
            .run
            .generations::<G::Options>(G::NAME)
            .map_err(|e| LadderError::Run(format!("{e:#}")))?;
        let latest = generations
            .last()
            .ok_or_else(|| LadderError::NoGenerations(self.run.models()))?
            .clone();
        let every = self.settings.every.max(1);
        generations.retain(|g| g.generation % every == 0 || g.generation == latest.generation);
        let options = latest.game_options.clone();
        let entries = self.entries(&generations);
        let dir = self.dir();
        std::fs::create_dir_all(&dir)
            .map_err(|e| LadderError::Run(format!("cannot create {}: {e}", dir.display())))?;
        let cache_path = dir.join("results.json");
        let mut cache = ResultCache::load(&cache_path, &options, &self.settings.search)
            .map_err(LadderError::Run)?;

        let schedule = schedule(&entries);
        let new: Vec<_> = schedule
            .iter()
            .filter(|&&(a, b)| cache.find(&entries[a].name(), &entries[b].name()).is_none())
            .collect();
        for (index, &&(a, b)) in new.iter().enumerate() {
            let search = &self.settings.search;
            let a = Contender {
                entry: &entries[a],
                search,
            };
            let b = Contender {
                entry: &entries[b],
                search,
            };
            let (a_name, b_name) = (a.entry.name(), b.entry.name());
            on_event(LadderEvent::Pairing {
                index,
                total: new.len(),
                a: &a_name,
                b: &b_name,
                games: self.settings.games_per_pair,
            });
            let game_match = Match::<G> {
                options: options.clone(),
                a: &a,
                b: &b,
                settings: MatchSettings {
                    games: self.settings.games_per_pair,
                    threads: self.settings.threads,
                    opening_moves: self.settings.opening_moves,
                    sprt: None,
                    seed: self.settings.seed.wrapping_add(index as u64),
                },
            };
            let result = run_pairing(&game_match, &a_name, &b_name, on_event)?;
            cache
                .pairs
                .push(PairResult::new(a_name, b_name, result.wdl));
            cache.save(&cache_path).map_err(LadderError::Run)?;
        }

        let mut table = ResultTable::new();
        for entry in &entries {
            table.add_player(&entry.name());
        }
        for &(a, b) in &schedule {
            let (a, b) = (entries[a].name(), entries[b].name());
            let pair = cache
                .find(&a, &b)
                .expect("every scheduled pairing was played");
            table.record(&pair.a, &pair.b, pair.wdl());
        }
        let anchor = self.anchor(&entries);
        let ratings = BradleyTerry::new(&anchor).fit(&table)?;
        let plot = self.plot(G::NAME, &entries, &ratings)?;
        Ok(LadderReport {
            ratings,
            anchor,
            played_pairs: new.len(),
            cached_pairs: schedule.len() - new.len(),
            plot,
        })
    }

    /// Generations first, by generation, then the baselines in the order given.
    fn entries<O: Clone>(&self, generations: &[Generation<O>]) -> Vec<Entry<O>> {
        let generation_entries = generations.iter().map(|generation| Entry {
            spec: PlayerSpec::Checkpoint {
                weights: generation.weights.clone(),
                visits: self.settings.visits,
            },
            generation: Some(generation.clone()),
        });
        let baseline_entries = self.settings.baselines.iter().map(|spec| Entry {
            spec: spec.clone(),
            generation: None,
        });
        generation_entries.chain(baseline_entries).collect()
    }

    /// `random` if it plays, else the first baseline, else the first generation.
    fn anchor<O>(&self, entries: &[Entry<O>]) -> String {
        let baselines = || entries.iter().filter(|e| e.generation.is_none());
        baselines()
            .find(|e| e.spec == PlayerSpec::Random)
            .or_else(|| baselines().next())
            .unwrap_or(&entries[0])
            .name()
    }

    /// Draws `RUN/ladder/ratings.{png,svg}`, titled with what they show: the Elo of each
    /// generation of `game` in this run (whose folder is named after its config by default),
    /// at the ladder's visits. Training time is the run's own (time it lay stopped between a
    /// kill and its resume does not count) when every checkpoint records it, else the clock
    /// time since the first generation.
    fn plot<O>(
        &self,
        game: &str,
        entries: &[Entry<O>],
        ratings: &[Rating],
    ) -> Result<PlotFiles, PlotError> {
        let generations = || entries.iter().filter_map(|e| e.generation.as_ref());
        let run_seconds = generations()
            .map(|g| g.run_seconds)
            .collect::<Option<Vec<u64>>>()
            .is_some();
        let start = generations().map(|g| g.unix_time).min().unwrap_or(0);
        let seconds = |g: &Generation<O>| match g.run_seconds {
            Some(seconds) if run_seconds => seconds,
            _ => g.unix_time.saturating_sub(start),
        };
        let mut points = Vec::new();
        let mut baselines = Vec::new();
        for (entry, rating) in entries.iter().zip(ratings) {
            match &entry.generation {
                Some(generation) => points.push(GenerationPoint {
                    generation: u32::try_from(generation.generation).unwrap_or(u32::MAX),
                    hours: seconds(generation) as f64 / 3600.0,
                    elo: rating.elo,
                    lower: rating.lower,
                    upper: rating.upper,
                }),
                None => baselines.push(Baseline {
                    name: rating.name.clone(),
                    elo: rating.elo,
                }),
            }
        }
        let root = self.run.root();
        let run_name = root.file_name().map_or_else(
            || root.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        let title = format!(
            "{game}: Elo of each generation of run {run_name} ({} visits a move)",
            self.settings.visits
        );
        let plot = RatingPlot {
            title: &title,
            points: &points,
            baselines: &baselines,
        };
        save_rating_plots(&plot, &self.dir().join("ratings"))
    }
}

/// Pairings as indices into `entries`: each generation against its predecessor and every
/// baseline; each baseline against the one before it.
fn schedule<O>(entries: &[Entry<O>]) -> Vec<(usize, usize)> {
    let generations: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].generation.is_some())
        .collect();
    let baselines: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].generation.is_none())
        .collect();
    let mut pairs = Vec::new();
    for (k, &g) in generations.iter().enumerate() {
        if k > 0 {
            pairs.push((g, generations[k - 1]));
        }
        pairs.extend(baselines.iter().map(|&b| (g, b)));
    }
    pairs.extend(baselines.windows(2).map(|w| (w[1], w[0])));
    pairs
}
