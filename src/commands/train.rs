use super::registry::{self, GameWork, for_game};
use crate::InputError;
use anyhow::Context;
use clap::Args as ClapArgs;
use game::{Game, Planes};
use std::path::{Path, PathBuf};
use train::{Limit, Role, RunConfig, RunDir};

#[derive(ClapArgs)]
pub struct Args {
    /// The run configuration (TOML; every field is documented in configs/small.toml).
    #[arg(long, default_value = "configs/small.toml")]
    config: PathBuf,
    /// The run folder [default: runs/<config name>].
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Continue the run in the folder, with the configuration saved there.
    #[arg(long)]
    resume: bool,
    /// Start from another run's weights (a warm start): a run folder (its newest
    /// generation), a bot bundle or a checkpoint file, of the same game and architecture; the
    /// board size may differ. Saved in the run's config as `[network] init_from`.
    #[arg(long, value_name = "RUN_OR_BUNDLE", conflicts_with = "resume")]
    init_from: Option<PathBuf>,
    /// Stop after this many minutes (overrides the config's `run.minutes`).
    #[arg(long)]
    pub minutes: Option<f64>,
    /// Stop once this generation is written and its evaluation matches are played (overrides
    /// the config's `run.generations`, and its `run.minutes` too).
    #[arg(long, conflicts_with = "minutes")]
    generations: Option<u64>,
    /// Where self-play's network runs: `auto` (the first CUDA device if there is one, else
    /// the CPU), `cpu`, `cuda`, `cuda:N`, or `sim`: a simulated accelerator that holds each
    /// batch of n positions for A + B*n (the H100's figures for the standard net on size 6,
    /// 3 ms + 7.13 us a position, unless `sim:A_MS,B_US` says otherwise) and answers with a
    /// fixed function of the position, costing no CPU; everything else runs for real, so
    /// the loop can be measured as a GPU would drive it on any machine. The trainer runs on
    /// this device too, or with `sim` on the best libtorch one.
    #[arg(long, default_value = "auto")]
    pub device: nn::DeviceChoice,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    run_as(&args, Role::Whole)
}

/// `ghast train`, or with a store the learner of a run on many machines (`ghast learn`).
pub fn run_as(args: &Args, role: Role) -> anyhow::Result<()> {
    let run = RunDir::new(
        args.run
            .clone()
            .unwrap_or_else(|| default_run_folder(&args.config)),
    );
    let path = if args.resume {
        run.config()
    } else {
        args.config.clone()
    };
    let mut text = read_config_text(&path)?;
    if let Some(source) = &args.init_from {
        let checkpoint = checkpoint_of(source)?;
        text = set_config_value(
            &text,
            "network",
            "init_from",
            checkpoint.display().to_string(),
        )
        .map_err(|error| config_error(&path, error))?;
    }
    let game = registry::config_game(&text).map_err(|error| config_error(&path, error))?;
    let source = format!("config {}", path.display());
    let work = TrainGame {
        args,
        run: &run,
        path: &path,
        text: &text,
        role,
    };
    for_game(&game, &source, "[game] name", work)
}

/// A run of the game its config names.
struct TrainGame<'a> {
    args: &'a Args,
    run: &'a RunDir,
    path: &'a Path,
    text: &'a str,
    role: Role<'a>,
}

impl GameWork for TrainGame<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        train_game::<G>(self.args, self.run, self.path, self.text, self.role)
    }
}

fn train_game<G: Planes>(
    args: &Args,
    run: &RunDir,
    path: &Path,
    text: &str,
    role: Role,
) -> anyhow::Result<()> {
    let config: RunConfig<G::Options> =
        RunConfig::parse(text).map_err(|error| config_error(path, error))?;
    if args.resume {
        tracing::info!("resuming {}", run.root().display());
    } else {
        // A warm start that cannot load is refused before the run folder is made.
        if config.network.init_from.is_some() {
            train::initial_network::<G>(&config, tch::Device::Cpu)
                .map_err(|error| config_error(path, format!("{error:#}")))?;
        }
        create_run(run, text)?;
    }
    if let Role::Learner(store) = role {
        // Self-play processes read the run's configuration from the store.
        store.put_config(text)?;
    }
    let limit = run_limit(args, &config.run);
    let summary = train::train::<G>(run, &config, limit, role, args.device)
        .with_context(|| format!("training run {}", run.root().display()))?;
    let bot = export_bot::<G>(run, &config)?;
    let reanalysed = match summary.reanalysed {
        0 => String::new(),
        games => format!(" and {games} reanalysed"),
    };
    println!(
        "stopped at generation {} after {} training steps; {} games played{reanalysed} by this process; latest model: {}; bot: {}",
        summary.generation,
        summary.steps,
        summary.games,
        run.checkpoint(summary.generation).display(),
        bot.display()
    );
    Ok(())
}

/// When the run stops: a flag over the config (`--generations 3` stops at generation 3 where
/// the config says 30 minutes), and in the config its minutes over its generations. A flag of
/// 0 turns off its own kind of limit only, leaving the config's other kind.
fn run_limit(args: &Args, limits: &train::RunLimits) -> Limit {
    let minutes = |minutes: f64| (minutes > 0.0).then_some(Limit::Minutes(minutes));
    let generations = |last: u64| (last > 0).then_some(Limit::Generations(last));
    match (args.minutes, args.generations) {
        (Some(flag), _) => minutes(flag).or_else(|| generations(limits.generations)),
        (None, Some(flag)) => generations(flag).or_else(|| minutes(limits.minutes)),
        (None, None) => minutes(limits.minutes).or_else(|| generations(limits.generations)),
    }
    .unwrap_or(Limit::None)
}

/// The checkpoint `--init-from` names: the newest generation of a run folder, a bot bundle's
/// weights, or a checkpoint file.
fn checkpoint_of(source: &Path) -> Result<PathBuf, InputError> {
    let run = RunDir::new(source.to_owned());
    if source.is_dir()
        && let Ok(Some(generation)) = run.newest_generation()
    {
        return Ok(run.checkpoint(generation));
    }
    play::weights_of(source).map_err(|error| {
        InputError(format!(
            "--init-from {}: neither a run folder with a generation nor a bot: {error}",
            source.display()
        ))
    })
}

/// The config `text` with `[table] key = value`, its comments and layout kept.
pub fn set_config_value(
    text: &str,
    table: &str,
    key: &str,
    value: impl Into<toml_edit::Value>,
) -> Result<String, String> {
    let mut document: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.to_string())?;
    let entry = document
        .entry(table)
        .or_insert_with(toml_edit::table)
        .as_table_like_mut()
        .ok_or_else(|| format!("`{table}` is not a table"))?;
    entry.insert(key, toml_edit::value(value));
    Ok(document.to_string())
}

pub fn config_error(path: &Path, error: String) -> InputError {
    InputError(format!("config {}: {error}", path.display()))
}

pub fn read_config_text(path: &Path) -> Result<String, InputError> {
    std::fs::read_to_string(path).map_err(|error| config_error(path, error.to_string()))
}

/// Makes `run` a new run of the configuration `text`; refuses a folder that holds one.
pub fn create_run(run: &RunDir, text: &str) -> anyhow::Result<()> {
    if run.config().exists() {
        return Err(InputError(format!(
            "run folder {} already holds a run; pass --resume to continue it or choose another --run",
            run.root().display()
        ))
        .into());
    }
    run.create()?;
    train::write_atomically(&run.config(), text.as_bytes())?;
    tracing::info!("new run in {}", run.root().display());
    Ok(())
}

/// Exports the generation self-play last used (the gated one, with gating), or the average
/// of the latest `[bot] averaged_generations`, as the run's bot bundle, searching the config's
/// `[bot] visits` per move.
pub fn export_bot<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
) -> anyhow::Result<PathBuf> {
    let checkpoint = bot_checkpoint::<G>(run, config, config.bot.averaged_generations)?;
    write_run_bot::<G>(config, &checkpoint, config.bot.visits, &run.bot())?;
    Ok(run.bot())
}

/// The weights a run's bot plays: its latest generation, or for `average` of 2 or more the
/// average of its latest `average` generations ([`train::average_newest_generations`]),
/// which this writes beside them and reports on standard output.
pub fn bot_checkpoint<G: Planes>(
    run: &RunDir,
    config: &RunConfig<G::Options>,
    average: u64,
) -> anyhow::Result<PathBuf> {
    if average <= 1 {
        let generation = run
            .latest_generation()?
            .with_context(|| format!("{}: no model to export", run.models().display()))?;
        return Ok(run.checkpoint(generation));
    }
    let averaged = train::average_newest_generations::<G>(run, config, average)?;
    println!(
        "averaged generations {} to {} into {} (batch-norm variances moved {:.1}% when \
         measured on {} positions)",
        averaged.generations[0],
        averaged.generations[averaged.generations.len() - 1],
        averaged.checkpoint.display(),
        100.0 * averaged.batch_norm_moved,
        averaged.positions_measured
    );
    Ok(averaged.checkpoint)
}

/// Writes `checkpoint`, a network of the run of `config`, into `out` as a bot that searches
/// as the config's `[bot]` says (formula, resignation, futile moves), `visits` per move.
pub fn write_run_bot<G: Game>(
    config: &RunConfig<G::Options>,
    checkpoint: &Path,
    visits: u32,
    out: &Path,
) -> anyhow::Result<play::Bundle<G>> {
    let context = || format!("cannot export the bot into {}", out.display());
    let mut bundle =
        play::Bundle::<G>::from_checkpoint(checkpoint, visits).with_context(context)?;
    bundle.settings.search = config.bot.search(&config.selfplay.search);
    bundle.settings.resign = config.bot.resignation(&config.selfplay.resign);
    bundle.save(out).with_context(context)?;
    Ok(bundle)
}

fn default_run_folder(config: &Path) -> PathBuf {
    PathBuf::from("runs").join(config_name(config))
}

/// The name runs of the configuration file `config` go under: its file stem.
pub fn config_name(config: &Path) -> String {
    config
        .file_stem()
        .map_or("run".into(), |stem| stem.to_string_lossy().into_owned())
}
