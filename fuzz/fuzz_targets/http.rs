#![no_main]
//! Requests to `ghast serve`'s API as the HTTP layer hands them over (method, path with
//! query, session cookie, body), against a server that keeps its sessions between inputs:
//! every request gets a reply and the server never panics. Input: the four fields, one per
//! line, the body last (it may span lines).

use ghast::{Ghast, GhastOptions};
use libfuzzer_sys::fuzz_target;
use mcts::{SearchConfig, UniformEvaluator};
use play::Bot;
use serve::{App, BotPool, Request};
use std::sync::OnceLock;

fn app() -> &'static App<Ghast, UniformEvaluator> {
    static APP: OnceLock<App<Ghast, UniformEvaluator>> = OnceLock::new();
    APP.get_or_init(|| {
        let bot = Bot::with_evaluator("uniform", UniformEvaluator, SearchConfig::play(), 8, 0)
            .expect("8 visits are allowed");
        App::new(BotPool::new(vec![bot]), GhastOptions::default(), 8)
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
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
    let reply = app().handle(Request {
        method,
        path,
        session,
        body,
    });
    assert!((200..600).contains(&reply.status), "{}", reply.status);
});
