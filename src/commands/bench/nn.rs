//! `ghast bench nn`: forward-pass throughput of networks on a game's board.

use crate::commands::registry::GameWork;
use crate::commands::rule_args::GameArgs;
use clap::Args as ClapArgs;
use game::Planes;
use nn::bench::{NetBench, available_devices, bench_net};
use nn::{NetConfig, NetSize};
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// Seconds to time each batch size on each device.
    #[arg(long, default_value = "1", value_parser = super::seconds)]
    seconds: Duration,
    /// The game whose planes the networks read, and its rules (ghast on the standard board
    /// by default; `--size 4` is `--rule size=4`).
    #[command(flatten)]
    game: GameArgs,
    /// Networks to time: tiny, small, standard or BLOCKSxCHANNELS (e.g. 4x32), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "small,standard")]
    net: Vec<NetSize>,
    /// Batch sizes to time, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64,256")]
    batch: Vec<usize>,
    /// The types to time each net in, comma-separated: auto (bf16 on CUDA, f32 on a CPU), fp32,
    /// bf16 or fast (bf16 on CUDA and on a CPU with AMX or AVX512-BF16). `--precision
    /// fp32,bf16` tells whether this CPU makes `[network] inference_precision = "bf16"` pay.
    #[arg(long, value_delimiter = ',', default_value = "auto")]
    precision: Vec<nn::InferencePrecision>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    args.game.run(Measure(&args))
}

struct Measure<'a>(&'a Args);

impl GameWork for Measure<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        measure::<G>(self.0)
    }
}

fn measure<G: Planes>(args: &Args) -> anyhow::Result<()> {
    let options = args.game.options::<G>(None)?;
    if let Some(bad) = args.batch.iter().find(|&&b| b == 0 || b > 65_536) {
        return Err(crate::InputError(format!("--batch {bad}: expected 1 to 65536")).into());
    }
    let devices = available_devices();
    let start = G::new(&options);
    let (planes, layout) = (start.plane_shape(), start.policy_layout());
    let nets: BTreeMap<String, NetBench> = args
        .net
        .iter()
        .map(|&size| {
            let config = NetConfig::sized(size, planes.channels, layout);
            (
                size.to_string(),
                bench_net(
                    &config,
                    planes,
                    &devices,
                    &args.precision,
                    &args.batch,
                    args.seconds,
                ),
            )
        })
        .collect();
    if args.json {
        let report = serde_json::json!({
            "planes": [planes.channels, planes.height, planes.width],
            "cpu_threads": tch::get_num_threads(),
            "nets": nets,
        });
        println!("{report}");
        return Ok(());
    }
    for (name, net) in &nets {
        println!(
            "{name}: {} parameters, {:.1} MFLOP per evaluation on a {}x{} grid",
            net.parameters,
            net.flops_per_eval as f64 / 1e6,
            planes.height,
            planes.width
        );
        for (device, bench) in &net.devices {
            let rates: Vec<String> = bench
                .evals_per_sec
                .iter()
                .map(|(batch, rate)| {
                    let gflops = bench.flops_per_sec[batch] / 1e9;
                    format!("batch {batch}: {rate:.0} evals/s ({gflops:.1} GFLOP/s)")
                })
                .collect();
            println!("  {device} ({}): {}", bench.precision, rates.join(", "));
        }
    }
    Ok(())
}
