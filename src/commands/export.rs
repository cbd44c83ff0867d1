use super::registry::{GameWork, for_game};
use crate::InputError;
use clap::Args as ClapArgs;
use game::{Game, Planes};
use play::{BOT_FILE, Bundle, DEFAULT_VISITS, ONNX_FILE, SIDECAR_FILE, WEIGHTS_FILE};
use std::path::PathBuf;

/// `ghast export`: a bundle from a checkpoint, and its network as ONNX (see the command's
/// help in `commands/mod.rs`).
#[derive(ClapArgs)]
pub struct Args {
    /// The checkpoint to ship: a `.safetensors` file with its `.json` sidecar beside it, as
    /// the trainer writes them (for example `run/checkpoints/gen-0042.safetensors`).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "bundle",
        requires = "out"
    )]
    checkpoint: Option<PathBuf>,
    /// The bundle folder to write; created if needed, its bundle files replaced.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Visits per move the bot searches by default (`ghast gtp --visits` overrides it).
    /// More visits play stronger and slower.
    #[arg(long, default_value_t = DEFAULT_VISITS, conflicts_with = "bundle")]
    visits: u32,
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
    let input_error = |e: play::PlayError| anyhow::Error::new(InputError(e.to_string()));
    let (source, what) = match (&args.checkpoint, &args.bundle) {
        (Some(checkpoint), _) => (checkpoint, "checkpoint"),
        (None, Some(bundle)) => (bundle, "bundle"),
        (None, None) => unreachable!("clap requires --checkpoint or --bundle"),
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
            let bundle =
                Bundle::<G>::from_checkpoint(checkpoint, args.visits).map_err(input_error)?;
            bundle.save(out)?;
            println!(
                "wrote {} ({WEIGHTS_FILE}, {SIDECAR_FILE}, {BOT_FILE}): {} generation {}, {} visits, game options {}",
                out.display(),
                G::NAME,
                bundle.description.provenance.generation,
                bundle.settings.visits,
                serde_json::to_string(&bundle.settings.game_options)?
            );
            out
        }
        (None, None, Some(bundle)) => bundle,
        _ => unreachable!("clap's rules leave these two forms"),
    };
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
