use crate::InputError;
use anyhow::Context;
use clap::Args as ClapArgs;
use ghast::Ghast;
use std::path::PathBuf;
use train::{Limit, RunConfig, RunDir};

#[derive(ClapArgs)]
pub struct Args {
    /// The run configuration (TOML; every field is documented in configs/small.toml).
    #[arg(long, default_value = "configs/small.toml")]
    config: PathBuf,
    /// The run folder [default: runs/<config name>].
    #[arg(long)]
    run: Option<PathBuf>,
    /// Continue the run in the folder, with the configuration saved there.
    #[arg(long)]
    resume: bool,
    /// Stop after this many minutes (overrides the config's `run.minutes`).
    #[arg(long)]
    minutes: Option<f64>,
    /// Stop once this generation is written (overrides the config's `run.generations`).
    #[arg(long)]
    generations: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let run = RunDir::new(
        args.run
            .clone()
            .unwrap_or_else(|| default_run_folder(&args.config)),
    );
    let config_file = if args.resume {
        run.config()
    } else {
        args.config.clone()
    };
    let text = std::fs::read_to_string(&config_file)
        .map_err(|error| InputError(format!("config {}: {error}", config_file.display())))?;
    let config: RunConfig<ghast::GhastOptions> = toml::from_str(&text)
        .map_err(|error| InputError(format!("config {}: {error}", config_file.display())))?;
    config
        .evaluation
        .validate()
        .map_err(|error| InputError(format!("config {}: {error}", config_file.display())))?;
    if args.resume {
        tracing::info!("resuming {}", run.root().display());
    } else {
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
    }
    let minutes = args.minutes.unwrap_or(config.run.minutes);
    let generations = args.generations.unwrap_or(config.run.generations);
    let limit = if minutes > 0.0 {
        Limit::Minutes(minutes)
    } else if generations > 0 {
        Limit::Generations(generations)
    } else {
        Limit::None
    };
    let summary = train::train::<Ghast>(&run, &config, limit)
        .with_context(|| format!("training run {}", run.root().display()))?;
    println!(
        "stopped at generation {} after {} training steps; {} games played by this process; latest model: {}",
        summary.generation,
        summary.steps,
        summary.games,
        run.checkpoint(summary.generation).display()
    );
    Ok(())
}

fn default_run_folder(config: &std::path::Path) -> PathBuf {
    let name = config
        .file_stem()
        .map_or("run".into(), |stem| stem.to_string_lossy().into_owned());
    PathBuf::from("runs").join(name)
}
