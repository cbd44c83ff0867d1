//! `ghast bench serve`: a bounded load test of `ghast serve` on loopback. Many clients play
//! whole games at once while one long analysis runs, an idle connection and a half-sent
//! request hang about, and malformed requests arrive; every request must succeed (or, for
//! the malformed ones, be refused 4xx) and the latencies are reported.

use crate::InputError;
use crate::commands::arena::default_threads;
use crate::commands::registry::{GameWork, for_game};
use anyhow::{Context, anyhow, bail};
use clap::Args as ClapArgs;
use game::{BoardView, BoardViewWork, Planes};
use serde::Serialize;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(ClapArgs)]
pub struct Args {
    /// The bot to serve: a bundle folder or a checkpoint (see `ghast serve --help`).
    #[arg(long, value_name = "DIR")]
    bot: PathBuf,
    /// Clients playing a whole game each, all at once.
    #[arg(long, default_value_t = 8)]
    clients: usize,
    /// The bot's visits per move in the clients' games.
    #[arg(long, default_value_t = 16)]
    visits: u32,
    /// Board size of the clients' games [default: the bot's].
    #[arg(long)]
    size: Option<i64>,
    /// Visits of one analysis that runs alongside the games (0: none).
    #[arg(long, default_value_t = 20_000)]
    long_analysis: u32,
    /// Searches the server runs at once [default: one per core].
    #[arg(long)]
    searches: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    clients: usize,
    games_finished: usize,
    requests: usize,
    failures: Vec<String>,
    wall_seconds: f64,
    endpoints: Vec<EndpointLatency>,
    long_analysis: Option<LongAnalysis>,
    /// Whether the server closed a connection that never sent a byte, and after how long.
    idle_connection_closed_after_seconds: Option<f64>,
    malformed: Vec<MalformedReply>,
}

#[derive(Serialize)]
struct EndpointLatency {
    endpoint: String,
    count: usize,
    p50_ms: f64,
    p95_ms: f64,
    max_ms: f64,
}

#[derive(Serialize)]
struct LongAnalysis {
    visits: u32,
    seconds: f64,
    /// Requests of the other clients answered while it ran.
    requests_answered_meanwhile: usize,
}

#[derive(Serialize)]
struct MalformedReply {
    request: &'static str,
    status: Option<u16>,
}

/// One request's outcome as a client saw it.
struct Timed {
    endpoint: &'static str,
    started: Instant,
    finished: Instant,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.clients == 0 || args.visits == 0 || args.searches == Some(0) {
        return Err(
            InputError("--clients, --visits and --searches: expected at least 1".into()).into(),
        );
    }
    let address = start_server(&args)?;
    let base = format!("http://{address}");
    let idle = TcpStream::connect(address).context("cannot open the idle connection")?;
    let idle_closed = std::thread::spawn(move || closed_after(idle, Instant::now()));
    let mut half_sent = TcpStream::connect(address).context("cannot open a connection")?;
    half_sent.write_all(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")?;

    let started = Instant::now();
    let (long_sender, long_receiver) = mpsc::channel();
    if args.long_analysis > 0 {
        let (base, visits) = (base.clone(), args.long_analysis);
        std::thread::spawn(move || {
            let client = Client::new(&base);
            let begun = Instant::now();
            let outcome = client.post("/api/analyse", &json!({ "visits": visits }));
            let _ = long_sender.send((outcome.map(|_| ()), begun, Instant::now()));
        });
    }
    let games: Vec<_> = (0..args.clients)
        .map(|_| {
            let (base, visits, size) = (base.clone(), args.visits, args.size);
            std::thread::spawn(move || play_game(&Client::new(&base), visits, size))
        })
        .collect();
    let mut timed = Vec::new();
    let mut failures = Vec::new();
    let mut games_finished = 0;
    for game in games {
        let (requests, outcome) = game.join().map_err(|_| anyhow!("a client panicked"))?;
        timed.extend(requests);
        match outcome {
            Ok(()) => games_finished += 1,
            Err(error) => failures.push(format!("{error:#}")),
        }
    }
    let long_analysis = if args.long_analysis > 0 {
        let (outcome, begun, ended) = long_receiver
            .recv()
            .map_err(|_| anyhow!("the long analysis never answered"))?;
        if let Err(error) = outcome {
            failures.push(format!("long analysis: {error:#}"));
        }
        Some(LongAnalysis {
            visits: args.long_analysis,
            seconds: (ended - begun).as_secs_f64(),
            requests_answered_meanwhile: timed
                .iter()
                .filter(|t| t.finished > begun && t.finished < ended)
                .count(),
        })
    } else {
        None
    };
    let wall_seconds = started.elapsed().as_secs_f64();
    let idle_connection_closed_after_seconds = idle_closed.join().ok().flatten();
    drop(half_sent);
    let malformed = send_malformed(address);
    for reply in &malformed {
        if !reply.status.is_some_and(|s| (400..500).contains(&s)) {
            failures.push(format!(
                "{}: answered {:?}, expected 4xx",
                reply.request, reply.status
            ));
        }
    }
    if let Err(error) = Client::new(&base).get("/api/state") {
        failures.push(format!("after the malformed requests: {error:#}"));
    }
    let report = Report {
        clients: args.clients,
        games_finished,
        requests: timed.len(),
        failures,
        wall_seconds,
        endpoints: latencies(&timed),
        long_analysis,
        idle_connection_closed_after_seconds,
        malformed,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    if !report.failures.is_empty() {
        bail!(
            "{} of the load test's checks failed; first: {}",
            report.failures.len(),
            report.failures[0]
        );
    }
    Ok(())
}

/// Starts the server in this process on a free loopback port, for the bot's game.
fn start_server(args: &Args) -> anyhow::Result<SocketAddr> {
    let game = play::game_of(&args.bot)
        .with_context(|| format!("loading the bot from {}", args.bot.display()))?;
    let source = format!("bot {}", args.bot.display());
    for_game(&game, &source, "game", StartServer(args))
}

struct StartServer<'a>(&'a Args);

impl GameWork for StartServer<'_> {
    type Output = SocketAddr;

    fn run<G: Planes>(self) -> anyhow::Result<SocketAddr> {
        G::with_board_view(self)
            .unwrap_or_else(|| Err(anyhow!("{} has no page to load-test", G::NAME)))
    }
}

impl<G: Planes> BoardViewWork<G> for StartServer<'_> {
    type Output = anyhow::Result<SocketAddr>;

    fn run(self) -> anyhow::Result<SocketAddr>
    where
        G: BoardView,
    {
        let args = self.0;
        let searches = args.searches.unwrap_or_else(default_threads);
        nn::set_intra_op_threads(1);
        let loaded = serve::load_bots::<G>(&args.bot, searches, play::Runtime::default())
            .with_context(|| format!("loading the bot from {}", args.bot.display()))?;
        let app = serve::App::<G, _>::new(loaded.bots, loaded.options, args.visits);
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
            let served = serve::serve(app, loopback, serve::Limits::default(), |address| {
                let _ = sender.send(address);
            });
            if let Err(error) = served {
                eprintln!("ghast bench serve: {error}");
            }
        });
        receiver
            .recv()
            .map_err(|_| anyhow!("the server did not start"))
    }
}

/// Plays one whole game: the bot's moves through `/api/bot`, the human's through a one-visit
/// analysis and `/api/play`.
fn play_game(client: &Client, visits: u32, size: Option<i64>) -> (Vec<Timed>, anyhow::Result<()>) {
    let mut timed = Vec::new();
    // A new client's game has the human moving first, whatever the game calls that side.
    let mut new_game = json!({ "visits": visits });
    if let Some(size) = size {
        new_game["size"] = json!(size);
    }
    let outcome = (|| -> anyhow::Result<()> {
        client.timed(&mut timed, "new", |c| c.post("/api/new", &new_game))?;
        loop {
            let state = client.timed(&mut timed, "state", |c| c.get("/api/state"))?;
            if !state["result"].is_null() {
                return Ok(());
            }
            if state["bot_to_move"] == true {
                client.timed(&mut timed, "bot", |c| c.post("/api/bot", &json!({})))?;
            } else {
                let analysis = client.timed(&mut timed, "analyse", |c| {
                    c.post("/api/analyse", &json!({ "visits": 1 }))
                })?;
                let best = analysis["moves"][0]["move"]
                    .as_str()
                    .ok_or_else(|| anyhow!("an analysis with no moves: {analysis}"))?
                    .to_owned();
                client.timed(&mut timed, "play", |c| {
                    c.post("/api/play", &json!({ "move": best }))
                })?;
            }
        }
    })();
    (timed, outcome)
}

/// A browser-like client: it keeps the session cookie the server gives it.
struct Client {
    agent: ureq::Agent,
    base: String,
    cookie: std::cell::RefCell<Option<String>>,
}

impl Client {
    fn new(base: &str) -> Client {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(600)))
            .build()
            .into();
        Client {
            agent,
            base: base.to_owned(),
            cookie: std::cell::RefCell::new(None),
        }
    }

    fn get(&self, path: &str) -> anyhow::Result<Value> {
        let mut request = self.agent.get(format!("{}{path}", self.base));
        if let Some(cookie) = self.cookie.borrow().as_deref() {
            request = request.header("Cookie", cookie);
        }
        self.read(path, request.call())
    }

    fn post(&self, path: &str, body: &Value) -> anyhow::Result<Value> {
        let mut request = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Content-Type", "application/json");
        if let Some(cookie) = self.cookie.borrow().as_deref() {
            request = request.header("Cookie", cookie);
        }
        self.read(path, request.send(body.to_string()))
    }

    fn read(
        &self,
        path: &str,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> anyhow::Result<Value> {
        let mut response = response.with_context(|| format!("{path}: no answer"))?;
        if let Some(set) = response.headers().get("set-cookie") {
            let pair = set.to_str().unwrap_or_default().split(';').next();
            *self.cookie.borrow_mut() = pair.map(str::to_owned);
        }
        let status = response.status().as_u16();
        let body = response
            .body_mut()
            .read_to_string()
            .with_context(|| format!("{path}: unreadable reply"))?;
        if status != 200 {
            bail!("{path}: status {status}: {body}");
        }
        serde_json::from_str(&body).with_context(|| format!("{path}: not JSON: {body}"))
    }

    fn timed(
        &self,
        timed: &mut Vec<Timed>,
        endpoint: &'static str,
        request: impl FnOnce(&Client) -> anyhow::Result<Value>,
    ) -> anyhow::Result<Value> {
        let started = Instant::now();
        let reply = request(self);
        timed.push(Timed {
            endpoint,
            started,
            finished: Instant::now(),
        });
        reply
    }
}

/// Waits (up to the server's header timeout and a little more) for the server to close a
/// connection that sends nothing; the seconds since `opened` when it did.
fn closed_after(mut idle: TcpStream, opened: Instant) -> Option<f64> {
    let patience = serve::Limits::default().header_timeout + Duration::from_secs(5);
    idle.set_read_timeout(Some(patience)).ok()?;
    let mut byte = [0u8; 1];
    match idle.read(&mut byte) {
        Ok(0) => Some(opened.elapsed().as_secs_f64()),
        _ => None,
    }
}

/// Requests no browser sends; each must get a 4xx and leave the server answering.
fn send_malformed(address: SocketAddr) -> Vec<MalformedReply> {
    let oversized = format!(
        "POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Length: {0}\r\n\r\n{1}",
        serve::MAX_BODY + 1,
        "x".repeat(serve::MAX_BODY + 1)
    );
    let cases: [(&'static str, String); 4] = [
        ("not HTTP", "HELLO THERE\r\n\r\n".to_owned()),
        (
            "a body that is not JSON",
            "POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n{not json".to_owned(),
        ),
        ("a body over the limit", oversized),
        (
            "an unknown page",
            "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n".to_owned(),
        ),
    ];
    cases
        .into_iter()
        .map(|(request, bytes)| MalformedReply {
            request,
            status: raw_status(address, bytes.as_bytes()),
        })
        .collect()
}

/// Sends `bytes` on a fresh connection and reads the status code of the reply.
fn raw_status(address: SocketAddr, bytes: &[u8]) -> Option<u16> {
    let mut stream = TcpStream::connect(address).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    // The server may answer and close before reading all of an oversized body.
    let _ = stream.write_all(bytes);
    let mut head = [0u8; 64];
    let read = stream.read(&mut head).ok()?;
    let line = std::str::from_utf8(&head[..read]).ok()?;
    line.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

fn latencies(timed: &[Timed]) -> Vec<EndpointLatency> {
    let mut endpoints: Vec<&'static str> = timed.iter().map(|t| t.endpoint).collect();
    endpoints.sort_unstable();
    endpoints.dedup();
    endpoints
        .into_iter()
        .map(|endpoint| {
            let mut ms: Vec<f64> = timed
                .iter()
                .filter(|t| t.endpoint == endpoint)
                .map(|t| (t.finished - t.started).as_secs_f64() * 1e3)
                .collect();
            ms.sort_unstable_by(f64::total_cmp);
            let quantile = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
            EndpointLatency {
                endpoint: endpoint.to_owned(),
                count: ms.len(),
                p50_ms: quantile(0.5),
                p95_ms: quantile(0.95),
                max_ms: quantile(1.0),
            }
        })
        .collect()
}

fn print_report(report: &Report) {
    println!(
        "{} clients: {} games finished, {} requests in {:.1} s ({:.0}/s), {} failures",
        report.clients,
        report.games_finished,
        report.requests,
        report.wall_seconds,
        report.requests as f64 / report.wall_seconds.max(1e-9),
        report.failures.len()
    );
    println!(
        "{:<10} {:>7} {:>9} {:>9} {:>9}",
        "endpoint", "count", "p50 ms", "p95 ms", "max ms"
    );
    for e in &report.endpoints {
        println!(
            "{:<10} {:>7} {:>9.1} {:>9.1} {:>9.1}",
            e.endpoint, e.count, e.p50_ms, e.p95_ms, e.max_ms
        );
    }
    if let Some(long) = &report.long_analysis {
        println!(
            "long analysis: {} visits in {:.1} s; {} other requests answered meanwhile",
            long.visits, long.seconds, long.requests_answered_meanwhile
        );
    }
    match report.idle_connection_closed_after_seconds {
        Some(seconds) => println!("idle connection: closed by the server after {seconds:.1} s"),
        None => println!("idle connection: still open"),
    }
    for m in &report.malformed {
        println!(
            "{}: {}",
            m.request,
            m.status.map_or("no answer".into(), |s| s.to_string())
        );
    }
    for failure in &report.failures {
        println!("FAILED: {failure}");
    }
}
