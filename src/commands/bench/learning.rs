//! `ghast bench learning`: what a training run turns its compute into. Trains on a config for
//! a number of minutes, exports the bot, and rates it against fixed opponents at the bot's
//! visits and at fewer, reporting scores, Elo with 95% intervals and the CPU-seconds spent.

use crate::InputError;
use crate::commands::arena::{default_threads, progress_bar};
use crate::commands::registry::{self, GameWork, for_game};
use crate::commands::train::{config_error, config_name, create_run, export_bot, read_config_text};
use anyhow::Context;
use arena::{Match, MatchSettings, PlayerSpec};
use clap::Args as ClapArgs;
use game::Planes;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;
use train::{Limit, Role, RunConfig, RunDir};

#[derive(ClapArgs)]
pub struct Args {
    /// The run configuration to train with.
    #[arg(long, default_value = "configs/small.toml")]
    config: PathBuf,
    /// Minutes of training [default: the config's run.minutes].
    #[arg(long)]
    minutes: Option<f64>,
    /// The run folder [default: runs/learning-<config name>-<unix time>].
    #[arg(long)]
    run: Option<PathBuf>,
    /// Rate the bot of the existing run in --run instead of training a new one.
    #[arg(long, requires = "run")]
    rate_only: bool,
    /// Opponents, comma-separated player specs (see `ghast arena --help`).
    #[arg(long, value_delimiter = ',', default_value = "uct:1000,greedy,random")]
    opponents: Vec<String>,
    /// Visit budgets to rate the bot at besides its bundle's, comma-separated.
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
    score: f64,
    elo: f64,
    elo_lower: f64,
    elo_upper: f64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let opponents: Vec<PlayerSpec> = args
        .opponents
        .iter()
        .map(|spec| {
            spec.parse()
                .map_err(|e: arena::SpecError| InputError(e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    if let Some(zero) = args.visits.iter().find(|&&v| v == 0) {
        return Err(InputError(format!("--visits {zero}: must be at least 1")).into());
    }
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
    let game = registry::config_game(&text).map_err(|error| config_error(&path, error))?;
    let learn = Learn {
        args: &args,
        run: &run,
        path: &path,
        text: &text,
        opponents: &opponents,
    };
    for_game(
        &game,
        &format!("config {}", path.display()),
        "[game] name",
        learn,
    )
}

/// Training and rating, in the game the config names.
struct Learn<'a> {
    args: &'a Args,
    run: &'a RunDir,
    path: &'a Path,
    text: &'a str,
    opponents: &'a [PlayerSpec],
}

impl GameWork for Learn<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        let Learn {
            args,
            run,
            path,
            text,
            opponents,
        } = self;
        let config: RunConfig<G::Options> =
            RunConfig::parse(text).map_err(|error| config_error(path, error))?;
        learn::<G>(args, run, path, &config, text, opponents)
    }
}

fn learn<G: Planes>(
    args: &Args,
    run: &RunDir,
    path: &Path,
    config: &RunConfig<G::Options>,
    text: &str,
    opponents: &[PlayerSpec],
) -> anyhow::Result<()> {
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
            config,
            Limit::Minutes(minutes),
            Role::Whole,
            nn::DeviceChoice::Best,
        )
        .with_context(|| format!("training run {}", run.root().display()))?;
        export_bot::<G>(run, config)?;
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
    let budgets = std::iter::once(None).chain(args.visits.iter().map(|&v| Some(v)));
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
                score: stats.score,
                elo: stats.elo,
                elo_lower: stats.elo_lower,
                elo_upper: stats.elo_upper,
            });
        }
    }
    let report = Report {
        config: path.display().to_string(),
        run: run.root().to_owned(),
        training,
        generation: bundle.checkpoint.provenance.generation,
        bot_visits: bundle.settings.visits,
        matches,
        rating_cpu_seconds: super::cpu_seconds() - rating_cpu,
    };
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

fn print_report(report: &Report, saved: &Path) {
    match &report.training {
        Some(t) => println!(
            "{}: {:.1} minutes, generation {}, {} steps, {} games, {:.0} CPU-seconds ({:.2} cores busy)",
            report.config,
            t.minutes,
            report.generation,
            t.steps,
            t.games,
            t.cpu_seconds,
            t.cpu_seconds / t.wall_seconds.max(1e-9)
        ),
        None => println!("{}: generation {}", report.run.display(), report.generation),
    }
    println!(
        "{:<12} {:>6}  {:<10} {:>6}  Elo [95%]",
        "opponent", "visits", "W-D-L", "score"
    );
    for row in &report.matches {
        println!(
            "{:<12} {:>6}  {:<10} {:>5.1}%  {:+.0} [{:+.0}, {:+.0}]",
            row.opponent,
            row.visits,
            format!("{}-{}-{}", row.wins, row.draws, row.losses),
            100.0 * row.score,
            row.elo,
            row.elo_lower,
            row.elo_upper
        );
    }
    println!(
        "rating: {:.0} CPU-seconds; report: {}",
        report.rating_cpu_seconds,
        saved.display()
    );
}

fn default_run(config: &Path) -> PathBuf {
    let name = config_name(config);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    PathBuf::from("runs").join(format!("learning-{name}-{now}"))
}
