use crate::InputError;
use crate::commands::registry::{self, GameWork, for_game};
use crate::commands::train::{config_error, read_config_text};
use clap::Args as ClapArgs;
use game::Planes;
use nn::Precision;
use std::path::PathBuf;
use train::bench::TrainingBench;
use train::{RunConfig, RunDir};

/// Training steps per second and the losses they reach, in each precision, from the same
/// weights on the same samples of a run's stored games.
#[derive(ClapArgs)]
pub struct Args {
    /// A run folder with games stored (`ghast train --run RUN` makes one): its config gives
    /// the game, the network, the batch and the learning rate; its shards the samples.
    #[arg(long)]
    run: PathBuf,
    /// Timed steps of each precision (after 5 untimed ones).
    #[arg(long, default_value_t = 200)]
    steps: u64,
    /// The precisions to measure, one after the other, comma separated: fp32, bf16 or fast
    /// (bf16 on CUDA and on a CPU with AMX or AVX512-BF16; reported as what it ran in).
    #[arg(long, value_delimiter = ',', default_value = "fp32,bf16")]
    precision: Vec<Precision>,
    /// Positions per step, instead of the config's `[training] batch_size`.
    #[arg(long)]
    batch: Option<usize>,
    /// Network, instead of the config's (a fresh one, not its `init_from`): tiny, small,
    /// standard or BLOCKSxCHANNELS (e.g. 20x256).
    #[arg(long)]
    net: Option<nn::NetSize>,
    /// Where the steps run: `auto` (the first CUDA device if there is one, else the CPU),
    /// `cpu`, `cuda` or `cuda:N`.
    #[arg(long, default_value = "auto")]
    device: nn::DeviceChoice,
    /// libtorch's threads for a step on the CPU. One by default: a figure per core, and no
    /// spinning thread fighting whatever else runs (on a shared core that costs 50 times).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print one JSON array (an object per precision) instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let nn::DeviceChoice::Simulated(_) = args.device {
        return Err(InputError(
            "--device sim: a simulated device runs no training step; choose cpu or cuda".into(),
        )
        .into());
    }
    nn::set_intra_op_threads(args.threads);
    let run = RunDir::new(&args.run);
    let path = run.config();
    let text = read_config_text(&path)?;
    let game = registry::config_game(&text).map_err(|error| config_error(&path, error))?;
    let source = format!("config {}", path.display());
    let reports = for_game(
        &game,
        &source,
        "[game] name",
        Measure {
            args: &args,
            run: &run,
            text: &text,
        },
    )?;
    if args.json {
        println!("{}", serde_json::to_string(&reports)?);
        return Ok(());
    }
    println!(
        "{:<9} {:>8} {:>10} {:>10} {:>11} {:>11} {:>11}",
        "precision", "steps/s", "learn/s", "samples/s", "first loss", "last loss", "last policy"
    );
    for report in &reports {
        println!(
            "{:<9} {:>8.2} {:>10.2} {:>10.0} {:>11.4} {:>11.4} {:>11.4}",
            report.precision,
            report.steps_per_sec,
            report.learn_steps_per_sec,
            report.samples_per_sec,
            report.first_losses.total,
            report.last_losses.total,
            report.last_losses.policy,
        );
    }
    if let Some(report) = reports.first() {
        println!(
            "{} net on {}, batch {}, {} timed steps each; learn/s leaves out sampling",
            report.net, report.device, report.batch_size, report.steps
        );
    }
    Ok(())
}

struct Measure<'a> {
    args: &'a Args,
    run: &'a RunDir,
    text: &'a str,
}

impl GameWork for Measure<'_> {
    type Output = Vec<TrainingBench>;

    fn run<G: Planes>(self) -> anyhow::Result<Vec<TrainingBench>> {
        let path = self.run.config();
        let mut config: RunConfig<G::Options> =
            RunConfig::parse(self.text).map_err(|error| config_error(&path, error))?;
        if let Some(batch) = self.args.batch {
            if batch == 0 {
                return Err(InputError("--batch 0: expected at least 1".into()).into());
            }
            config.training.batch_size = batch;
        }
        if let Some(net) = self.args.net {
            config.network.blocks = Some(net.blocks);
            config.network.channels = Some(net.channels);
            config.network.init_from = None;
        }
        let device = self.args.device.torch_device();
        self.args
            .precision
            .iter()
            .map(|&precision| {
                train::bench::training::<G>(self.run, &config, device, precision, self.args.steps)
            })
            .collect()
    }
}
