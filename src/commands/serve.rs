use anyhow::Context;
use clap::Args as ClapArgs;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// A web page to play against a bot and to analyse: open the printed address in a browser.
///
/// The server answers one request at a time and keeps one game; it is meant for one person
/// on this machine, which is why it listens on 127.0.0.1 unless told otherwise.
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
    /// Address to listen on. Anyone who can reach it can play and see the game.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Visits the bot searches per move in the first game (default: the bundle's; the page
    /// can change it).
    #[arg(long)]
    visits: Option<u32>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let loaded = serve::load_bot(&args.bot)
        .with_context(|| format!("loading the bot from {}", args.bot.display()))?;
    let visits = args.visits.unwrap_or(loaded.visits);
    let app = serve::App::new(loaded.bot, loaded.options, visits);
    serve::serve(app, SocketAddr::new(args.bind, args.port), |address| {
        // The address goes to standard output, flushed, so scripts and tests can read it.
        println!("ghast serve: listening on http://{address}/");
        let _ = std::io::stdout().flush();
    })?;
    Ok(())
}
