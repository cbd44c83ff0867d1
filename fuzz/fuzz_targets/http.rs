#![no_main]
//! Requests to `ghast serve`'s API as the HTTP layer hands them over (method, path with
//! query, session cookie, body), against a server of every game with a page that keeps its
//! sessions between inputs: every request gets a reply and the server never panics. Input: a
//! game byte (its remainder by the number of games with a page picks one, in the list's
//! order: Ghast, Fakerghast, Ghodak, Vastuz, Qast, Ghost Chess today, each on its default
//! rules), then the four fields, one per line, the body last (it may span lines).

use game::{BoardView, BoardViewWork, Planes};
use ghast_fuzz::{Pick, for_every_game};
use libfuzzer_sys::fuzz_target;
use mcts::{SearchConfig, UniformEvaluator};
use play::Bot;
use serve::{App, BotPool, Request};
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Each game's server, started once per fuzzing process and kept for its life, so that
/// sessions carry over from input to input.
static SERVERS: Mutex<BTreeMap<&'static str, &'static (dyn Any + Send + Sync)>> =
    Mutex::new(BTreeMap::new());

fn serve<G: BoardView>(request: Request) {
    let server = *SERVERS
        .lock()
        .expect("no fuzz input panicked holding the lock")
        .entry(G::NAME)
        .or_insert_with(|| {
            let bot = Bot::with_evaluator("uniform", UniformEvaluator, SearchConfig::play(), 8, 0)
                .expect("8 visits are allowed");
            Box::leak(Box::new(App::<G, _>::new(
                BotPool::new(vec![bot]),
                G::Options::default(),
                8,
            )))
        });
    let app = server
        .downcast_ref::<App<G, UniformEvaluator>>()
        .expect("each game's server is kept under its name");
    let reply = app.handle(request);
    assert!((200..600).contains(&reply.status), "{}", reply.status);
}

/// Page work: a request, or only finding out that a game has a page.
struct Serve<'a>(Option<Request<'a>>);

impl<G: Planes> BoardViewWork<G> for Serve<'_> {
    type Output = ();

    fn run(self)
    where
        G: BoardView,
    {
        if let Some(request) = self.0 {
            serve::<G>(request);
        }
    }
}

fn has_a_page<G: Planes>(names: &mut Vec<&'static str>) {
    if G::with_board_view(Serve(None)).is_some() {
        names.push(G::NAME);
    }
}

fn offer<G: Planes>(pick: &Pick, request: &mut Option<Request<'_>>) {
    if pick.is(G::NAME) {
        G::with_board_view(Serve(request.take()));
    }
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
    let mut names = Vec::new();
    for_every_game!(has_a_page(&mut names));
    let pick = Pick::new(selector, names);
    let mut request = Some(request);
    for_every_game!(offer(&pick, &mut request));
});
