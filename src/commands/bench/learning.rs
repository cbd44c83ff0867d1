//! `ghast bench learning`: what a training run turns its compute into. Trains on a config for
//! a number of minutes, exports the bot, and rates it against fixed opponents at the bot's
//! visits and at fewer, reporting scores, Elo with 95% intervals and the CPU-seconds spent.
//! With `--pair`, two configs train on the same seeds one run after the other and are rated
//! alike: a pair as BENCHMARKS.md judges a switch by, with its table.

use crate::InputError;
use crate::commands::arena::{default_threads, progress_bar};
use crate::commands::registry::{self, GameWork, for_game};
use crate::commands::train::{
    config_error, config_name, create_run, export_bot, read_config_text, set_config_value,
};
use anyhow::Context;
use arena::rating::{MatchStats, Pentanomial};
use arena::{Match, MatchSettings, PlayerSpec};
use clap::Args as ClapArgs;
use game::Planes;
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use train::{Limit, Role, RunConfig, RunDir};

#[derive(ClapArgs)]
pub struct Args {
    /// The run configuration to train with (with --pair: the pair's first arm, A).
    #[arg(long, default_value = "configs/small.toml")]
    config: PathBuf,
    /// A second configuration, B, of the same game: A and B each train on --seeds seeds, one
    /// run after the other (A, B, A, B, ...: so that the machine's load drifts over both
    /// alike), are rated alike, and a table ready for BENCHMARKS.md compares them. With
    /// --rate-only, the pair's runs in --run are rated again (against other opponents, say).
    #[arg(long)]
    pair: Option<PathBuf>,
    /// With --pair: training seeds of each arm, the config's `run.seed` and the ones after it.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=16))]
    seeds: u64,
    /// Minutes of training [default: the config's run.minutes].
    #[arg(long)]
    minutes: Option<f64>,
    /// The run folder [default: runs/learning-<config name>-<unix time>]; with --pair the
    /// folder of the pair's runs, one sub-folder each [default: runs/pair-<A>-<B>-<unix time>].
    #[arg(long)]
    run: Option<PathBuf>,
    /// Rate the bot of the existing run in --run instead of training a new one (with --pair:
    /// the runs of the pair in --run).
    #[arg(long, requires = "run")]
    rate_only: bool,
    /// Opponents, comma-separated player specs (see `ghast arena --help`) [default: the
    /// game's strongest independent players, `ghast games` lists them: uct:10000 and
    /// uct:100000 for Ghast, GNU Go level 10 and Pachi at 10,000 playouts for Go (with
    /// /usr/games on the PATH, and .tools/pachi from scripts/setup-engines.sh), uct:10000
    /// for the others].
    #[arg(long, value_delimiter = ',')]
    opponents: Vec<String>,
    /// Visit budgets to rate the bot at besides its bundle's, comma-separated (the bundle's
    /// own, as in `--visits 800` for an 800-visit bot, rates it at those alone).
    #[arg(long, value_delimiter = ',', default_value = "200")]
    visits: Vec<u32>,
    /// Games per match (even: each opening is played with both colours).
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// Games played at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the match openings, the same for every run so results compare.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    config: String,
    run: PathBuf,
    /// The config's `run.seed` the run trained with.
    seed: u64,
    training: Option<Training>,
    generation: u64,
    bot_visits: u32,
    matches: Vec<MatchRow>,
    rating_cpu_seconds: f64,
}

#[derive(Serialize)]
struct Training {
    minutes: f64,
    steps: u64,
    games: u64,
    /// CPU time of the whole process (every thread) while it trained.
    cpu_seconds: f64,
    wall_seconds: f64,
}

#[derive(Serialize)]
struct MatchRow {
    opponent: String,
    visits: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    /// Colour-swapped game pairs by the bot's points in them, 0 to 2 in half points (the
    /// statistics of a match; arms of a pair add them up).
    pairs: [u32; 5],
    score: f64,
    elo: f64,
    elo_lower: f64,
    elo_upper: f64,
}

/// A pair: each arm's runs, in the order they trained.
#[derive(Serialize)]
struct PairReport {
    arms: [String; 2],
    runs: Vec<Report>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(zero) = args.visits.iter().find(|&&v| v == 0) {
        return Err(InputError(format!("--visits {zero}: must be at least 1")).into());
    }
    match &args.pair {
        Some(second) => run_pair(&args, second),
        None => run_one(&args),
    }
}

fn run_one(args: &Args) -> anyhow::Result<()> {
    let run = RunDir::new(
        args.run
            .clone()
            .unwrap_or_else(|| default_run(&args.config)),
    );
    // A finished run is rated with the config it saved, a new one trains on `--config`.
    let path = if args.rate_only {
        run.config()
    } else {
        args.config.clone()
    };
    let text = read_config_text(&path)?;
    let game = config_game(&path, &text)?;
    let learn = Learn {
        args,
        run: &run,
        path: &path,
        text: &text,
    };
    let report = for_game(
        &game,
        &format!("config {}", path.display()),
        "[game] name",
        learn,
    )?;
    let json = serde_json::to_string_pretty(&report)?;
    let saved = run.root().join("learning.json");
    train::write_atomically(&saved, json.as_bytes())?;
    if args.json {
        println!("{json}");
    } else {
        print_report(&report, &saved);
    }
    Ok(())
}

fn run_pair(args: &Args, second: &Path) -> anyhow::Result<()> {
    let paths = [args.config.clone(), second.to_owned()];
    let texts = [read_config_text(&paths[0])?, read_config_text(&paths[1])?];
    let games = [
        config_game(&paths[0], &texts[0])?,
        config_game(&paths[1], &texts[1])?,
    ];
    if games[0] != games[1] {
        return Err(InputError(format!(
            "--pair {}: its game is {}, --config {}'s is {}; a pair compares runs of one game",
            paths[1].display(),
            games[1],
            paths[0].display(),
            games[0]
        ))
        .into());
    }
    let names = arm_names(&paths);
    let folder = args.run.clone().unwrap_or_else(|| {
        PathBuf::from("runs").join(format!("pair-{}-{}-{}", names[0], names[1], unix_time()))
    });
    let pair = Pair {
        args,
        folder: &folder,
        paths: &paths,
        texts: &texts,
        names: &names,
    };
    let report = for_game(
        &games[0],
        &format!("config {}", paths[0].display()),
        "[game] name",
        pair,
    )?;
    let json = serde_json::to_string_pretty(&report)?;
    let saved = folder.join("pair.json");
    train::write_atomically(&saved, json.as_bytes())?;
    if args.json {
        println!("{json}");
    } else {
        print!("{}", pair_table(&report));
        println!("report: {}", saved.display());
    }
    Ok(())
}

fn config_game(path: &Path, text: &str) -> anyhow::Result<String> {
    registry::config_game(text).map_err(|error| config_error(path, error).into())
}

/// The arms' names in tables and folders: the configs' file names, or `A-` and `B-` before
/// them where the two are the same.
fn arm_names(paths: &[PathBuf; 2]) -> [String; 2] {
    let names = paths.clone().map(|path| config_name(&path));
    if names[0] == names[1] {
        [format!("A-{}", names[0]), format!("B-{}", names[1])]
    } else {
        names
    }
}

/// Training and rating one run, in the game the config names.
struct Learn<'a> {
    args: &'a Args,
    run: &'a RunDir,
    path: &'a Path,
    text: &'a str,
}

impl GameWork for Learn<'_> {
    type Output = Report;

    fn run<G: Planes>(self) -> anyhow::Result<Report> {
        let opponents = opponents::<G>(self.args)?;
        learn::<G>(self.args, self.run, self.path, self.text, &opponents)
    }
}

/// Both arms of a pair on every seed, in the game the configs name.
struct Pair<'a> {
    args: &'a Args,
    folder: &'a Path,
    paths: &'a [PathBuf; 2],
    texts: &'a [String; 2],
    names: &'a [String; 2],
}

impl GameWork for Pair<'_> {
    type Output = PairReport;

    fn run<G: Planes>(self) -> anyhow::Result<PairReport> {
        let opponents = opponents::<G>(self.args)?;
        let mut runs = Vec::new();
        for offset in 0..self.args.seeds {
            for arm in 0..2 {
                let first: RunConfig<G::Options> = RunConfig::parse(&self.texts[arm])
                    .map_err(|e| config_error(&self.paths[arm], e))?;
                let seed = first.run.seed + offset;
                let run = RunDir::new(self.folder.join(format!("{}-seed{seed}", self.names[arm])));
                // A run is rated with the config it saved, a new one trains on the arm's
                // config with the seed set.
                let (path, text) = if self.args.rate_only {
                    let saved = run.config();
                    let text = read_config_text(&saved)?;
                    (saved, text)
                } else {
                    let path = &self.paths[arm];
                    let seed_value = i64::try_from(seed)
                        .map_err(|_| config_error(path, format!("seed {seed} is out of range")))?;
                    let text = set_config_value(&self.texts[arm], "run", "seed", seed_value)
                        .map_err(|e| config_error(path, e))?;
                    (path.clone(), text)
                };
                eprintln!(
                    "pair: arm {} ({}), seed {seed}, in {}",
                    ["A", "B"][arm],
                    path.display(),
                    run.root().display()
                );
                let report = learn::<G>(self.args, &run, &path, &text, &opponents)?;
                if !self.args.json {
                    print_report(&report, run.root());
                }
                runs.push(report);
            }
        }
        Ok(PairReport {
            arms: self.names.clone(),
            runs,
        })
    }
}

/// `--opponents`, or the game's strongest independent players; each external engine must be
/// there before a run spends its minutes training.
fn opponents<G: Planes>(args: &Args) -> anyhow::Result<Vec<PlayerSpec>> {
    let specs: Vec<&str> = if args.opponents.is_empty() {
        G::STRONGEST_OPPONENTS.to_vec()
    } else {
        args.opponents.iter().map(String::as_str).collect()
    };
    let search_path = std::env::var_os("PATH");
    specs
        .into_iter()
        .map(|text| {
            let spec: PlayerSpec = text
                .parse()
                .map_err(|e: arena::SpecError| InputError(format!("--opponents: {e}")))?;
            if let Some(program) = spec.missing_program(search_path.as_deref()) {
                return Err(InputError(format!(
                    "--opponents: {text}: `{program}` is not found (Debian puts GNU Go in \
                     /usr/games, which the PATH needs; scripts/setup-engines.sh installs GNU Go \
                     and builds Pachi into .tools/pachi, which is found from the repository's root)"
                ))
                .into());
            }
            Ok(spec)
        })
        .collect()
}

fn learn<G: Planes>(
    args: &Args,
    run: &RunDir,
    path: &Path,
    text: &str,
    opponents: &[PlayerSpec],
) -> anyhow::Result<Report> {
    let config: RunConfig<G::Options> =
        RunConfig::parse(text).map_err(|error| config_error(path, error))?;
    let training = if args.rate_only {
        None
    } else {
        let minutes = args.minutes.unwrap_or(config.run.minutes);
        if !(minutes > 0.0 && minutes <= 7.0 * 24.0 * 60.0) {
            return Err(InputError(format!(
                "--minutes {minutes}: expected more than 0 and at most a week"
            ))
            .into());
        }
        create_run(run, text)?;
        let (cpu, wall) = (super::cpu_seconds(), Instant::now());
        let summary = train::train::<G>(
            run,
            &config,
            Limit::Minutes(minutes),
            Role::Whole,
            nn::DeviceChoice::Best,
        )
        .with_context(|| format!("training run {}", run.root().display()))?;
        export_bot::<G>(run, &config)?;
        Some(Training {
            minutes,
            steps: summary.steps,
            games: summary.games,
            cpu_seconds: super::cpu_seconds() - cpu,
            wall_seconds: wall.elapsed().as_secs_f64(),
        })
    };
    let bot = run.bot();
    let bundle = play::Bundle::<G>::load(&bot)
        .with_context(|| format!("cannot load the run's bot {}", bot.display()))?;
    let rating_cpu = super::cpu_seconds();
    // The bundle's own visits, then the others asked for (the bundle's again is left out).
    let budgets = std::iter::once(None).chain(
        args.visits
            .iter()
            .filter(|&&v| v != bundle.settings.visits)
            .map(|&v| Some(v)),
    );
    let mut matches = Vec::new();
    for visits in budgets {
        let player = PlayerSpec::Bundle {
            dir: bot.clone(),
            visits,
        };
        for opponent in opponents {
            let game_match = Match::<G> {
                options: config.game.clone(),
                a: &player,
                b: opponent,
                settings: MatchSettings {
                    games: args.games,
                    threads: args.threads.unwrap_or_else(default_threads),
                    opening_moves: 4,
                    sprt: None,
                    seed: args.seed,
                },
            };
            let bar = progress_bar(u64::from(args.games));
            bar.set_message(format!("{player} vs {opponent}"));
            let result = game_match.run(&mut |_| bar.inc(1));
            bar.finish_and_clear();
            let result = result.map_err(|e| InputError(e.to_string()))?;
            let stats = result.stats();
            matches.push(MatchRow {
                opponent: opponent.to_string(),
                visits: visits.unwrap_or(bundle.settings.visits),
                wins: result.wdl.wins,
                draws: result.wdl.draws,
                losses: result.wdl.losses,
                pairs: result.pairs.counts,
                score: stats.score,
                elo: stats.elo,
                elo_lower: stats.elo_lower,
                elo_upper: stats.elo_upper,
            });
        }
    }
    Ok(Report {
        config: path.display().to_string(),
        run: run.root().to_owned(),
        seed: config.run.seed,
        training,
        generation: bundle.description.provenance.generation,
        bot_visits: bundle.settings.visits,
        matches,
        rating_cpu_seconds: super::cpu_seconds() - rating_cpu,
    })
}

fn print_report(report: &Report, saved: &Path) {
    match &report.training {
        Some(t) => println!(
            "{}: {:.1} minutes, seed {}, generation {}, {} steps, {} games, {:.0} CPU-seconds ({:.2} cores busy)",
            report.config,
            t.minutes,
            report.seed,
            report.generation,
            t.steps,
            t.games,
            t.cpu_seconds,
            t.cpu_seconds / t.wall_seconds.max(1e-9)
        ),
        None => println!(
            "{}: seed {}, generation {}",
            report.run.display(),
            report.seed,
            report.generation
        ),
    }
    println!(
        "{:<12} {:>6}  {:<10} {:>6}  Elo [95%]",
        "opponent", "visits", "W-D-L", "score"
    );
    for row in &report.matches {
        println!(
            "{:<12} {:>6}  {:<10} {:>5.1}%  {}",
            row.opponent,
            row.visits,
            format!("{}-{}-{}", row.wins, row.draws, row.losses),
            100.0 * row.score,
            elo_text(row.elo, row.elo_lower, row.elo_upper)
        );
    }
    println!(
        "rating: {:.0} CPU-seconds; report: {}",
        report.rating_cpu_seconds,
        saved.display()
    );
}

fn elo_text(elo: f64, lower: f64, upper: f64) -> String {
    format!("{elo:+.0} [{lower:+.0}, {upper:+.0}]")
}

/// The pair as a Markdown table: a row per run, then a row per arm with its seeds' games
/// added up, then B's Elo minus A's, whose interval treats the arms' as independent.
fn pair_table(report: &PairReport) -> String {
    let Some(first) = report.runs.first() else {
        return String::new();
    };
    let columns: Vec<(String, u32)> = first
        .matches
        .iter()
        .map(|row| (row.opponent.clone(), row.visits))
        .collect();
    let mut out = String::from("| arm | seed | training |");
    for (opponent, visits) in &columns {
        write!(out, " `{opponent}`, {visits} visits |").expect("to a String");
    }
    out.push_str("\n| --- | --- | --- |");
    out.push_str(&" --- |".repeat(columns.len()));
    out.push('\n');
    let arm_of = |index: usize| index % 2;
    for (index, run) in report.runs.iter().enumerate() {
        let training = run.training.as_ref().map_or(String::new(), |t| {
            format!(
                "generation {}, {} steps, {} games, {:.0} CPU-s",
                run.generation, t.steps, t.games, t.cpu_seconds
            )
        });
        let seed = run.seed;
        write!(
            out,
            "| {} | {seed} | {training} |",
            report.arms[arm_of(index)]
        )
        .expect("to a String");
        for row in &run.matches {
            write!(
                out,
                " {}-{}-{}, {:.1}% |",
                row.wins,
                row.draws,
                row.losses,
                100.0 * row.score
            )
            .expect("to a String");
        }
        out.push('\n');
    }
    let mut arms: Vec<Vec<MatchStats>> = Vec::new();
    for arm in 0..2 {
        let runs: Vec<&Report> = report
            .runs
            .iter()
            .enumerate()
            .filter(|(index, _)| arm_of(*index) == arm)
            .map(|(_, run)| run)
            .collect();
        write!(out, "| **{}** | {} seeds | |", report.arms[arm], runs.len()).expect("to a String");
        let mut stats = Vec::new();
        for column in 0..columns.len() {
            let mut pairs = Pentanomial::default();
            let (mut wins, mut draws, mut losses) = (0, 0, 0);
            for run in &runs {
                let row = &run.matches[column];
                for (total, count) in pairs.counts.iter_mut().zip(row.pairs) {
                    *total += count;
                }
                (wins, draws, losses) = (wins + row.wins, draws + row.draws, losses + row.losses);
            }
            let stat = MatchStats::new(&pairs);
            write!(
                out,
                " **{wins}-{draws}-{losses}, {:.1}%, {}** |",
                100.0 * stat.score,
                elo_text(stat.elo, stat.elo_lower, stat.elo_upper)
            )
            .expect("to a String");
            stats.push(stat);
        }
        out.push('\n');
        arms.push(stats);
    }
    write!(
        out,
        "| {} - {} | | Elo [95%] |",
        report.arms[1], report.arms[0]
    )
    .expect("to a String");
    for (a, b) in arms[0].iter().zip(&arms[1]) {
        let half = |s: &MatchStats| (s.elo_upper - s.elo_lower) / 2.0;
        let difference = b.elo - a.elo;
        let spread = half(a).hypot(half(b));
        if difference.is_finite() && spread.is_finite() {
            write!(
                out,
                " {} |",
                elo_text(difference, difference - spread, difference + spread)
            )
            .expect("to a String");
        } else {
            out.push_str(" no interval: an arm scored 0% or 100% |");
        }
    }
    out.push('\n');
    out
}

fn default_run(config: &Path) -> PathBuf {
    let name = config_name(config);
    PathBuf::from("runs").join(format!("learning-{name}-{}", unix_time()))
}

fn unix_time() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
