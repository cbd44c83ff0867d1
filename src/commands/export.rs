use super::registry::{GameWork, for_game};
use crate::InputError;
use clap::Args as ClapArgs;
use game::{Game, Planes};
use play::{BOT_FILE, Bundle, DEFAULT_VISITS, SIDECAR_FILE, WEIGHTS_FILE};
use std::path::PathBuf;

/// Writes a bot bundle: a folder with the network's weights (`model.safetensors`), its
/// checkpoint sidecar (`model.json`: architecture, game options, generation) and `bot.toml`
/// (visits per move, the game options and the search settings for play), ready for
/// `ghast gtp --bot DIR` or `ghast arena`. Edit `bot.toml` to change how the bot searches.
#[derive(ClapArgs)]
pub struct Args {
    /// The checkpoint to ship: a `.safetensors` file with its `.json` sidecar beside it, as
    /// the trainer writes them (for example `run/checkpoints/gen-0042.safetensors`).
    #[arg(long, value_name = "FILE")]
    checkpoint: PathBuf,
    /// The bundle folder to write; created if needed, its bundle files replaced.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Visits per move the bot searches by default (`ghast gtp --visits` overrides it).
    /// More visits play stronger and slower.
    #[arg(long, default_value_t = DEFAULT_VISITS)]
    visits: u32,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let input_error = |e: play::PlayError| anyhow::Error::new(InputError(e.to_string()));
    let game = play::game_of(&args.checkpoint).map_err(input_error)?;
    let source = format!("checkpoint {}", args.checkpoint.display());
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
    let bundle = Bundle::<G>::from_checkpoint(&args.checkpoint, args.visits)
        .map_err(|e| InputError(e.to_string()))?;
    bundle.save(&args.out)?;
    println!(
        "wrote {} ({WEIGHTS_FILE}, {SIDECAR_FILE}, {BOT_FILE}): {} generation {}, {} visits, game options {}",
        args.out.display(),
        G::NAME,
        bundle.checkpoint.provenance.generation,
        bundle.settings.visits,
        serde_json::to_string(&bundle.settings.game_options)?
    );
    Ok(())
}
