//! The engine: queries become jobs (one per turn to analyse) in a queue ordered by priority;
//! up to [`Settings::positions_in_flight`] of them are searched at once, and every step of
//! their searches sends all their leaves to the evaluator in one batch, as self-play's games
//! do. A search that reaches its visits (or its time) is reported and its place goes to the
//! next job.
//!
//! A failed device ends the engine: every query under way or queued gets an error line with
//! the device's words, and [`AnalysisEngine::serve`] returns the error (KataGo ends the process).

use crate::protocol::{ActionKind, Problem, Query, Request, parse_line};
use crate::report;
use crate::settings::{Asked, SearchSettings, Setting};
use crate::setup::QueryReader;
use game::{DeviceError, Evaluator, Game, Planes, ServeError};
use mcts::{Batch, CachedEvaluator, Keep, MoveFilter, Tree};
use serde_json::Value;
use std::collections::{BTreeSet, BinaryHeap};
use std::io::{self, BufRead, Write};
use std::rc::Rc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How the engine searches and reports.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Positions searched at once, whose leaves share the evaluator's batches (KataGo's
    /// `numAnalysisThreads`).
    pub positions_in_flight: usize,
    /// How a query is searched unless its `overrideSettings` say otherwise.
    pub search: SearchSettings,
    /// Positions the evaluation cache that every query shares holds (KataGo's
    /// `nnCacheSizePowerOfTwo`, as a count): analysing every turn of a game meets the same
    /// positions again. `clear_cache` empties it.
    pub cache_entries: usize,
    pub seed: u64,
}

/// One turn of a query, to search.
struct Job<G: Game> {
    asked: Rc<Asked>,
    turn: usize,
    game: G,
    filter: Option<MoveFilter>,
    priority: i64,
    /// Arrival order: among equal priorities the earlier goes first.
    order: u64,
}

impl<G: Game> PartialEq for Job<G> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl<G: Game> Eq for Job<G> {}

impl<G: Game> PartialOrd for Job<G> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<G: Game> Ord for Job<G> {
    /// The job to search first is the greatest: the highest priority, then the earliest.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.priority
            .cmp(&other.priority)
            .then(other.order.cmp(&self.order))
    }
}

/// A job being searched; its tree is at the same index of [`AnalysisEngine::trees`] (which keeps
/// the root's policy and the ownership of what it evaluates, where the query asks).
struct Active<G: Game> {
    job: Job<G>,
    started: Instant,
    last_report: Instant,
}

/// The analysis engine of one bot: a network (any [`Evaluator`]) and the game's options it
/// was trained on.
pub struct AnalysisEngine<G: Planes, E: Evaluator<G>> {
    reader: QueryReader<G>,
    settings: Settings,
    evaluator: CachedEvaluator<E>,
    queue: BinaryHeap<Job<G>>,
    active: Vec<Active<G>>,
    /// The trees of `active`, index for index, so that one batch steps them all.
    trees: Vec<Tree<G>>,
    spare_trees: Vec<Tree<G>>,
    batch: Batch<G>,
    arrivals: u64,
    /// Lines to write, in order.
    out: Vec<String>,
    positions_searched: u64,
    /// Whether the evaluator predicts ownership, once a query has asked.
    predicts_ownership: Option<bool>,
    /// Whether the evaluator is asked for ownership now: while a search in flight wants it.
    ownership_wanted: bool,
}

impl<G: Planes, E: Evaluator<G>> AnalysisEngine<G, E> {
    /// An engine for positions under `options` (the bot's), evaluated by `evaluator`.
    pub fn new(options: G::Options, evaluator: E, settings: Settings) -> Self {
        AnalysisEngine {
            reader: QueryReader::new(options),
            evaluator: CachedEvaluator::new(evaluator, settings.cache_entries),
            settings,
            queue: BinaryHeap::new(),
            active: Vec::new(),
            trees: Vec::new(),
            spare_trees: Vec::new(),
            batch: Batch::new(),
            arrivals: 0,
            out: Vec::new(),
            positions_searched: 0,
            predicts_ownership: None,
            ownership_wanted: false,
        }
    }

    /// The evaluator, behind the cache.
    pub fn evaluator(&self) -> &E {
        self.evaluator.inner()
    }

    /// Whether nothing is queued or being searched.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.active.is_empty()
    }

    /// Positions whose search has finished (or was terminated) since the engine started.
    pub fn positions_searched(&self) -> u64 {
        self.positions_searched
    }

    /// The lines written since the last call, in order, each one JSON object.
    pub fn take_output(&mut self) -> Vec<String> {
        std::mem::take(&mut self.out)
    }

    /// Reads one query line and answers at once what needs no search: errors, warnings,
    /// actions and finished games. A blank line is skipped.
    pub fn handle_line(&mut self, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        match parse_line(line) {
            Err(problem) => self.out.push(problem.error_line()),
            Ok((request, warnings)) => {
                self.out.extend(warnings.iter().map(Problem::warning_line));
                match request {
                    Request::Action(action) => self.act(action),
                    Request::Analyse(query) => {
                        if let Err(problem) = self.admit(*query) {
                            self.out.push(problem.error_line());
                        }
                    }
                }
            }
        }
    }

    /// One step of every search in flight (starting queued ones first): their leaves go to
    /// the evaluator in one batch. Reports the searches that finished, and those due a report
    /// during search. Returns whether there was anything to search.
    ///
    /// A failed device fails the step: every query under way or queued is answered with an
    /// error line, and the engine is left with nothing to search.
    pub fn step(&mut self) -> Result<bool, DeviceError> {
        self.search_step()
            .map_err(|error| self.fail_every_job(error))
    }

    /// Answers every job searched or queued with `error`, one line a query, and drops them.
    fn fail_every_job(&mut self, error: DeviceError) -> DeviceError {
        let mut ids: Vec<&str> = Vec::new();
        let mut seen = BTreeSet::new();
        let jobs = self.active.iter().map(|active| &active.job);
        let mut queued: Vec<&Job<G>> = self.queue.iter().collect();
        queued.sort_by_key(|job| job.order);
        for job in jobs.chain(queued) {
            if seen.insert(job.asked.id.as_str()) {
                ids.push(&job.asked.id);
            }
        }
        let lines: Vec<String> = ids
            .iter()
            .map(|id| Problem::new(Some(id), None, error.to_string()).error_line())
            .collect();
        self.out.extend(lines);
        self.active.clear();
        self.trees.clear();
        self.queue.clear();
        error
    }

    fn search_step(&mut self) -> Result<bool, DeviceError> {
        self.start_queued();
        if self.active.is_empty() {
            return Ok(false);
        }
        let wanted = self
            .active
            .iter()
            .any(|active| active.job.asked.wants_ownership());
        if wanted != self.ownership_wanted {
            self.ownership_wanted = wanted;
            self.evaluator.want_ownership(wanted);
        }
        self.batch.step(&mut self.trees, &mut self.evaluator)?;
        let now = Instant::now();
        for index in (0..self.active.len()).rev() {
            let active = &self.active[index];
            let out_of_time = active
                .job
                .asked
                .settings
                .max_time
                .is_some_and(|limit| now.duration_since(active.started) >= limit);
            if self.trees[index].is_done() || out_of_time {
                self.finish(index);
                continue;
            }
            let active = &mut self.active[index];
            if let Some(every) = active.job.asked.report_every
                && now.duration_since(active.last_report) >= every
            {
                active.last_report = now;
                let line = self.result(index, true);
                self.out.push(line);
            }
        }
        Ok(true)
    }

    /// Reads queries from `input` (on a thread of its own, so that queries arriving during a
    /// search join it) and writes every answer to `output` as soon as it is known. When
    /// `input` ends, the queued queries are still answered unless `quit_without_waiting`.
    /// A failed device ends it, once every query under way has its error line.
    pub fn serve(
        &mut self,
        input: impl BufRead + Send + 'static,
        output: &mut impl Write,
        quit_without_waiting: bool,
    ) -> Result<(), ServeError> {
        // A line that is not UTF-8 is bad input, answered like any other; only a failure to
        // read ends the input.
        let (lines, received) = mpsc::channel::<io::Result<Result<String, Vec<u8>>>>();
        std::thread::Builder::new()
            .name("analysis-input".to_owned())
            .spawn(move || {
                for line in input.split(b'\n') {
                    let line =
                        line.map(|bytes| String::from_utf8(bytes).map_err(|e| e.into_bytes()));
                    let failed = line.is_err();
                    if lines.send(line).is_err() || failed {
                        return;
                    }
                }
            })?;
        let mut open = true;
        let stopped = loop {
            if open && self.is_idle() {
                // Nothing to search: wait for the next line.
                match received.recv() {
                    Ok(line) => self.handle_input(line?),
                    Err(_) => open = false,
                }
            }
            while open {
                match received.try_recv() {
                    Ok(line) => self.handle_input(line?),
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => open = false,
                }
            }
            if !open && (quit_without_waiting || self.is_idle()) {
                self.write(output)?;
                return Ok(());
            }
            if let Err(error) = self.step() {
                break error;
            }
            self.write(output)?;
        };
        self.write(output)?;
        Err(ServeError::Device(stopped))
    }

    /// A line as read: text, or bytes that are not UTF-8.
    fn handle_input(&mut self, line: Result<String, Vec<u8>>) {
        match line {
            Ok(line) => self.handle_line(&line),
            Err(bytes) => self.out.push(
                Problem::new(
                    None,
                    None,
                    format!("a line of {} bytes is not UTF-8 text", bytes.len()),
                )
                .error_line(),
            ),
        }
    }

    fn write(&mut self, output: &mut impl Write) -> io::Result<()> {
        if self.out.is_empty() {
            return Ok(());
        }
        for line in self.out.drain(..) {
            writeln!(output, "{line}")?;
        }
        output.flush()
    }

    fn act(&mut self, action: crate::protocol::Action) {
        let mut echo = action.echo;
        match action.kind {
            ActionKind::QueryVersion => {
                echo.insert("version".to_owned(), Value::from(env!("CARGO_PKG_VERSION")));
                echo.insert("git_hash".to_owned(), Value::from("<omitted>"));
            }
            ActionKind::ClearCache => self.evaluator.clear(),
            ActionKind::Terminate | ActionKind::TerminateAll => {
                let id = action.terminate_id.as_deref();
                let turns = action.turn_numbers.as_deref();
                self.terminate(|job| {
                    id.is_none_or(|id| job.asked.id == id)
                        && turns.is_none_or(|turns| turns.contains(&job.turn))
                });
            }
        }
        self.out.push(Value::Object(echo).to_string());
    }

    /// Stops the jobs `matches` picks: those being searched are reported with the visits
    /// they have, queued ones with `noResults`.
    fn terminate(&mut self, matches: impl Fn(&Job<G>) -> bool) {
        for index in (0..self.active.len()).rev() {
            if matches(&self.active[index].job) {
                self.finish(index);
            }
        }
        let (stopped, kept): (Vec<Job<G>>, Vec<Job<G>>) = std::mem::take(&mut self.queue)
            .into_iter()
            .partition(|job| matches(job));
        self.queue = kept.into();
        let mut stopped = stopped;
        stopped.sort_by_key(|job| job.order);
        for job in stopped {
            self.out.push(report::no_results(&job.asked.id, job.turn));
        }
    }

    /// Reports the search at `index` as final and frees its place.
    fn finish(&mut self, index: usize) {
        let line = if self.trees[index].root_visit_count() == 0 {
            let job = &self.active[index].job;
            report::no_results(&job.asked.id, job.turn)
        } else {
            self.result(index, false)
        };
        self.out.push(line);
        self.positions_searched += 1;
        self.active.swap_remove(index);
        self.spare_trees.push(self.trees.swap_remove(index));
    }

    fn result(&self, index: usize, during_search: bool) -> String {
        let active = &self.active[index];
        report::result(
            &report::Searched {
                asked: &active.job.asked,
                turn: active.job.turn,
                game: &active.job.game,
                tree: &self.trees[index],
            },
            during_search,
        )
    }

    /// Whether the evaluator predicts ownership, asked of it once and kept.
    fn predicts_ownership(&mut self) -> bool {
        *self.predicts_ownership.get_or_insert_with(|| {
            let predicts = self.evaluator.want_ownership(true);
            self.evaluator.want_ownership(self.ownership_wanted);
            predicts
        })
    }

    /// Moves queued jobs into the free places, best first.
    fn start_queued(&mut self) {
        while self.active.len() < self.settings.positions_in_flight.max(1) {
            let Some(job) = self.queue.pop() else {
                return;
            };
            let search = &job.asked.settings.search;
            let mut tree = match self.spare_trees.pop() {
                Some(mut tree) if tree.config() == search => {
                    tree.reset(&job.game);
                    tree
                }
                _ => Tree::new(
                    job.game.clone(),
                    search.clone(),
                    self.settings.seed ^ job.order,
                ),
            };
            tree.set_budget(job.asked.settings.visits);
            tree.set_move_filter(job.filter.clone());
            tree.keep_evaluations(Keep {
                root_policy: job.asked.include_policy,
                ownership: job.asked.wants_ownership(),
            });
            let now = Instant::now();
            self.active.push(Active {
                job,
                started: now,
                last_report: now,
            });
            self.trees.push(tree);
        }
    }

    /// Turns a query into its jobs, or answers it at once (finished games, chance's turns).
    /// Every part of the query is checked before any turn is queued.
    fn admit(&mut self, query: Query) -> Result<(), Problem> {
        let id = query.id.clone();
        let problem = |field: &str, message: String| Problem::new(Some(&id), Some(field), message);
        let (options, warnings) = self.reader.options(&query)?;
        let turns = self.reader.turns(&query, &options)?;
        let mut settings = self.settings.search.clone();
        let mut notes = Vec::new();
        for (key, value) in &query.override_settings {
            match settings.set::<G>(key, value) {
                Ok(Setting::Taken) => {}
                Ok(Setting::NotSupported(why)) => notes.push(problem(
                    "overrideSettings",
                    format!("`{key}` = {value} is not supported: {why}; the query is answered without it"),
                )),
                Ok(Setting::Unknown) => notes.push(problem(
                    "overrideSettings",
                    format!("unknown setting `{key}`, ignored"),
                )),
                Err(why) => return Err(problem("overrideSettings", why)),
            }
        }
        if let Some(visits) = query.max_visits {
            settings.visits = visits;
        }
        if let Some(pv_len) = query.analysis_pv_len {
            settings.pv_len = pv_len;
        }
        let include_ownership = query.include_ownership || query.include_moves_ownership;
        if include_ownership && !self.predicts_ownership() {
            notes.push(problem(
                if query.include_ownership {
                    "includeOwnership"
                } else {
                    "includeMovesOwnership"
                },
                "this bot predicts no ownership; the query is answered without it".to_owned(),
            ));
        }
        self.out
            .extend(warnings.iter().chain(&notes).map(Problem::warning_line));
        let asked = Rc::new(Asked {
            id: id.clone(),
            settings,
            include_policy: query.include_policy,
            include_ownership: query.include_ownership,
            include_moves_ownership: query.include_moves_ownership,
            include_pv_visits: query.include_pv_visits,
            report_every: query
                .report_during_search_every
                .map(Duration::from_secs_f64),
        });
        for turn in turns {
            if turn.game.outcome().is_some() {
                self.out
                    .push(report::game_over(&asked, turn.number, &turn.game));
                continue;
            }
            if turn.game.is_chance() {
                let mut line = report::header(&id, turn.number, false);
                line.insert(
                    "error".to_owned(),
                    Value::from(format!(
                        "turn {} is chance's to decide (a roll to come): no side has a move \
                         to analyse there; analyse the turn after the roll",
                        turn.number
                    )),
                );
                line.insert("field".to_owned(), Value::from("analyzeTurns"));
                self.out.push(Value::Object(line).to_string());
                continue;
            }
            self.arrivals += 1;
            self.queue.push(Job {
                asked: Rc::clone(&asked),
                turn: turn.number,
                game: turn.game,
                filter: turn.filter,
                priority: turn.priority,
                order: self.arrivals,
            });
        }
        Ok(())
    }
}
