use clap::Args as ClapArgs;
use ghast::{Ghast, RawOptions};
use std::time::Duration;

/// Self-play evaluations per second against bare forward passes of the same net at the same
/// batch size, measured in one run; their ratio is the loop's efficiency.
#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// Seconds for each of the two measurements.
    #[arg(long, default_value = "10", value_parser = super::seconds)]
    seconds: Duration,
    /// Board size.
    #[arg(long, default_value_t = 6)]
    size: i64,
    /// Network: tiny, small, standard or BLOCKSxCHANNELS (e.g. 4x32).
    #[arg(long, default_value = "small")]
    net: nn::NetSize,
    /// Games in flight, and so the batch size.
    #[arg(long, default_value_t = 64)]
    games_in_flight: usize,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let options = RawOptions {
        size: args.size,
        ..RawOptions::default()
    }
    .validate()
    .map_err(|error| crate::InputError(format!("--size: {error}")))?;
    let report =
        train::bench::selfplay::<Ghast>(&options, args.net, args.games_in_flight, args.seconds)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "{} net, {} games in flight (mean batch {:.1}): self-play {:.0} evals/s, bare forward {:.0} evals/s, loop efficiency {:.2}; {} games finished; peak memory {}",
            report.net,
            report.games_in_flight,
            report.mean_batch,
            report.selfplay_evals_per_sec,
            report.forward_evals_per_sec,
            report.loop_efficiency,
            report.games_finished,
            report
                .peak_memory_mib
                .map_or("unknown".into(), |mib| format!("{mib:.0} MiB")),
        );
    }
    Ok(())
}
