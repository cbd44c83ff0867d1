use super::registry::{GameWork, for_game};
use crate::InputError;
use clap::Args as ClapArgs;
use game::{Game, Planes};
use play::{BOT_FILE, Bundle, DEFAULT_VISITS, ONNX_FILE, SIDECAR_FILE, WEIGHTS_FILE};
use std::path::{Path, PathBuf};

/// `ghast export`: a bundle from a checkpoint, and its network as ONNX (see the command's
/// help in `commands/mod.rs`).
#[derive(ClapArgs)]
pub struct Args {
    /// The checkpoint to ship: a `.safetensors` file with its `.json` sidecar beside it, as
    /// the trainer writes them (for example `run/checkpoints/gen-0042.safetensors`).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present_any = ["bundle", "run"],
        requires = "out"
    )]
    checkpoint: Option<PathBuf>,
    /// A training run folder instead: its bot as `ghast train` writes it at the end (the
    /// generation self-play last used, searching as the config's `[bot]` says), into --out.
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with_all = ["checkpoint", "bundle"],
        requires = "out"
    )]
    run: Option<PathBuf>,
    /// With --run: the bot plays the average of the run's latest N generations, every weight
    /// with the same share (checkpoint averaging, as KataGo's SWA for the nets it releases),
    /// its batch-norm statistics measured on the run's games. The average is written beside
    /// them as models/average-FIRST-LAST.safetensors. The run must still keep those
    /// generations: its newest `[run] keep_newest_generations` (8 by default). [default: the
    /// config's `[bot] averaged_generations`; 1 the latest generation alone]
    #[arg(long, value_name = "N", requires = "run")]
    average: Option<u64>,
    /// The bundle folder to write; created if needed, its bundle files replaced.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Visits per move the bot searches by default (`ghast gtp --visits` overrides it).
    /// More visits play stronger and slower. [default: 400; with --run, the config's `[bot]
    /// visits`]
    #[arg(long, conflicts_with = "bundle")]
    visits: Option<u32>,
    /// Also write the network as `model.onnx` into the bundle.
    #[arg(long)]
    onnx: bool,
    /// An existing bundle to write `model.onnx` into, from its own weights, leaving the rest
    /// of it as it is (with --onnx).
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with_all = ["checkpoint", "out"],
        requires = "onnx"
    )]
    bundle: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(run) = &args.run {
        return from_run::export(&args, run);
    }
    let input_error = |e: play::PlayError| anyhow::Error::new(InputError(e.to_string()));
    let (source, what) = match (&args.checkpoint, &args.bundle) {
        (Some(checkpoint), _) => (checkpoint, "checkpoint"),
        (None, Some(bundle)) => (bundle, "bundle"),
        (None, None) => unreachable!("clap requires --checkpoint, --bundle or --run"),
    };
    let game = play::game_of(source).map_err(input_error)?;
    let source = format!("{what} {}", source.display());
    for_game(&game, &source, "game", Export(&args))
}

/// The bundle of a checkpoint of the game its sidecar names.
struct Export<'a>(&'a Args);

impl GameWork for Export<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        export::<G>(self.0)
    }
}

fn export<G: Game>(args: &Args) -> anyhow::Result<()> {
    let input_error = |e: play::PlayError| InputError(e.to_string());
    let out = match (&args.checkpoint, &args.out, &args.bundle) {
        (Some(checkpoint), Some(out), _) => {
            let visits = args.visits.unwrap_or(DEFAULT_VISITS);
            let bundle = Bundle::<G>::from_checkpoint(checkpoint, visits).map_err(input_error)?;
            bundle.save(out)?;
            report_written(&bundle, out)?;
            out
        }
        (None, None, Some(bundle)) => bundle,
        _ => unreachable!("clap's rules leave these two forms"),
    };
    write_onnx_if_asked::<G>(args, out)
}

fn report_written<G: Game>(bundle: &Bundle<G>, out: &Path) -> anyhow::Result<()> {
    println!(
        "wrote {} ({WEIGHTS_FILE}, {SIDECAR_FILE}, {BOT_FILE}): {} generation {}, {} visits, game options {}",
        out.display(),
        G::NAME,
        bundle.description.provenance.generation,
        bundle.settings.visits,
        serde_json::to_string(&bundle.settings.game_options)?
    );
    Ok(())
}

/// With --onnx, the bundle in `out`'s network as `model.onnx` beside it.
fn write_onnx_if_asked<G: Game>(args: &Args, out: &Path) -> anyhow::Result<()> {
    let input_error = |e: play::PlayError| InputError(e.to_string());
    if args.onnx {
        let path = play::write_onnx::<G>(out).map_err(input_error)?;
        let size = std::fs::metadata(&path)?.len();
        println!(
            "wrote {} ({ONNX_FILE}, {:.1} kB, ONNX opset {})",
            path.display(),
            size as f64 / 1e3,
            onnx::OPSET
        );
    }
    Ok(())
}

/// `ghast export --run`: a run's bot, which needs the run's configuration and, to average
/// generations, libtorch.
#[cfg(feature = "torch")]
mod from_run {
    use super::{Args, report_written, write_onnx_if_asked};
    use crate::commands::registry::{GameWork, config_game, for_game};
    use crate::commands::train::{bot_checkpoint, config_error, read_config_text, write_run_bot};
    use game::Planes;
    use std::path::Path;
    use train::{RunConfig, RunDir};

    pub fn export(args: &Args, run: &Path) -> anyhow::Result<()> {
        let run = RunDir::new(run.to_owned());
        let path = run.config();
        let text = read_config_text(&path)?;
        let game = config_game(&text).map_err(|error| config_error(&path, error))?;
        let source = format!("run {}", run.root().display());
        for_game(
            &game,
            &source,
            "[game] name",
            FromRun {
                args,
                run: &run,
                text: &text,
            },
        )
    }

    struct FromRun<'a> {
        args: &'a Args,
        run: &'a RunDir,
        text: &'a str,
    }

    impl GameWork for FromRun<'_> {
        type Output = ();

        fn run<G: Planes>(self) -> anyhow::Result<()> {
            let FromRun { args, run, text } = self;
            let path = run.config();
            let config: RunConfig<G::Options> =
                RunConfig::parse(text).map_err(|error| config_error(&path, error))?;
            let average = args.average.unwrap_or(config.bot.averaged_generations);
            let checkpoint = bot_checkpoint::<G>(run, &config, average)?;
            let out = args.out.as_deref().expect("clap requires --out with --run");
            let visits = args.visits.unwrap_or(config.bot.visits);
            let bundle = write_run_bot::<G>(&config, &checkpoint, visits, out)?;
            report_written(&bundle, out)?;
            write_onnx_if_asked::<G>(args, out)
        }
    }
}

/// A build without libtorch cannot read a run's configuration.
#[cfg(not(feature = "torch"))]
mod from_run {
    use super::Args;
    use std::path::Path;

    pub fn export(_: &Args, _: &Path) -> anyhow::Result<()> {
        crate::commands::needs_torch::refuse("export --run")
    }
}
