//! The engine: queries become jobs (one per turn to analyse) in a queue ordered by priority;
//! up to [`Settings::positions_in_flight`] of them are searched at once, and every step of
//! their searches sends all their leaves to the evaluator in one batch, as self-play's games
//! do. A search that reaches its visits is reported and its place goes to the next job.
//!
//! A failed device ends the engine: every query under way or queued gets an error line with
//! the device's words, and [`Engine::serve`] returns the error (KataGo ends the process).

use crate::protocol::{ActionKind, Problem, Query, Request, Restriction, parse_line};
use crate::report::{self, Perspective};
use game::rules::{self, Rule};
use game::{
    DeviceError, Evaluation, Evaluator, Game, GtpGame, GtpWork, Planes, ServeError, Side,
    parse_colour,
};
use mcts::{Batch, MoveFilter, MoveRestriction, SearchConfig, Tree};
use serde_json::Value;
use std::collections::{BTreeSet, BinaryHeap};
use std::io::{self, BufRead, Write};
use std::rc::Rc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Why a query was not admitted: a problem with it, answered with an error line, or the
/// device, which ends the engine.
enum Refusal {
    Problem(Problem),
    Device(DeviceError),
}

impl From<Problem> for Refusal {
    fn from(problem: Problem) -> Self {
        Refusal::Problem(problem)
    }
}

/// How the engine searches and reports.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Visits of a query that gives no `maxVisits`.
    pub visits: u32,
    /// Positions searched at once, whose leaves share the evaluator's batches (KataGo's
    /// `numAnalysisThreads`).
    pub positions_in_flight: usize,
    /// Whose view win rates, leads and utilities are given from.
    pub perspective: Perspective,
    /// Moves in a principal variation at most.
    pub pv_len: usize,
    pub search: SearchConfig,
    pub seed: u64,
}

/// KataGo's names of its Go rule sets: a query naming one the game does not play is answered
/// under the game's own rules, with a warning; any other name is an error.
const KATAGO_RULE_SETS: &[&str] = &[
    "tromp-taylor",
    "chinese",
    "chinese-ogs",
    "chinese-kgs",
    "japanese",
    "korean",
    "stone-scoring",
    "aga",
    "bga",
    "new-zealand",
    "aga-button",
];

/// [`GtpGame::set_up`] of a game `G`.
type SetUp<G> = fn(&<G as Game>::Options, &[(Side, usize)], Side) -> Result<G, String>;

/// What a game that speaks GTP offers a Go tool, read once by [`Game::with_gtp`].
struct GoHooks<G: Game> {
    set_up: SetUp<G>,
    katago_rules: Option<&'static str>,
}

struct HooksOf;

impl<G: Game> GtpWork<G> for HooksOf {
    type Output = GoHooks<G>;

    fn run(self) -> GoHooks<G>
    where
        G: GtpGame,
    {
        GoHooks {
            set_up: G::set_up,
            katago_rules: G::KATAGO_RULES,
        }
    }
}

/// What a query asked that every one of its turns shares.
#[derive(Debug)]
pub(crate) struct Asked {
    pub id: String,
    pub visits: u32,
    pub include_policy: bool,
    pub include_ownership: bool,
    pub include_pv_visits: bool,
    report_every: Option<Duration>,
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

/// A job being searched; its tree is at the same index of [`Engine::trees`].
struct Active<G: Game> {
    job: Job<G>,
    last_report: Instant,
    /// The network's policy at the root, over all actions, where the query asked for it.
    policy: Option<Vec<f32>>,
    /// The network's ownership at the root, a value a cell, where the query asked for it.
    ownership: Option<Vec<f32>>,
}

/// The analysis engine of one bot: a network (any [`Evaluator`]) and the game's options it
/// was trained on.
pub struct Engine<G: Planes, E: Evaluator<G>> {
    options: G::Options,
    settings: Settings,
    evaluator: E,
    go: Option<GoHooks<G>>,
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
}

impl<G: Planes, E: Evaluator<G>> Engine<G, E> {
    /// An engine for positions under `options` (the bot's), evaluated by `evaluator`.
    pub fn new(options: G::Options, evaluator: E, settings: Settings) -> Self {
        Engine {
            options,
            settings,
            evaluator,
            go: G::with_gtp(HooksOf),
            queue: BinaryHeap::new(),
            active: Vec::new(),
            trees: Vec::new(),
            spare_trees: Vec::new(),
            batch: Batch::new(),
            arrivals: 0,
            out: Vec::new(),
            positions_searched: 0,
            predicts_ownership: None,
        }
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
    /// actions and finished games. A blank line is skipped. Fails only with the device (see
    /// [`Engine::step`]).
    pub fn handle_line(&mut self, line: &str) -> Result<(), DeviceError> {
        if line.trim().is_empty() {
            return Ok(());
        }
        match parse_line(line) {
            Err(problem) => self.out.push(problem.error_line()),
            Ok((request, warnings)) => {
                self.out.extend(warnings.iter().map(Problem::warning_line));
                match request {
                    Request::Action(action) => self.act(action),
                    Request::Analyse(query) => {
                        let id = query.id.clone();
                        match self.admit(*query) {
                            Ok(()) => {}
                            Err(Refusal::Problem(problem)) => self.out.push(problem.error_line()),
                            Err(Refusal::Device(error)) => {
                                self.out.push(
                                    Problem::new(Some(&id), None, error.to_string()).error_line(),
                                );
                                return Err(self.fail_every_job(error));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
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
        self.start_queued()?;
        if self.active.is_empty() {
            return Ok(false);
        }
        self.batch.step(&mut self.trees, &mut self.evaluator)?;
        let now = Instant::now();
        for index in (0..self.active.len()).rev() {
            if self.trees[index].is_done() {
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
                    Ok(line) => {
                        if let Err(error) = self.handle_input(line?) {
                            break error;
                        }
                    }
                    Err(_) => open = false,
                }
            }
            let mut failed = None;
            while open && failed.is_none() {
                match received.try_recv() {
                    Ok(line) => failed = self.handle_input(line?).err(),
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => open = false,
                }
            }
            if let Some(error) = failed {
                break error;
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
    fn handle_input(&mut self, line: Result<String, Vec<u8>>) -> Result<(), DeviceError> {
        match line {
            Ok(line) => return self.handle_line(&line),
            Err(bytes) => self.out.push(
                Problem::new(
                    None,
                    None,
                    format!("a line of {} bytes is not UTF-8 text", bytes.len()),
                )
                .error_line(),
            ),
        }
        Ok(())
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
            // This engine keeps no evaluations between searches: nothing to clear.
            ActionKind::ClearCache => {}
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
                policy: active.policy.as_deref(),
                ownership: active.ownership.as_deref(),
            },
            &self.settings,
            during_search,
        )
    }

    /// Whether the evaluator predicts ownership, asked of it once (a network pass) and kept:
    /// tools such as katawrap ask for ownership in every query.
    fn predicts_ownership(&mut self, options: &G::Options) -> Result<bool, DeviceError> {
        if let Some(predicts) = self.predicts_ownership {
            return Ok(predicts);
        }
        let predicts = self.evaluator.ownership(&G::new(options))?.is_some();
        self.predicts_ownership = Some(predicts);
        Ok(predicts)
    }

    /// Moves queued jobs into the free places, best first.
    fn start_queued(&mut self) -> Result<(), DeviceError> {
        while self.active.len() < self.settings.positions_in_flight.max(1) {
            let Some(job) = self.queue.pop() else {
                return Ok(());
            };
            let mut tree = match self.spare_trees.pop() {
                Some(mut tree) => {
                    tree.reset(&job.game);
                    tree
                }
                None => Tree::new(
                    job.game.clone(),
                    self.settings.search.clone(),
                    self.settings.seed ^ job.order,
                ),
            };
            tree.set_budget(job.asked.visits);
            tree.set_move_filter(job.filter.clone());
            let policy = if job.asked.include_policy {
                let mut evaluation = [Evaluation::default()];
                self.evaluator
                    .evaluate(&[tree.searched_game()], &mut evaluation)?;
                let [evaluation] = evaluation;
                Some(evaluation.policy)
            } else {
                None
            };
            let ownership = if job.asked.include_ownership {
                self.evaluator.ownership(tree.searched_game())?
            } else {
                None
            };
            self.active.push(Active {
                job,
                last_report: Instant::now(),
                policy,
                ownership,
            });
            self.trees.push(tree);
        }
        Ok(())
    }

    /// Turns a query into its jobs, or answers it at once (finished games, chance's turns).
    fn admit(&mut self, query: Query) -> Result<(), Refusal> {
        let id = query.id.clone();
        let problem = |field: &str, message: String| Problem::new(Some(&id), Some(field), message);
        let options = self.options_for(&query)?;
        if query.include_ownership && !self.predicts_ownership(&options).map_err(Refusal::Device)? {
            self.out.push(
                problem(
                    "includeOwnership",
                    "this bot predicts no ownership; the query is answered without it".to_owned(),
                )
                .warning_line(),
            );
        }
        let mut game = self.start(&query, &options)?;
        let turns = query
            .analyze_turns
            .clone()
            .unwrap_or_else(|| vec![query.moves.len()]);
        if let Some(&late) = turns.iter().find(|&&turn| turn > query.moves.len()) {
            return Err(Refusal::Problem(problem(
                "analyzeTurns",
                format!(
                    "turn {late} is past the end: the query has {} moves, so turns 0..={}",
                    query.moves.len(),
                    query.moves.len()
                ),
            )));
        }
        let mut positions: Vec<Option<G>> = vec![None; query.moves.len() + 1];
        if turns.contains(&0) {
            positions[0] = Some(game.clone());
        }
        for (index, (player, text)) in query.moves.iter().enumerate() {
            play(&mut game, player.as_deref(), text).map_err(|why| {
                let by = player
                    .as_ref()
                    .map_or(String::new(), |p| format!(" by {p}"));
                problem("moves", format!("move {} `{text}`{by}: {why}", index + 1))
            })?;
            if turns.contains(&(index + 1)) {
                positions[index + 1] = Some(game.clone());
            }
        }
        let asked = Rc::new(Asked {
            id: id.clone(),
            visits: query.max_visits.unwrap_or(self.settings.visits),
            include_policy: query.include_policy,
            include_ownership: query.include_ownership,
            include_pv_visits: query.include_pv_visits,
            report_every: query
                .report_during_search_every
                .map(Duration::from_secs_f64),
        });
        for (k, &turn) in turns.iter().enumerate() {
            let game = positions[turn].clone().expect("kept above");
            if game.outcome().is_some() {
                self.out
                    .push(report::game_over(&asked, turn, &game, &self.settings));
                continue;
            }
            if game.is_chance() {
                let mut line = report::header(&id, turn, false);
                line.insert(
                    "error".to_owned(),
                    Value::from(format!(
                        "turn {turn} is chance's to decide (a roll to come): no side has a move \
                         to analyse there; analyse the turn after the roll"
                    )),
                );
                line.insert("field".to_owned(), Value::from("analyzeTurns"));
                self.out.push(Value::Object(line).to_string());
                continue;
            }
            let filter = self.filter_for(&query, &game, &options)?;
            self.arrivals += 1;
            self.queue.push(Job {
                asked: Rc::clone(&asked),
                turn,
                game,
                filter,
                priority: query
                    .priorities
                    .as_ref()
                    .map_or(query.priority, |priorities| priorities[k]),
                order: self.arrivals,
            });
        }
        Ok(())
    }

    /// The bot's options with the query's rules, komi and board size; a game the network
    /// cannot read (another board size) is refused.
    fn options_for(&mut self, query: &Query) -> Result<G::Options, Problem> {
        let id = Some(query.id.as_str());
        let keys = rules::keys_of::<G::Options>();
        let mut options = self.options.clone();
        let mut apply = |field: &str, rules: Vec<Rule>| -> Result<(), Problem> {
            if let Some(unknown) = rules.iter().find(|rule| !keys.contains(&rule.key.as_str())) {
                return Err(Problem::new(
                    id,
                    Some(field),
                    format!(
                        "{} has no rule `{}`; its rules are {}",
                        G::NAME,
                        unknown.key,
                        keys.join(", ")
                    ),
                ));
            }
            options = rules::with_rules(&options, &rules).map_err(|why| {
                Problem::new(id, Some(field), format!("{why} (rules of {})", G::NAME))
            })?;
            Ok(())
        };
        match &query.rules {
            Some(Value::Object(object)) => {
                let rules = object
                    .iter()
                    .map(|(key, value)| {
                        toml::Value::try_from(value)
                            .map(|value| Rule {
                                key: key.replace('-', "_"),
                                value,
                            })
                            .map_err(|_| {
                                Problem::new(
                                    id,
                                    Some("rules"),
                                    format!("rule `{key}`: {value} is not a value a rule takes"),
                                )
                            })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                apply("rules", rules)?;
            }
            Some(Value::String(name)) => {
                if let Some(warning) = self.katago_rules(id, name)? {
                    self.out.push(warning.warning_line());
                }
            }
            _ => {}
        }
        if let Some(komi) = query.komi {
            apply(
                "komi",
                vec![Rule {
                    key: "komi".to_owned(),
                    value: toml::Value::Float(komi),
                }],
            )?;
        }
        if query.board_x_size.is_some() || query.board_y_size.is_some() {
            let (x, y) = (query.board_x_size, query.board_y_size);
            let size = x.or(y).expect("one is given");
            if y.is_some_and(|y| y != size) {
                return Err(Problem::new(
                    id,
                    Some("boardYSize"),
                    format!(
                        "boardXSize {size} and boardYSize {}: {}'s boards are square",
                        y.unwrap_or(size),
                        G::NAME
                    ),
                ));
            }
            let field = if x.is_some() {
                "boardXSize"
            } else {
                "boardYSize"
            };
            apply(
                field,
                vec![Rule {
                    key: "size".to_owned(),
                    value: toml::Value::Integer(size),
                }],
            )?;
        }
        let bot = G::new(&self.options);
        let asked = G::new(&options);
        if asked.plane_shape() != bot.plane_shape() || asked.num_actions() != bot.num_actions() {
            let field = if query.board_x_size.is_some() {
                "boardXSize"
            } else {
                "rules"
            };
            return Err(Problem::new(
                id,
                Some(field),
                format!(
                    "the bot's network reads {} positions of {}x{} cells, and these rules ask for {}x{}: \
                     use a bot trained on that board",
                    G::NAME,
                    bot.plane_shape().height,
                    bot.plane_shape().width,
                    asked.plane_shape().height,
                    asked.plane_shape().width
                ),
            ));
        }
        Ok(options)
    }

    /// Checks a `rules` string: KataGo's name of this game's rules is fine; the name of
    /// another of KataGo's rule sets gets a warning, since the game's own rules are used.
    fn katago_rules(&self, id: Option<&str>, name: &str) -> Result<Option<Problem>, Problem> {
        let own = self.go.as_ref().and_then(|go| go.katago_rules).ok_or_else(|| {
            Problem::new(
                id,
                Some("rules"),
                format!(
                    "a rules string names one of KataGo's Go rule sets; {} takes an object of its \
                     rules ({})",
                    G::NAME,
                    rules::keys_of::<G::Options>().join(", ")
                ),
            )
        })?;
        let name = name.to_ascii_lowercase();
        if name == own {
            return Ok(None);
        }
        if KATAGO_RULE_SETS.contains(&name.as_str()) {
            return Ok(Some(Problem::new(
                id,
                Some("rules"),
                format!(
                    "{} plays KataGo's `{own}` rules only; analysed under them, not `{name}`",
                    G::NAME
                ),
            )));
        }
        Err(Problem::new(
            id,
            Some("rules"),
            format!(
                "unknown rules `{name}`: KataGo's rule sets are {}",
                KATAGO_RULE_SETS.join(", ")
            ),
        ))
    }

    /// The position before the first move: the game's start, or its set-up stones and first
    /// player where the query gives them.
    fn start(&self, query: &Query, options: &G::Options) -> Result<G, Problem> {
        let id = Some(query.id.as_str());
        let start = G::new(options);
        let first_player = match &query.initial_player {
            Some(player) => Some(
                parse_colour::<G>(player)
                    .map_err(|why| Problem::new(id, Some("initialPlayer"), why))?,
            ),
            None => None,
        };
        if query.initial_stones.is_empty()
            && first_player.is_none_or(|side| side == start.to_move())
        {
            return Ok(start);
        }
        let field = if query.initial_stones.is_empty() {
            "initialPlayer"
        } else {
            "initialStones"
        };
        let go = self.go.as_ref().ok_or_else(|| {
            Problem::new(
                id,
                Some(field),
                format!(
                    "{} places no stones and starts with its first player",
                    G::NAME
                ),
            )
        })?;
        let stones = query
            .initial_stones
            .iter()
            .map(|(player, text)| {
                let side = parse_colour::<G>(player)
                    .map_err(|why| Problem::new(id, Some("initialStones"), why))?;
                let action = start.parse_action(text).map_err(|why| {
                    Problem::new(id, Some("initialStones"), format!("`{text}`: {why}"))
                })?;
                Ok((side, action))
            })
            .collect::<Result<Vec<_>, Problem>>()?;
        let first_mover = query
            .moves
            .first()
            .and_then(|(player, _)| parse_colour::<G>(player.as_deref()?).ok());
        let to_move = first_player.or(first_mover).unwrap_or(start.to_move());
        (go.set_up)(options, &stones, to_move).map_err(|why| Problem::new(id, Some(field), why))
    }

    /// The query's `avoidMoves` and `allowMoves` for the position `game`.
    fn filter_for(
        &self,
        query: &Query,
        game: &G,
        options: &G::Options,
    ) -> Result<Option<MoveFilter>, Problem> {
        let start = G::new(options);
        let read = |field: &str, entry: &Restriction, allow_only: bool| {
            let problem = |why: String| Problem::new(Some(&query.id), Some(field), why);
            let side = parse_colour::<G>(&entry.player).map_err(problem)?;
            let actions = entry
                .moves
                .iter()
                .map(|text| {
                    game.parse_action(text)
                        .or_else(|_| start.parse_action(text))
                        .map_err(|why| {
                            problem(format!("`{text}` is not a move of {}: {why}", G::NAME))
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(MoveRestriction {
                side,
                actions,
                until_depth: entry.until_depth,
                allow_only,
            })
        };
        let restrictions = query
            .avoid_moves
            .iter()
            .map(|entry| read("avoidMoves", entry, false))
            .chain(
                query
                    .allow_moves
                    .iter()
                    .map(|entry| read("allowMoves", entry, true)),
            )
            .collect::<Result<Vec<_>, Problem>>()?;
        Ok((!restrictions.is_empty()).then_some(MoveFilter { restrictions }))
    }
}

/// Plays one move of a query: at a side's decision, `player` (where given) must be the side
/// to move and `text` a whole move as the game writes it, or one decision of it; at chance's,
/// `text` is the outcome.
fn play<G: Game>(game: &mut G, player: Option<&str>, text: &str) -> Result<(), String> {
    if let Some(result) = game.result_text() {
        return Err(format!("the game is over ({result})"));
    }
    if game.is_chance() {
        let outcome = game.parse_action(text)?;
        game.apply(outcome);
        return Ok(());
    }
    let side = player.map_or(Ok(game.to_move()), parse_colour::<G>)?;
    if side != game.to_move() {
        return Err(format!(
            "{} is to move, not {}",
            G::COLOURS[game.to_move().index()],
            G::COLOURS[side.index()]
        ));
    }
    // A whole move, or one decision of a move of several (as a result's `pv` lists them):
    // the same side then goes on with the rest.
    let actions = match game.parse_move(text) {
        Ok(actions) => actions,
        Err(why) => vec![game.parse_action(text).map_err(|_| why)?],
    };
    for action in actions {
        game.apply(action);
    }
    Ok(())
}
