//! `ghast bench onnx`: a bundle's network on libtorch and on its model.onnx (tract), side by
//! side, through the evaluator search reads: evaluations per second at each batch size.

use crate::InputError;
use crate::commands::registry::{GameWork, for_game};
use clap::Args as ClapArgs;
use game::{Evaluation, Evaluator, Planes};
use nn::NetEvaluator;
use play::Bundle;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(ClapArgs)]
pub struct Args {
    /// The bundle: a folder with model.onnx (`ghast export --onnx`) beside its weights.
    #[arg(long, value_name = "DIR")]
    bot: PathBuf,
    /// Batch sizes to time, comma-separated (1: a bot's search; 64: self-play's games in
    /// flight).
    #[arg(long, value_delimiter = ',', default_value = "1,64")]
    batch: Vec<usize>,
    /// Seconds to time each runtime at each batch size; the two alternate in rounds of a
    /// tenth of it, so that the machine's load falls on both alike.
    #[arg(long, default_value = "5", value_parser = super::seconds)]
    seconds: Duration,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(bad) = args.batch.iter().find(|&&b| b == 0 || b > 4096) {
        return Err(InputError(format!("--batch {bad}: expected 1 to 4096")).into());
    }
    let game = play::game_of(&args.bot).map_err(|e| InputError(e.to_string()))?;
    let source = format!("bot {}", args.bot.display());
    for_game(&game, &source, "game", Measure(&args))
}

struct Measure<'a>(&'a Args);

impl GameWork for Measure<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        measure::<G>(self.0)
    }
}

fn measure<G: Planes>(args: &Args) -> anyhow::Result<()> {
    let input_error = |e: play::PlayError| InputError(e.to_string());
    let bundle = Bundle::<G>::load(&args.bot).map_err(input_error)?;
    let options = bundle.settings.game_options.clone();
    let model = play::onnx_of(&args.bot).map_err(input_error)?;
    // One thread each: tract runs a pass on one, and self-play on a CPU gives each search
    // thread its own evaluator.
    nn::set_intra_op_threads(1);
    let max_batch = *args.batch.iter().max().expect("clap gives at least one");
    let mut torch = bundle
        .evaluator(tch::Device::Cpu.into(), max_batch)
        .map_err(input_error)?;
    let mut onnx = NetEvaluator::<G>::onnx(&model, &options, max_batch)?;
    let positions = game::playout::random_decision_positions::<G>(&options, max_batch, 30, 1);
    let mut rows = Vec::new();
    for &batch in &args.batch {
        let batch_positions: Vec<&G> = positions.iter().take(batch).collect();
        let mut out = vec![Evaluation::default(); batch];
        // A first pass of each readies its plan or kernels for the shape.
        torch.evaluate(&batch_positions, &mut out)?;
        onnx.evaluate(&batch_positions, &mut out)?;
        let round = args.seconds / 10;
        let (mut torch_rate, mut onnx_rate) = (Rate::default(), Rate::default());
        for _ in 0..10 {
            torch_rate.add(round, || torch.evaluate(&batch_positions, &mut out))?;
            onnx_rate.add(round, || onnx.evaluate(&batch_positions, &mut out))?;
        }
        let (torch_rate, onnx_rate) = (torch_rate.per_second(batch), onnx_rate.per_second(batch));
        rows.push(serde_json::json!({
            "batch": batch,
            "libtorch_evals_per_s": torch_rate,
            "onnx_evals_per_s": onnx_rate,
            "onnx_over_libtorch": onnx_rate / torch_rate,
        }));
    }
    if args.json {
        let report = serde_json::json!({"bot": args.bot, "game": G::NAME, "batches": rows});
        println!("{report}");
        return Ok(());
    }
    println!(
        "{} ({}), one CPU thread each, evaluations per second:",
        args.bot.display(),
        G::NAME
    );
    println!("| batch | libtorch | onnx (tract) | onnx / libtorch |");
    println!("| ---: | ---: | ---: | ---: |");
    for row in rows {
        println!(
            "| {} | {:.0} | {:.0} | {:.2} |",
            row["batch"],
            row["libtorch_evals_per_s"].as_f64().unwrap_or(0.0),
            row["onnx_evals_per_s"].as_f64().unwrap_or(0.0),
            row["onnx_over_libtorch"].as_f64().unwrap_or(0.0)
        );
    }
    Ok(())
}

/// Passes and the time they took.
#[derive(Default)]
struct Rate {
    passes: u64,
    elapsed: Duration,
}

impl Rate {
    /// Runs `pass` again and again for about `budget`.
    fn add(
        &mut self,
        budget: Duration,
        mut pass: impl FnMut() -> Result<(), game::DeviceError>,
    ) -> Result<(), game::DeviceError> {
        let started = Instant::now();
        while started.elapsed() < budget {
            pass()?;
            self.passes += 1;
        }
        self.elapsed += started.elapsed();
        Ok(())
    }

    fn per_second(&self, batch: usize) -> f64 {
        (self.passes * batch as u64) as f64 / self.elapsed.as_secs_f64()
    }
}
