use super::registry::{self, GameWork, for_game};
use super::train::config_error;
use crate::InputError;
use anyhow::Context;
use clap::Args as ClapArgs;
use game::Planes;
use std::path::{Path, PathBuf};
use std::time::Duration;
use train::{Limit, Role, RunConfig, RunDir, RunStore};

#[derive(ClapArgs)]
pub struct Args {
    /// The run's shared store, as its learner was given it (`ghast learn --store`).
    #[arg(long)]
    store: String,
    /// This process's own folder: its journal of games not yet stored, the models it
    /// downloaded, its id among the store's writers. One per process; start the process
    /// again on the same folder and it goes on where it stopped.
    #[arg(long)]
    run: PathBuf,
    /// Stop after this many minutes [default: run until stopped].
    #[arg(long)]
    minutes: Option<f64>,
    /// Where self-play's network runs: `auto` (the first CUDA device if there is one, else
    /// the CPU), `cpu`, `cuda`, `cuda:N`, or `sim`: a simulated accelerator that holds each
    /// batch of n positions for A + B*n (the H100's figures for the standard net on size 6,
    /// 3 ms + 7.13 us a position, unless `sim:A_MS,B_US` says otherwise) and answers with a
    /// fixed function of the position, costing no CPU; everything else runs for real, so
    /// the loop can be measured as a GPU would drive it on any machine.
    #[arg(long, default_value = "auto")]
    pub device: nn::DeviceChoice,
}

/// How often a process that started before its learner looks for the run's configuration.
const CONFIG_POLL: Duration = Duration::from_secs(2);

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = RunStore::open(&args.store)?;
    let text = store_config(&store, &args.store)?;
    let run = RunDir::new(&args.run);
    let source = format!("the config in {}", args.store);
    let game =
        registry::config_game(&text).map_err(|error| InputError(format!("{source}: {error}")))?;
    adopt_config(&run, &text)?;
    let work = SelfplayGame {
        args: &args,
        run: &run,
        store: &store,
        text: &text,
    };
    for_game(&game, &source, "[game] name", work)
}

/// The run's configuration as the learner put it in the store, waiting for the learner if it
/// has not started yet.
fn store_config(store: &RunStore, location: &str) -> anyhow::Result<String> {
    let mut said = false;
    loop {
        if let Some(text) = store.config()? {
            return Ok(text);
        }
        if !said {
            tracing::info!("waiting for a learner to start the run in {location}");
            said = true;
        }
        std::thread::sleep(CONFIG_POLL);
    }
}

/// Makes `run` this process's folder for the run configured by `text`; refuses a folder that
/// holds self-play of another run, whose journal would send its games to the wrong store.
fn adopt_config(run: &RunDir, text: &str) -> anyhow::Result<()> {
    match std::fs::read_to_string(run.config()) {
        Ok(kept) if kept == text => {
            tracing::info!("resuming self-play in {}", run.root().display());
            Ok(())
        }
        Ok(_) => Err(InputError(format!(
            "{} holds self-play of a run with another configuration; give this run a folder \
             of its own with --run",
            run.root().display()
        ))
        .into()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            run.create()?;
            train::write_atomically(&run.config(), text.as_bytes())
        }
        Err(error) => Err(error).with_context(|| format!("cannot read {}", run.config().display())),
    }
}

struct SelfplayGame<'a> {
    args: &'a Args,
    run: &'a RunDir,
    store: &'a RunStore,
    text: &'a str,
}

impl GameWork for SelfplayGame<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        let config: RunConfig<G::Options> = RunConfig::parse(self.text)
            .map_err(|error| config_error(Path::new(&self.args.store), error))?;
        let limit = match self.args.minutes {
            Some(minutes) if minutes > 0.0 => Limit::Minutes(minutes),
            Some(minutes) => {
                return Err(
                    InputError(format!("--minutes {minutes}: expected more than 0")).into(),
                );
            }
            None => Limit::None,
        };
        let summary = train::train::<G>(
            self.run,
            &config,
            limit,
            Role::SelfPlay(self.store),
            self.args.device,
        )
        .with_context(|| format!("self-play in {}", self.run.root().display()))?;
        println!(
            "stopped after {} games ({} positions) with generation {}; games not yet stored stay in {}",
            summary.games,
            summary.positions,
            summary.generation,
            self.run.journal().display()
        );
        Ok(())
    }
}
