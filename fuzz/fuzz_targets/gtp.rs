#![no_main]
//! GTP command streams through the engine, with an untrained bot of every game that speaks
//! GTP: every line gets a response and nothing panics. Input: a game byte (its remainder by
//! the number of games that speak GTP picks one, in the list's order: Ghast, Fakerghast,
//! Ghodak, Vastuz, Qast, Ghost Chess today, each on its default rules), then the commands. Searches are capped at 64 visits so the fuzzer stays fast.

use game::{GtpGame, GtpWork, Planes};
use ghast_fuzz::{Pick, for_every_game};
use libfuzzer_sys::fuzz_target;
use play::gtp::GtpEngine;
use play::{Bot, Bundle};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// An untrained network of each game, saved once per fuzzing process (the folder is kept for
/// the process's life).
static WEIGHTS: Mutex<BTreeMap<&'static str, (tempfile::TempDir, PathBuf)>> =
    Mutex::new(BTreeMap::new());

fn weights<G: Planes>() -> PathBuf {
    let mut saved = WEIGHTS.lock().expect("no fuzz input panicked holding the lock");
    let (_, weights) = saved.entry(G::NAME).or_insert_with(|| {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let weights = dir.path().join("bot.safetensors");
        let options = G::Options::default();
        play::save_untrained::<G>(&weights, &options, play::tiny_config::<G>(&options))
            .expect("save the untrained bot");
        (dir, weights)
    });
    weights.clone()
}

/// Whether a line asks for a search of more than 64 visits.
fn expensive(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let command = words.next().unwrap_or_default();
    let visits = words.next().and_then(|w| w.parse::<u64>().ok());
    (command.ends_with("set_visits") || command.ends_with("analyze")) && visits.unwrap_or(0) > 64
}

/// Runs `input` through a fresh engine of game `G`.
fn converse<G: GtpGame + Planes>(input: &str) {
    let bundle = Bundle::<G>::from_checkpoint(&weights::<G>(), 8).expect("the untrained bot loads");
    let options = bundle.settings.game_options.clone();
    let bot = Bot::new(bundle, tch::Device::Cpu, 0).expect("the untrained bot plays");
    let mut output = Vec::new();
    GtpEngine::new(bot, options)
        .run(input.as_bytes(), &mut output)
        .expect("writing to memory cannot fail");
}

/// GTP work: a conversation, or only finding out that a game speaks GTP.
struct Converse<'a>(Option<&'a str>);

impl<G: Planes> GtpWork<G> for Converse<'_> {
    type Output = ();

    fn run(self)
    where
        G: GtpGame,
    {
        if let Some(input) = self.0 {
            converse::<G>(input);
        }
    }
}

fn speaks_gtp<G: Planes>(names: &mut Vec<&'static str>) {
    if G::with_gtp(Converse(None)).is_some() {
        names.push(G::NAME);
    }
}

fn offer<G: Planes>(pick: &Pick, input: &str) {
    if pick.is(G::NAME) {
        G::with_gtp(Converse(Some(input)));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let input: String = text
        .lines()
        .filter(|line| !expensive(line))
        .map(|line| format!("{line}\n"))
        .collect();
    let mut names = Vec::new();
    for_every_game!(speaks_gtp(&mut names));
    let pick = Pick::new(selector, names);
    for_every_game!(offer(&pick, &input));
});
