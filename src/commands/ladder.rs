//! `ghast ladder --run DIR`: rates every generation of a training run together with fixed
//! baselines, caches the results so that a rerun only plays new pairings, and plots the
//! ratings against generation and training time. `ghast ladder --bot DIR --levels`: rates a
//! bundle's levels of play against the same baselines and writes them into its `bot.toml`.

use super::arena::{default_threads, progress_bar, warn_forfeit};
use super::registry::{GameWork, for_game};
use super::train::config_error;
use crate::InputError;
use arena::PlayerSpec;
use arena::ladder::{Ladder, LadderError, LadderEvent, LadderReport, LadderSettings};
use arena::levels::{GAMES_FILE, LevelSettings, rate_levels, spacing_problems};
use clap::Args as ClapArgs;
use game::Planes;
use indicatif::ProgressBar;
use mcts::SearchConfig;
use play::{Bundle, Level, LevelRating};
use std::path::{Path, PathBuf};
use train::{RunConfig, RunDir};

#[derive(ClapArgs)]
#[command(after_long_help = "\
Levels of play: `ghast ladder --bot DIR --levels` rates the bundle at several strengths, \
the last its full strength (bot.toml's visits, the most visited move), against fixed anchors, \
and writes them, weakest first by their measured Elo, with 95% intervals and the anchors they \
were measured on, into DIR/bot.toml for `ghast gtp --level N` and the page's level menu. \
The anchors are the game's own (`ghast games` lists them: for most games random, greedy and \
uct:100 to uct:100000; for Ghodak random, uct:1000, GNU Go levels 0, 5 and 10 and Pachi) or \
--baselines. Each level climbs the anchors from the one where the level below it stopped, \
--games/4 games against each while it scores 90% or more, then plays --games games against \
the first anchor it does not dominate and the one below, and --games against the next level \
up; the anchors it reached play their neighbours; one Bradley-Terry fit rates them all, the \
first anchor at 0. Every match is kept in DIR/levels-games.json as it ends: a ladder stopped \
part way, or run again with other levels, plays only the matches it lacks. It then names \
neighbours less than 100 Elo apart or with overlapping intervals (play more --games, or space \
the levels wider), and any level rated above full strength: noise, or a weaker setting that \
beats the bundle's own search. A level is VISITS[:TEMPERATURE[:RANDOM]]: visits per move, \
moves drawn from the search's policy^(1/TEMPERATURE) (under Gumbel search its improved policy; 0: the most \
visited), and a share RANDOM of moves played at random.

Examples:
  ghast ladder --run runs/small --every 25
  ghast ladder --bot models/ghast-size4 --levels --games 40
  ghast ladder --bot models/ghast-size4 --levels 1:1:0.5,1:1,8,100 --baselines random,uct:1000")]
pub struct Args {
    /// The training run's folder (checkpoints in RUN/models; results and plots go to
    /// RUN/ladder).
    #[arg(long, required_unless_present = "bot", conflicts_with = "bot")]
    run: Option<PathBuf>,
    /// A bot bundle whose levels of play to rate (with --levels).
    #[arg(long, requires = "levels")]
    bot: Option<PathBuf>,
    /// The levels below the bundle's full strength, weakest first, comma separated, each
    /// VISITS[:TEMPERATURE[:RANDOM]] [default: 1:1:0.8,1:1:0.4,1:1,V/50 with V the
    /// bundle's visits].
    #[arg(long, num_args = 0..=1, default_missing_value = "", requires = "bot")]
    levels: Option<String>,
    /// Games per new pairing (even): each generation meets its predecessor and every
    /// baseline, each baseline the one listed before it.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Fixed opponents, comma separated (player specs as for `ghast arena`); `random` is
    /// rated 0 when it is among them. By default the game's own, up to the strongest
    /// independent player it has (`ghast games` lists them): for most games
    /// random,greedy,uct:1000,uct:10000; for Ghodak random,uct:1000 and GNU Go level 10,
    /// left out where `gnugo` is not on the PATH.
    #[arg(long)]
    baselines: Option<String>,
    /// Search visits per move of every generation. The generations search as the run's bot
    /// does (RUN/config.toml's `[bot]` over its `[selfplay.search]`, without noise), with
    /// these visits.
    #[arg(long, default_value_t = 64)]
    visits: u32,
    /// Games played at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Random legal moves that open every game pair.
    #[arg(long, default_value_t = 4)]
    openings: usize,
    /// Seed of the openings and of the players' random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Rate only every N-th generation (and always the latest), for runs with many generations.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
}

fn input_error(message: String) -> anyhow::Error {
    anyhow::Error::new(InputError(message))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let baselines = args
        .baselines
        .as_deref()
        .map(|text| parse_baselines(text.split(',')))
        .transpose()?;
    let Some(run_dir) = &args.run else {
        let bot = args.bot.as_deref().expect("clap requires --run or --bot");
        let game = play::game_of(bot).map_err(|e| input_error(e.to_string()))?;
        let levels = RateLevels {
            bot,
            levels: args.levels.as_deref().unwrap_or(""),
            baselines,
            settings: LevelSettings {
                games_per_pair: args.games,
                probe_games: (args.games / 4).max(2),
                threads: args.threads.unwrap_or_else(default_threads),
                opening_moves: args.openings,
                seed: args.seed,
            },
        };
        return for_game(&game, &format!("bot {}", bot.display()), "game", levels);
    };
    if args.visits == 0 {
        return Err(input_error("--visits must be at least 1".to_owned()));
    }
    let settings = LadderSettings {
        games_per_pair: args.games,
        baselines: Vec::new(),
        visits: args.visits,
        search: SearchConfig::play(),
        threads: args.threads.unwrap_or_else(default_threads),
        opening_moves: args.openings,
        seed: args.seed,
        every: args.every,
    };
    let run = RunDir::new(run_dir);
    let newest = run
        .newest_generation()
        .map_err(|e| input_error(format!("{e:#}")))?
        .ok_or_else(|| {
            input_error(format!(
                "no generation checkpoints (gen-NNNN.safetensors) in {}",
                run.models().display()
            ))
        })?;
    let checkpoint = run.checkpoint(newest);
    let game = play::game_of(&checkpoint).map_err(|e| input_error(e.to_string()))?;
    let rate = Rate {
        run: &run,
        baselines,
        settings,
    };
    for_game(
        &game,
        &format!("checkpoint {}", checkpoint.display()),
        "game",
        rate,
    )
}

/// Player specs, each listed once.
fn parse_baselines<'a>(specs: impl Iterator<Item = &'a str>) -> anyhow::Result<Vec<PlayerSpec>> {
    let baselines = specs
        .map(|spec| spec.trim().parse::<PlayerSpec>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| input_error(format!("--baselines: {e}")))?;
    if let Some((index, spec)) = baselines
        .iter()
        .enumerate()
        .find(|(index, spec)| baselines[..*index].contains(spec))
    {
        return Err(input_error(format!(
            "--baselines: `{spec}` is listed twice (entry {}); each player is rated once",
            index + 1
        )));
    }
    Ok(baselines)
}

/// The game's own players in `specs` (its [`game::Game::LADDER_BASELINES`] or
/// [`game::Game::LEVEL_ANCHORS`]) less the external engines whose program is not on the
/// PATH, each of those named on stderr.
fn installed(specs: &[&str]) -> anyhow::Result<Vec<PlayerSpec>> {
    let search_path = std::env::var_os("PATH");
    let mut baselines = parse_baselines(specs.iter().copied())?;
    baselines.retain(|spec| match spec.missing_program(search_path.as_deref()) {
        Some(program) => {
            eprintln!(
                "note: {spec} is left out of the baselines: `{program}` is not on the PATH \
                 (Debian puts game engines in /usr/games; scripts/setup-engines.sh installs GNU Go)"
            );
            false
        }
        None => true,
    });
    Ok(baselines)
}

/// Shows each pairing on `bar` as `(3/12) a vs b` (`of` between the number and the total)
/// with its games, and each forfeit above it.
fn show_pairings<'a>(bar: &'a ProgressBar, of: &'a str) -> impl FnMut(LadderEvent) + 'a {
    move |event| match event {
        LadderEvent::Pairing {
            index,
            total,
            a,
            b,
            games,
        } => {
            bar.reset();
            bar.set_length(u64::from(games));
            bar.set_message(format!("({}{of}{total}) {a} vs {b}", index + 1));
        }
        LadderEvent::Game(record) => {
            warn_forfeit(bar, record);
            bar.inc(1);
        }
    }
}

/// The ratings table, the anchor and where the plots are.
fn print_report(ladder: &Ladder, report: &LadderReport) {
    println!(
        "{} new pairings played, {} from {}",
        report.played_pairs,
        report.cached_pairs,
        ladder.dir().join("results.json").display()
    );
    let width = report
        .ratings
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    println!(
        "{:<width$}  {:>7}  {:>17}  {:>5}",
        "name", "Elo", "95% interval", "games"
    );
    for rating in &report.ratings {
        println!(
            "{:<width$}  {:>+7.0}  [{:>+6.0}, {:>+6.0}]  {:>5}",
            rating.name, rating.elo, rating.lower, rating.upper, rating.games
        );
    }
    println!("anchor: {} = 0", report.anchor);
    println!(
        "plots: {} and {}",
        report.plot.png.display(),
        report.plot.svg.display()
    );
}

/// The ladder, played in the run's game.
struct Rate<'a> {
    run: &'a RunDir,
    /// `--baselines`; `None` for the game's own.
    baselines: Option<Vec<PlayerSpec>>,
    settings: LadderSettings,
}

impl GameWork for Rate<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        let baselines = match self.baselines {
            Some(baselines) => baselines,
            None => installed(G::LADDER_BASELINES)?,
        };
        let settings = LadderSettings {
            search: bot_search::<G>(self.run)?,
            baselines,
            ..self.settings
        };
        let bar = progress_bar(u64::from(settings.games_per_pair));
        let ladder = Ladder::new(self.run.root(), settings);
        let report = ladder.run::<G>(&mut show_pairings(&bar, "/"));
        bar.finish_and_clear();
        let report = report.map_err(|error| match error {
            LadderError::Rating(_) | LadderError::Plot(_) => anyhow::Error::new(error),
            _ => anyhow::Error::new(InputError(error.to_string())),
        })?;
        print_report(&ladder, &report);
        Ok(())
    }
}

/// How the run's bot searches (its config's `[bot]` over `[selfplay.search]`); PUCT's play
/// defaults for a folder of checkpoints without a config.
fn bot_search<G: Planes>(run: &RunDir) -> anyhow::Result<SearchConfig> {
    let path = run.config();
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(SearchConfig::play());
        }
        Err(error) => return Err(config_error(&path, error.to_string()).into()),
    };
    let config: RunConfig<G::Options> =
        RunConfig::parse(&text).map_err(|error| config_error(&path, error))?;
    Ok(config.bot.search(&config.selfplay.search))
}

/// Levels of play of a bundle, rated in its game.
struct RateLevels<'a> {
    bot: &'a Path,
    /// `--levels`: the levels below full strength; empty for the default ones.
    levels: &'a str,
    /// `--baselines`; `None` for the game's own.
    baselines: Option<Vec<PlayerSpec>>,
    settings: LevelSettings,
}

/// Levels this many Elo apart, or more, are told apart (the bar for a level menu).
const LEVEL_GAP: f64 = 100.0;

impl GameWork for RateLevels<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        let bundle = Bundle::<G>::load(self.bot).map_err(|e| input_error(e.to_string()))?;
        let mut settings = bundle.settings.clone();
        let mut levels = parse_levels(self.levels, settings.visits)?;
        levels.push(Level::full(settings.visits));
        let anchors = match self.baselines {
            Some(anchors) => anchors,
            None => installed(G::LEVEL_ANCHORS)?,
        };
        let bar = progress_bar(u64::from(self.settings.games_per_pair));
        let rated = rate_levels::<G>(
            self.bot,
            &levels,
            &anchors,
            &settings.game_options,
            &self.settings,
            // The levels' schedule follows their results: its total is a bound.
            &mut show_pairings(&bar, " of at most "),
        )
        .map_err(|error| input_error(error.to_string()))?;
        bar.finish_and_clear();
        if rated.kept > 0 {
            println!(
                "{} matches played now, {} kept from {}",
                rated.played,
                rated.kept,
                self.bot.join(GAMES_FILE).display()
            );
        }
        let full_strength = levels.len() - 1;
        // Tenths of an Elo point are more than the games can tell.
        let tenth = |elo: f64| (elo * 10.0).round() / 10.0;
        for (level, rating) in levels.iter_mut().zip(rated.ratings) {
            level.rating = Some(LevelRating {
                elo: tenth(rating.elo),
                low: tenth(rating.low),
                high: tenth(rating.high),
                ..rating
            });
        }
        let full = levels[full_strength].clone();
        levels.sort_by(|a, b| elo_of(a).total_cmp(&elo_of(b)));
        println!(
            "{:<6}  {:>6}  {:>11}  {:>6}  {:>7}  {:>17}  {:>5}  anchors",
            "level", "visits", "temperature", "random", "Elo", "95% interval", "games"
        );
        for (index, level) in levels.iter().enumerate() {
            let rating = level.rating.as_ref().expect("every level was rated");
            println!(
                "{:<6}  {:>6}  {:>11}  {:>6}  {:>+7.0}  [{:>+6.0}, {:>+6.0}]  {:>5}  {}",
                index + 1,
                level.visits,
                level.temperature,
                level.random_moves,
                rating.elo,
                rating.low,
                rating.high,
                rating.games,
                rating.anchors.join(", ")
            );
        }
        println!("anchor: {} = 0", anchors[0]);
        for note in above_full_strength(&levels, &full) {
            println!("note: {note}");
        }
        let ratings: Vec<_> = levels.iter().filter_map(|l| l.rating.clone()).collect();
        for problem in spacing_problems(&ratings, LEVEL_GAP) {
            println!("note: {problem} (play more --games, or space the levels wider)");
        }
        settings.levels = levels;
        play::write_settings(self.bot, &settings).map_err(|e| input_error(e.to_string()))?;
        println!(
            "levels written to {}",
            self.bot.join(play::BOT_FILE).display()
        );
        Ok(())
    }
}

/// What is wrong where a level is rated above `full` strength (the bundle's own search): a
/// level within its interval is noise, but one whose interval lies wholly above it plays
/// better than the bundle does, which says more about the bot than about its levels.
fn above_full_strength(levels: &[Level], full: &Level) -> Vec<String> {
    let Some(top) = full.rating.as_ref() else {
        return Vec::new();
    };
    levels
        .iter()
        .filter_map(|level| Some((level, level.rating.as_ref()?)))
        .filter(|(_, rating)| rating.elo > top.elo)
        .map(|(level, rating)| {
            let what = format!(
                "level {}:{}:{} ({:+.0} [{:+.0}, {:+.0}]) is rated above full strength, {} visits \
                 ({:+.0} [{:+.0}, {:+.0}])",
                level.visits,
                level.temperature,
                level.random_moves,
                rating.elo,
                rating.low,
                rating.high,
                full.visits,
                top.elo,
                top.low,
                top.high
            );
            if rating.low > top.high {
                format!(
                    "{what}: a weaker setting beats the bundle's own search, so the bot has a \
                     weakness it exploits (their matches are kept in the bundle's {GAMES_FILE})"
                )
            } else {
                format!("{what}: within noise (play more --games)")
            }
        })
        .collect()
}

/// A rated level's Elo (levels are rated before they are sorted).
fn elo_of(level: &Level) -> f64 {
    level.rating.as_ref().map_or(f64::NEG_INFINITY, |r| r.elo)
}

/// `--levels`: VISITS[:TEMPERATURE[:RANDOM]] entries, comma separated, weakest first; empty
/// for the default levels below a bundle of `visits` visits.
fn parse_levels(text: &str, visits: u32) -> anyhow::Result<Vec<Level>> {
    if text.trim().is_empty() {
        let level = |visits: u32, temperature: f32, random_moves: f32| Level {
            visits,
            temperature,
            random_moves,
            rating: None,
        };
        // Measured on models/ghast-size4 (BENCHMARKS.md): a share of random moves spans the
        // range below the network's own policy, and a small search the one between the
        // policy's best move and full strength (the policy's draw and its best move are
        // closer than 100 Elo).
        return Ok(vec![
            level(1, 1.0, 0.8),
            level(1, 1.0, 0.4),
            level(1, 1.0, 0.0),
            level((visits / 50).max(8), 0.0, 0.0),
        ]);
    }
    text.split(',')
        .map(|entry| {
            let fields: Vec<&str> = entry.trim().split(':').collect();
            let bad = |why: &str| input_error(format!("--levels: `{entry}`: {why}"));
            if fields.len() > 3 {
                return Err(bad("expected VISITS[:TEMPERATURE[:RANDOM]]"));
            }
            let number = |index: usize| -> anyhow::Result<f32> {
                fields.get(index).map_or(Ok(0.0), |field| {
                    field
                        .parse::<f32>()
                        .map_err(|_| bad(&format!("`{field}` is not a number")))
                })
            };
            let level = Level {
                visits: fields[0]
                    .parse()
                    .map_err(|_| bad("visits must be a whole number"))?,
                temperature: number(1)?,
                random_moves: number(2)?,
                rating: None,
            };
            level.check().map_err(|why| bad(&why))?;
            Ok(level)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rated(visits: u32, random_moves: f32, elo: f64, half_width: f64) -> Level {
        Level {
            random_moves,
            rating: Some(LevelRating {
                elo,
                low: elo - half_width,
                high: elo + half_width,
                zero: "random".into(),
                anchors: vec!["random".into()],
                games: 40,
            }),
            ..Level::full(visits)
        }
    }

    #[test]
    fn a_level_above_full_strength_is_told_from_noise() {
        let full = rated(200, 0.0, 1000.0, 80.0);
        let noise = rated(1, 0.3, 1050.0, 80.0);
        let better = rated(1, 0.1, 1300.0, 80.0);
        let below = rated(8, 0.0, 700.0, 80.0);
        let notes = above_full_strength(&[below, full.clone(), noise, better], &full);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].starts_with("level 1:0:0.3 (+1050"), "{}", notes[0]);
        assert!(notes[0].ends_with("within noise (play more --games)"));
        assert!(notes[1].starts_with("level 1:0:0.1 (+1300"), "{}", notes[1]);
        assert!(notes[1].contains("beats the bundle's own search"));
        assert!(above_full_strength(std::slice::from_ref(&full), &full).is_empty());
    }
}
