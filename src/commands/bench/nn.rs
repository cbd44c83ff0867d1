//! `ghast bench nn`: forward-pass throughput of the network presets on Ghast's standard board.

use clap::Args as ClapArgs;
use game::Planes;
use ghast::{Ghast, GhastOptions};
use nn::bench::{NetBench, available_devices, bench_net};
use nn::{NetConfig, Preset};
use std::collections::BTreeMap;
use std::time::Duration;

const PRESETS: [Preset; 2] = [Preset::Small, Preset::Standard];
const BATCH_SIZES: [usize; 4] = [1, 16, 64, 256];

#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
    /// Seconds to time each batch size on each device.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let budget = Duration::try_from_secs_f64(args.seconds)?;
    let devices = available_devices();
    // The standard board's planes (an 11 x 11 grid) and policy layout.
    let start = Ghast::new(&GhastOptions::default());
    let (planes, layout) = (start.plane_shape(), start.policy_layout());
    let nets: BTreeMap<String, NetBench> = PRESETS
        .iter()
        .map(|&preset| {
            let config = NetConfig::preset(preset, planes.channels, layout);
            (
                preset.to_string(),
                bench_net(&config, planes, &devices, &BATCH_SIZES, budget),
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
            "{name}: {} blocks x {} channels, {} parameters, {:.3} GFLOP per evaluation",
            net.blocks,
            net.channels,
            net.parameters,
            net.flops_per_eval as f64 / 1e9
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
