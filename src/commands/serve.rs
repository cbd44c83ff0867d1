use super::backend::Backend;
use super::registry::{GameWork, for_game};
use crate::InputError;
use clap::Args as ClapArgs;
use game::{BoardView, BoardViewWork, Planes};
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// A web page to play against a bot and to analyse: open the printed address in a browser.
/// The page plays the bot's game, drawn as its board, for the games that have a page
/// (`ghast games` says which do).
///
/// Each browser gets its own game (a session cookie names it; the 256 most recently used games
/// are kept). Requests are answered concurrently: up to --searches bots think at once, and
/// reading the board never waits for a search. Clients must send a request head within 10
/// seconds and a body (at most 64 KiB) within 10 more; a request may take --request-timeout.
/// The server listens on 127.0.0.1 unless told otherwise.
///
/// Examples:
///   ghast serve --bot models/ghast-size4
///   ghast serve --bot models/ghodak9
///   ghast serve --bot runs/small/bot --port 0 --searches 4
#[derive(ClapArgs)]
pub struct Args {
    /// The bot: a bundle folder (weights, sidecar and `bot.toml`), or a `.safetensors`
    /// checkpoint with its sidecar beside it. The page's games follow the bot's rules; only
    /// the board size can change, since one network plays every size.
    #[arg(long, value_name = "DIR")]
    bot: PathBuf,
    /// Port to listen on; 0 picks a free one (the address is printed on standard output).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Anyone who can reach it can play.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Visits the bot searches per move in a new client's first game (default: the bundle's;
    /// the page can change it).
    #[arg(long)]
    visits: Option<u32>,
    /// Searches that run at once, each with its own copy of the network [default: one per
    /// core].
    #[arg(long)]
    searches: Option<usize>,
    /// Seconds a request may take, a search included, before it is answered 408.
    #[arg(long, default_value_t = 300)]
    request_timeout: u64,
    /// Connections open at once; more wait to be accepted.
    #[arg(long, default_value_t = 256)]
    max_connections: usize,
    /// What runs the network: `torch` (libtorch, on CUDA when there is one) or `onnx` (the
    /// bundle's model.onnx on tract, on the CPU). A build without libtorch has `onnx` only.
    #[arg(long, value_enum, default_value_t = Backend::DEFAULT)]
    backend: Backend,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let searches = match args.searches {
        Some(0) => return Err(InputError("--searches 0: expected at least 1".into()).into()),
        Some(searches) => searches,
        None => crate::commands::arena::default_threads(),
    };
    if !(1..=86_400).contains(&args.request_timeout) {
        return Err(InputError(format!(
            "--request-timeout {}: expected 1 to 86400 seconds",
            args.request_timeout
        ))
        .into());
    }
    if args.max_connections == 0 {
        return Err(InputError("--max-connections 0: expected at least 1".into()).into());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Each search evaluates one leaf at a time; libtorch's threads would only fight them.
    nn::set_intra_op_threads((cores / searches).max(1));
    let game = play::game_of(&args.bot).map_err(|error| InputError(error.to_string()))?;
    let source = format!("bot {}", args.bot.display());
    for_game(&game, &source, "game", Serve { args, searches })
}

/// The page for the game the bot plays.
struct Serve {
    args: Args,
    searches: usize,
}

impl GameWork for Serve {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        G::with_board_view(self).unwrap_or_else(|| {
            Err(InputError(format!(
                "{} has no page yet: play it with `ghast arena` or train it with `ghast train`",
                G::NAME
            ))
            .into())
        })
    }
}

impl<G: Planes> BoardViewWork<G> for Serve {
    type Output = anyhow::Result<()>;

    fn run(self) -> anyhow::Result<()>
    where
        G: BoardView,
    {
        let args = self.args;
        let runtime = args.backend.runtime(nn::DeviceChoice::Best)?;
        let loaded = serve::load_bots::<G>(&args.bot, self.searches, runtime).map_err(|error| {
            InputError(format!(
                "loading the bot from {}: {error}",
                args.bot.display()
            ))
        })?;
        let visits = args.visits.unwrap_or(loaded.visits);
        let app =
            serve::App::<G, _>::new(loaded.bots, loaded.options, visits).with_levels(loaded.levels);
        let limits = serve::Limits {
            request_timeout: Duration::from_secs(args.request_timeout),
            max_connections: args.max_connections,
            ..serve::Limits::default()
        };
        serve::serve(
            app,
            SocketAddr::new(args.bind, args.port),
            limits,
            |address| {
                // The address goes to standard output, flushed, so scripts and tests can read it.
                println!("ghast serve: listening on http://{address}/");
                let _ = std::io::stdout().flush();
            },
        )?;
        Ok(())
    }
}
