#![no_main]
//! Requests to `ghast serve`'s API as the HTTP layer hands them over (method, path with
//! query, session cookie, body), against a server of every game with a page that keeps its
//! sessions between inputs: every request gets a reply and the server never panics. Input: a
//! game byte (its remainder by 6 picks Ghast, Fakerghast, Ghodak, Vastuz, Qast or Ghost
//! Chess, each on its default rules), then the four fields, one per line, the body last (it
//! may span lines).

use game::BoardView;
use libfuzzer_sys::fuzz_target;
use mcts::{SearchConfig, UniformEvaluator};
use play::Bot;
use serve::{App, BotPool, Request};
use std::sync::OnceLock;

/// One game's server, started once per fuzzing process.
type Server<G> = OnceLock<App<G, UniformEvaluator>>;

fn serve<G: BoardView>(server: &'static Server<G>, request: Request) {
    let app = server.get_or_init(|| {
        let bot = Bot::with_evaluator("uniform", UniformEvaluator, SearchConfig::play(), 8, 0)
            .expect("8 visits are allowed");
        App::new(BotPool::new(vec![bot]), G::Options::default(), 8)
    });
    let reply = app.handle(request);
    assert!((200..600).contains(&reply.status), "{}", reply.status);
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut fields = text.splitn(4, '\n');
    let method = fields.next().unwrap_or_default();
    let path = fields.next().unwrap_or_default();
    let session = fields.next().filter(|cookie| !cookie.is_empty());
    let body = fields.next().unwrap_or_default();
    // Searches of up to 100,000 visits are allowed, but they would only slow the fuzzer.
    if body.contains("visits") && body.len() > 16 {
        return;
    }
    let request = Request {
        method,
        path,
        session,
        body,
    };
    static GHAST: Server<ghast::Ghast> = OnceLock::new();
    static FAKERGHAST: Server<ghast::Fakerghast> = OnceLock::new();
    static GHODAK: Server<ghodak::Ghodak> = OnceLock::new();
    static VASTUZ: Server<vastuz::Vastuz> = OnceLock::new();
    static QAST: Server<qast::Qast> = OnceLock::new();
    static GHOST_CHESS: Server<ghostchess::GhostChess> = OnceLock::new();
    match selector % 6 {
        0 => serve(&GHAST, request),
        1 => serve(&FAKERGHAST, request),
        2 => serve(&GHODAK, request),
        3 => serve(&VASTUZ, request),
        4 => serve(&QAST, request),
        _ => serve(&GHOST_CHESS, request),
    }
});
