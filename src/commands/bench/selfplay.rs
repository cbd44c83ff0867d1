use crate::commands::train::{config_error, read_config_text};
use clap::Args as ClapArgs;
use game::{Game, Planes};
use ghast::Ghast;
use ghodak::Ghodak;
use serde::{Serialize, de::DeserializeOwned};
use std::path::PathBuf;
use std::time::Duration;
use train::RunConfig;

/// Self-play evaluations per second against bare forward passes of the same net at the same
/// batch size, measured in one run; their ratio is the loop's efficiency. The loop runs the
/// `[selfplay]` table of a run configuration (search, visits, cache, games in flight).
#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// Seconds for each of the two measurements.
    #[arg(long, default_value = "10", value_parser = super::seconds)]
    seconds: Duration,
    /// The run configuration whose game, self-play, board and network are measured (for
    /// Ghodak: configs/ghodak9.toml).
    #[arg(long, default_value = "configs/small.toml")]
    config: PathBuf,
    /// Board size, instead of the config's.
    #[arg(long)]
    size: Option<i64>,
    /// Network, instead of the config's: tiny, small, standard or BLOCKSxCHANNELS (e.g. 4x32).
    #[arg(long)]
    net: Option<nn::NetSize>,
    /// Games in flight, and so the batch size, instead of the config's.
    #[arg(long)]
    games_in_flight: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let text = read_config_text(&args.config)?;
    let game = train::game_name(&text).map_err(|error| config_error(&args.config, error))?;
    match game.as_str() {
        Ghast::NAME => measure::<Ghast>(&args, &text),
        Ghodak::NAME => measure::<Ghodak>(&args, &text),
        other => Err(config_error(
            &args.config,
            format!("[game] name `{other}` is not a game this build plays (ghast, ghodak)"),
        )
        .into()),
    }
}

/// The config's game options with another board size, through their serialized form (every
/// game calls it `size`), so that the game's own validation checks it.
fn with_size<O: Serialize + DeserializeOwned>(options: &O, size: i64) -> anyhow::Result<O> {
    let mut value = serde_json::to_value(options)?;
    value["size"] = size.into();
    serde_json::from_value(value)
        .map_err(|error| crate::InputError(format!("--size {size}: {error}")).into())
}

fn measure<G: Planes>(args: &Args, text: &str) -> anyhow::Result<()> {
    let config: RunConfig<G::Options> =
        RunConfig::parse(text).map_err(|error| config_error(&args.config, error))?;
    let options = match args.size {
        Some(size) => with_size(&config.game, size)?,
        None => config.game.clone(),
    };
    let net = match args.net {
        Some(net) => net,
        None => config.network.size().map_err(crate::InputError)?,
    };
    let mut selfplay = config.selfplay;
    if let Some(games) = args.games_in_flight {
        if games == 0 {
            return Err(
                crate::InputError("--games-in-flight 0: expected at least 1".into()).into(),
            );
        }
        selfplay.games_in_flight = games;
    }
    let report = train::bench::selfplay::<G>(&options, net, selfplay, args.seconds)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "{} net, {} games in flight (mean batch {:.1}): self-play {:.0} evals/s, bare forward {:.0} evals/s, loop efficiency {:.2}; network busy {:.2} of the time; {} games finished; peak memory {}",
            report.net,
            report.games_in_flight,
            report.mean_batch,
            report.selfplay_evals_per_sec,
            report.forward_evals_per_sec,
            report.loop_efficiency,
            report.network_time_fraction,
            report.games_finished,
            report
                .peak_memory_mib
                .map_or("unknown".into(), |mib| format!("{mib:.0} MiB")),
        );
    }
    Ok(())
}
