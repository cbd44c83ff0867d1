use crate::commands::registry::{self, GameWork, for_game};
use crate::commands::rule_args::RuleArgs;
use crate::commands::train::{config_error, read_config_text};
use clap::Args as ClapArgs;
use game::Planes;
use std::path::PathBuf;
use std::time::Duration;
use train::RunConfig;

/// Self-play evaluations per second against bare forward passes of the same net at the same
/// batch size, measured in one run; their ratio is the loop's efficiency. Also the device's
/// busy share, positions per pass and the cores the loop used. The loop runs the `[selfplay]`
/// table of a run configuration (search, visits, games and batches in flight); `--device sim`
/// measures it as a GPU would drive it, on any machine.
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
    /// Rules of the game instead of the config's (`--size 6` is `--rule size=6`).
    #[command(flatten)]
    rules: RuleArgs,
    /// Network, instead of the config's: tiny, small, standard or BLOCKSxCHANNELS (e.g. 4x32).
    #[arg(long)]
    net: Option<nn::NetSize>,
    /// Games in flight per worker, and so the batch size, instead of the config's.
    #[arg(long)]
    games_in_flight: Option<usize>,
    /// Self-play threads, each with its own games [default: 1, so the figure is per core].
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// How the threads reach the network, instead of the config's: `per-thread` (a copy each,
    /// on the CPU) or `server` (one inference server for all, on the GPU if there is one).
    #[arg(long, value_parser = ["auto", "server", "per-thread"])]
    inference: Option<String>,
    /// Visits of every move's search (no playout cap), instead of the config's full and cheap
    /// visits.
    #[arg(long)]
    visits: Option<u32>,
    /// Batches each worker keeps in flight through the server, instead of the config's
    /// (`1`: each worker waits for every batch, the design before pipelining).
    #[arg(long)]
    batches_in_flight: Option<usize>,
    /// Where the network runs: `auto` (the first CUDA device if there is one, else the CPU),
    /// `cpu`, `cuda`, `cuda:N`, or `sim`: a simulated accelerator that holds a batch of n
    /// positions for A + B*n (the H100's standard net on size 6, 3 ms + 7.13 us a position,
    /// unless `sim:A_MS,B_US` says otherwise) at no CPU cost, behind the inference server.
    #[arg(long, default_value = "auto")]
    device: nn::DeviceChoice,
    /// The type the network's passes compute in, instead of the config's `[network]
    /// inference_precision`: auto (bf16 on CUDA, f32 on a CPU), fp32, bf16 or fast (bf16 on
    /// CUDA and on a CPU with AMX or AVX512-BF16).
    #[arg(long)]
    precision: Option<nn::InferencePrecision>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let text = read_config_text(&args.config)?;
    let game = registry::config_game(&text).map_err(|error| config_error(&args.config, error))?;
    let source = format!("config {}", args.config.display());
    for_game(
        &game,
        &source,
        "[game] name",
        Measure {
            args: &args,
            text: &text,
        },
    )
}

/// The self-play loop of the game the config names.
struct Measure<'a> {
    args: &'a Args,
    text: &'a str,
}

impl GameWork for Measure<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        measure::<G>(self.args, self.text)
    }
}

fn measure<G: Planes>(args: &Args, text: &str) -> anyhow::Result<()> {
    let config: RunConfig<G::Options> =
        RunConfig::parse(text).map_err(|error| config_error(&args.config, error))?;
    let options = args.rules.options::<G>(Some(&config.game))?;
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
    if args.workers == 0 {
        return Err(crate::InputError("--workers 0: expected at least 1".into()).into());
    }
    selfplay.workers = args.workers;
    if let Some(inference) = &args.inference {
        selfplay.inference = match inference.as_str() {
            "server" => selfplay::Inference::Server,
            "per-thread" => selfplay::Inference::PerThread,
            _ => selfplay::Inference::Auto,
        };
    }
    if let Some(batches) = args.batches_in_flight {
        selfplay.batches_in_flight = batches;
    }
    selfplay
        .validate()
        .map_err(|error| crate::InputError(format!("[selfplay] with the flags given: {error}")))?;
    if let (nn::DeviceChoice::Simulated(_), selfplay::Inference::PerThread) =
        (args.device, selfplay.inference)
    {
        return Err(crate::InputError(
            "--device sim with --inference per-thread: a simulated device runs behind the inference server".into(),
        )
        .into());
    }
    if let Some(visits) = args.visits {
        if visits == 0 {
            return Err(crate::InputError("--visits 0: expected at least 1".into()).into());
        }
        selfplay.full_visits = visits;
        selfplay.cheap_visits = visits;
        selfplay.full_search_probability = 1.0;
    }
    let precision = args.precision.unwrap_or(config.network.inference_precision);
    let report = train::bench::selfplay::<G>(
        &options,
        net,
        selfplay,
        args.device,
        precision,
        args.seconds,
    )?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "{} net on {} in {} ({}), {} worker(s) x {} games in flight, {} batch(es) in flight each (mean batch {:.1}): self-play {:.0} evals/s, bare forward {:.0} evals/s, loop efficiency {:.2}; device busy {:.2} of the time; {:.2} cores used ({:.1} CPU-s); {} games finished ({:.3} games/s, {}); peak memory {}",
            report.net,
            report.device,
            report.precision,
            report.inference,
            report.workers,
            report.games_in_flight,
            report.batches_in_flight,
            report.mean_batch,
            report.selfplay_evals_per_sec,
            report.forward_evals_per_sec,
            report.loop_efficiency,
            report.device_busy,
            report.cores_used,
            report.cpu_seconds,
            report.games_finished,
            report.games_per_sec,
            report
                .mean_game_moves
                .map_or("no game finished".into(), |moves| format!(
                    "{moves:.0} moves each"
                )),
            report
                .peak_memory_mib
                .map_or("unknown".into(), |mib| format!("{mib:.0} MiB")),
        );
    }
    Ok(())
}
