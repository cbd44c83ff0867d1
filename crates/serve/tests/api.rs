//! The JSON API through `App::handle`, with a uniform evaluator instead of a network.

use game::BoardView;
use ghast::{Ghast, RawOptions};
use ghodak::Ghodak;
use mcts::{DeviceError, Evaluation, Evaluator, SearchConfig, UniformEvaluator};
use play::Bot;
use serde_json::Value;
use serve::{App, BotPool, Reply, Request};
use std::sync::{Arc, Condvar, Mutex};

fn app() -> App<Ghast, UniformEvaluator> {
    app_with(UniformEvaluator)
}

fn app_with<E: Evaluator<Ghast>>(evaluator: E) -> App<Ghast, E> {
    let options = RawOptions {
        size: 3,
        win_margin: 3,
        ..RawOptions::default()
    };
    let bot = Bot::with_evaluator("bot", evaluator, SearchConfig::play(), 8, 7).unwrap();
    let bots = BotPool::new(vec![bot]);
    App::new(bots, options.validate().unwrap(), 8)
}

/// A client that keeps its session cookie, as a browser does.
#[derive(Default)]
struct Browser {
    session: Option<String>,
}

impl Browser {
    fn send<G: BoardView, E: Evaluator<G>>(
        &mut self,
        app: &App<G, E>,
        method: &str,
        path: &str,
        body: &str,
    ) -> Reply {
        let reply = app.handle(Request {
            method,
            path,
            session: self.session.as_deref(),
            body,
        });
        if let Some(id) = &reply.new_session {
            self.session = Some(id.clone());
        }
        reply
    }

    fn call<G: BoardView, E: Evaluator<G>>(
        &mut self,
        app: &App<G, E>,
        method: &str,
        path: &str,
        body: &str,
    ) -> (u16, Value) {
        let Reply { status, body, .. } = self.send(app, method, path, body);
        (
            status,
            serde_json::from_str(&body).expect("the API answers JSON"),
        )
    }

    fn error<G: BoardView, E: Evaluator<G>>(
        &mut self,
        app: &App<G, E>,
        path: &str,
        body: &str,
    ) -> (u16, String) {
        let (status, reply) = self.call(app, "POST", path, body);
        (
            status,
            reply["error"]
                .as_str()
                .expect("an error message")
                .to_string(),
        )
    }
}

fn cell<'a>(state: &'a Value, name: &str) -> &'a Value {
    state["board"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

#[test]
fn start_state_opens_only_the_edge() {
    let (status, state) = Browser::default().call(&app(), "GET", "/api/state", "");
    assert_eq!(status, 200);
    assert_eq!(state["position"], "3/4/5/4/3 o 1");
    assert_eq!(state["board"]["cells"].as_array().unwrap().len(), 19);
    assert_eq!(cell(&state, "c3")["open"], false, "the centre opens later");
    assert_eq!(cell(&state, "c1")["open"], true);
    assert_eq!(state["bot_to_move"], false);
    assert_eq!(
        state["board"]["tile"]["couplers"],
        serde_json::json!([2, 3, 4])
    );
}

#[test]
fn a_move_and_the_bots_reply_show_on_the_board() {
    let app = app();
    let mut browser = Browser::default();
    let (status, state) = browser.call(&app, "POST", "/api/play", r#"{"move": "C1:3"}"#);
    assert_eq!(status, 200);
    assert_eq!(
        cell(&state, "c1")["tile"],
        serde_json::json!({"colour": "orange", "orientation": 3})
    );
    assert_eq!(state["last"]["move"], "c1:3");
    assert_eq!(state["last"]["placed"], "c1");
    assert_eq!(state["bot_to_move"], true);
    let (status, state) = browser.call(&app, "POST", "/api/bot", "");
    assert_eq!(status, 200);
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    assert_eq!(state["last"]["by"], "blue");
    assert_eq!(state["to_move"], "orange");

    let record = browser.send(&app, "GET", "/api/record", "");
    assert_eq!(record.body.lines().count(), 2);
    assert_eq!(record.body.lines().next(), Some("c1:3"));
    assert!(record.download.is_some());

    let (_, state) = browser.call(&app, "POST", "/api/undo", "");
    assert_eq!(state["moves"].as_array().unwrap().len(), 0);
    assert_eq!(state["position"], "3/4/5/4/3 o 1");
}

#[test]
fn malformed_or_illegal_moves_are_refused_with_the_reason() {
    let app = app();
    let mut browser = Browser::default();
    let cases = [
        (
            r#"{"move": "z9:1"}"#,
            "move \"z9:1\": hex z9 is off the 3-sided board",
        ),
        (
            r#"{"move": "c1:6"}"#,
            "move \"c1:6\": orientation `6` is not one of 0..5",
        ),
        (
            r#"{"move": "hello"}"#,
            "move \"hello\": expected <hex>:<orientation>, pass, accept or veto",
        ),
        (
            r#"{"move": "c3:0"}"#,
            "move \"c3:0\": c3 is not open yet on turn 1 (depth 2, allowed up to 0)",
        ),
    ];
    for (body, message) in cases {
        assert_eq!(
            browser.error(&app, "/api/play", body),
            (400, message.to_string()),
            "{body}"
        );
    }
    let (status, message) = browser.error(&app, "/api/play", "{not json");
    assert_eq!(status, 400);
    assert!(message.starts_with("bad request body:"), "{message}");
    let (status, message) = browser.error(&app, "/api/play", r#"{"mvoe": "c1:0"}"#);
    assert_eq!(status, 400);
    assert!(message.contains("unknown field `mvoe`"), "{message}");
    let (_, state) = browser.call(&app, "GET", "/api/state", "");
    assert!(
        state["moves"].as_array().unwrap().is_empty(),
        "nothing was played"
    );
}

#[test]
fn new_game_checks_its_settings() {
    let app = app();
    let mut browser = Browser::default();
    assert_eq!(
        browser.error(&app, "/api/new", r#"{"visits": 0}"#),
        (400, "visits must be 1..=100000, got 0".to_string())
    );
    assert_eq!(
        browser.error(&app, "/api/new", r#"{"size": 9}"#),
        (400, "size must be 2..=7, got 9".to_string())
    );
    assert_eq!(
        browser.error(&app, "/api/new", r#"{"human": "green"}"#).0,
        400
    );
    let (status, state) = browser.call(
        &app,
        "POST",
        "/api/new",
        r#"{"human": "blue", "visits": 4, "size": 4}"#,
    );
    assert_eq!(status, 200);
    assert_eq!(state["board"]["cells"].as_array().unwrap().len(), 37);
    assert_eq!(state["human"], "blue");
    assert_eq!(state["visits"], 4);
    assert_eq!(state["bot_to_move"], true, "Orange, the bot, opens");
}

/// Level 1 plays at random, level 2 is the bot's 8 visits.
fn app_with_levels() -> App<Ghast, UniformEvaluator> {
    let rated = |elo: f64| play::LevelRating {
        elo,
        low: elo - 50.0,
        high: elo + 50.0,
        zero: "random".into(),
        anchors: vec!["random".into(), "greedy".into()],
        games: 40,
    };
    app().with_levels(vec![
        play::Level {
            visits: 1,
            temperature: 0.0,
            random_moves: 1.0,
            rating: Some(rated(0.0)),
        },
        play::Level {
            rating: Some(rated(400.0)),
            ..play::Level::full(8)
        },
    ])
}

/// The bot's opening moves (the human plays Blue) over `games` new games.
fn bot_openings(app: &App<Ghast, UniformEvaluator>, browser: &mut Browser, new: &str) -> usize {
    let mut openings = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let (status, _) = browser.call(app, "POST", "/api/new", new);
        assert_eq!(status, 200);
        let (status, state) = browser.call(app, "POST", "/api/bot", "");
        assert_eq!(status, 200, "{state}");
        openings.insert(state["moves"][0].as_str().unwrap().to_owned());
    }
    openings.len()
}

#[test]
fn a_new_game_picks_a_level_that_the_state_lists_with_its_elo() {
    let app = app_with_levels();
    let mut browser = Browser::default();
    let (_, state) = browser.call(&app, "GET", "/api/state", "");
    assert_eq!(state["level"], Value::Null);
    assert_eq!(state["levels"].as_array().unwrap().len(), 2);
    assert_eq!(state["levels"][1]["elo"], 400.0);
    assert_eq!(state["levels"][1]["high"], 450.0);
    assert_eq!(state["levels"][1]["visits"], 8);
    assert_eq!(state["levels"][1]["zero"], "random");
    assert_eq!(
        state["levels"][0]["anchors"],
        serde_json::json!(["random", "greedy"])
    );

    let (status, state) =
        browser.call(&app, "POST", "/api/new", r#"{"human": "blue", "level": 1}"#);
    assert_eq!(status, 200);
    assert_eq!(
        (state["level"].clone(), state["visits"].clone()),
        (1.into(), 1.into())
    );
    let (_, analysis) = browser.call(&app, "POST", "/api/analyse", "");
    assert_eq!(
        analysis["visits"], 8,
        "the analysis searches at full strength, not at the level's visits"
    );
    assert!(
        bot_openings(&app, &mut browser, "{}") > 1,
        "level 1 plays at random, and a new game keeps the level"
    );
    let (_, state) = browser.call(&app, "POST", "/api/new", r#"{"visits": 8}"#);
    assert_eq!(state["level"], Value::Null, "visits leave the levels");
    assert_eq!(
        bot_openings(&app, &mut browser, "{}"),
        1,
        "without a level the bot plays its most visited move"
    );
    let (_, state) = browser.call(&app, "POST", "/api/new", r#"{"level": 2}"#);
    assert_eq!(
        (state["level"].clone(), state["visits"].clone()),
        (2.into(), 8.into())
    );
}

#[test]
fn a_level_the_bot_does_not_have_is_refused() {
    let with_levels = app_with_levels();
    let without_levels = app();
    let app = &with_levels;
    let mut browser = Browser::default();
    assert_eq!(
        browser.error(app, "/api/new", r#"{"level": 3}"#),
        (400, "level 3: the bot has levels 1 to 2".to_string())
    );
    assert_eq!(browser.error(app, "/api/new", r#"{"level": 0}"#).0, 400);
    assert_eq!(
        browser.error(app, "/api/new", r#"{"level": 1, "visits": 4}"#),
        (
            400,
            "give a level or visits, not both: a level has its own visits".to_string()
        )
    );
    let (status, message) =
        Browser::default().error(&without_levels, "/api/new", r#"{"level": 1}"#);
    assert_eq!(status, 400);
    assert!(
        message.contains("this bot has no levels of play"),
        "{message}"
    );
}

#[test]
fn analysis_spreads_the_policy_over_the_open_hexes() {
    let app = app();
    let mut browser = Browser::default();
    let (status, analysis) = browser.call(&app, "POST", "/api/analyse", r#"{"visits": 16}"#);
    assert_eq!(status, 200);
    let hexes = analysis["targets"].as_array().unwrap();
    assert_eq!(hexes.len(), 12, "the 12 edge hexes of a size-3 board");
    let total: f64 = hexes.iter().map(|h| h["prior"].as_f64().unwrap()).sum();
    assert!(
        total > 0.9 && total <= 1.0 + 1e-4,
        "the pass keeps the rest: {total}"
    );
    assert!(analysis["visits"].as_u64().unwrap() >= 16);
    let orange = analysis["win_probability"][0].as_f64().unwrap();
    let blue = analysis["win_probability"][1].as_f64().unwrap();
    assert!((orange + blue - 1.0).abs() < 1e-5);
    assert!(!analysis["moves"].as_array().unwrap().is_empty());
}

#[test]
fn a_finished_game_has_no_bot_move_and_unknown_pages_are_404() {
    let app = app();
    let mut browser = Browser::default();
    browser.call(&app, "POST", "/api/play", r#"{"move": "pass"}"#);
    let (_, state) = browser.call(&app, "POST", "/api/play", r#"{"move": "pass"}"#);
    assert_eq!(state["result"]["text"], "draw passes");
    assert_eq!(
        browser.error(&app, "/api/bot", ""),
        (409, "the game is over".to_string())
    );
    assert_eq!(browser.call(&app, "GET", "/api/nothing", "").0, 404);
    assert_eq!(browser.call(&app, "GET", "/api/play", "").0, 405);
}

#[test]
fn the_page_and_its_assets_are_served() {
    let app = app();
    let mut browser = Browser::default();
    for (path, kind) in [
        ("/", "text/html"),
        ("/page.js", "text/javascript"),
        ("/page.css", "text/css"),
    ] {
        let reply = browser.send(&app, "GET", path, "");
        assert_eq!(reply.status, 200, "{path}");
        assert!(reply.content_type.starts_with(kind), "{path}");
        assert!(!reply.body.is_empty());
    }
}

#[test]
fn each_browser_has_its_own_game() {
    let app = app();
    let (mut alice, mut bob) = (Browser::default(), Browser::default());
    let (status, _) = alice.call(&app, "POST", "/api/play", r#"{"move": "c1:3"}"#);
    assert_eq!(status, 200);
    let (_, state) = bob.call(&app, "GET", "/api/state", "");
    assert!(
        state["moves"].as_array().unwrap().is_empty(),
        "Bob's game is new"
    );
    assert_ne!(alice.session, bob.session);
    let (_, state) = alice.call(&app, "GET", "/api/state", "");
    assert_eq!(state["moves"], serde_json::json!(["c1:3"]));
    let forged = Request {
        method: "GET",
        path: "/api/state",
        session: Some("0123456789abcdef0123456789abcdef"),
        body: "",
    };
    let reply = app.handle(forged);
    assert!(reply.new_session.is_some(), "an unknown id gets a new game");
    assert!(reply.body.contains(r#""moves":[]"#), "{}", reply.body);
}

/// A latch the test opens: evaluations wait until then.
#[derive(Clone, Default)]
struct Gate(Arc<(Mutex<GateState>, Condvar)>);

#[derive(Default)]
struct GateState {
    open: bool,
    waiting: bool,
}

impl Gate {
    fn open(&self) {
        let (state, changed) = &*self.0;
        state.lock().unwrap().open = true;
        changed.notify_all();
    }

    /// Returns once a search is waiting at the gate.
    fn wait_for_a_search(&self) {
        let (state, changed) = &*self.0;
        let _guard = changed
            .wait_while(state.lock().unwrap(), |s| !s.waiting)
            .unwrap();
    }
}

impl Evaluator<Ghast> for Gate {
    fn evaluate(
        &mut self,
        positions: &[&Ghast],
        out: &mut [Evaluation],
    ) -> Result<(), DeviceError> {
        let (state, changed) = &*self.0;
        let mut guard = state.lock().unwrap();
        guard.waiting = true;
        changed.notify_all();
        drop(changed.wait_while(guard, |s| !s.open).unwrap());
        UniformEvaluator.evaluate(positions, out)?;
        Ok(())
    }
}

#[test]
fn a_search_in_progress_blocks_no_other_request() {
    let gate = Gate::default();
    let app = app_with(gate.clone());
    let mut alice = Browser::default();
    alice.call(&app, "GET", "/api/state", "");
    std::thread::scope(|scope| {
        let mut thinking = Browser {
            session: alice.session.clone(),
        };
        let app = &app;
        let search =
            scope.spawn(move || thinking.call(app, "POST", "/api/analyse", r#"{"visits": 64}"#));
        gate.wait_for_a_search();
        // The search holds the only bot and waits at the gate: the same browser's and
        // another browser's reads are answered all the same.
        assert_eq!(alice.call(app, "GET", "/api/state", "").0, 200);
        assert_eq!(Browser::default().call(app, "GET", "/api/state", "").0, 200);
        assert!(!search.is_finished());
        gate.open();
        assert_eq!(search.join().unwrap().0, 200);
    });
}

#[test]
fn a_bot_move_into_a_game_that_changed_meanwhile_is_refused() {
    let gate = Gate::default();
    let app = app_with(gate.clone());
    let mut alice = Browser::default();
    alice.call(&app, "POST", "/api/play", r#"{"move": "c1:3"}"#);
    std::thread::scope(|scope| {
        let mut other_tab = Browser {
            session: alice.session.clone(),
        };
        let app = &app;
        let bot = scope.spawn(move || other_tab.error(app, "/api/bot", ""));
        gate.wait_for_a_search();
        alice.call(app, "POST", "/api/undo", "");
        gate.open();
        let (status, message) = bot.join().unwrap();
        assert_eq!(status, 409);
        assert!(
            message.contains("changed while the bot was thinking"),
            "{message}"
        );
    });
    let (_, state) = alice.call(&app, "GET", "/api/state", "");
    assert!(
        state["moves"].as_array().unwrap().is_empty(),
        "the undo stands"
    );
}

#[test]
fn a_ghodak_game_is_played_on_a_go_board_with_go_names() {
    let options = ghodak::RawOptions {
        size: 5,
        ..ghodak::RawOptions::default()
    }
    .validate()
    .unwrap();
    let bot = Bot::with_evaluator("bot", UniformEvaluator, SearchConfig::play(), 8, 7).unwrap();
    let app = App::<Ghodak, _>::new(BotPool::new(vec![bot]), options, 8);
    let mut browser = Browser::default();
    let (status, state) = browser.call(&app, "GET", "/api/state", "");
    assert_eq!(status, 200);
    assert_eq!(state["game"], "ghodak");
    assert_eq!(state["colours"], serde_json::json!(["black", "white"]));
    assert_eq!(state["human"], "black");
    assert_eq!(state["board"]["points"].as_array().unwrap().len(), 25);
    assert_eq!(state["can_pass"], true);
    assert_eq!(state["scores"], serde_json::json!([0.0, 7.5]));

    let (status, state) = browser.call(&app, "POST", "/api/play", r#"{"move": "c3"}"#);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["last"]["placed"], "C3");
    assert_eq!(state["bot_to_move"], true);
    let point = |state: &Value, name: &str| {
        state["board"]["points"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(point(&state, "C3")["stone"], "black");
    assert_eq!(point(&state, "C3")["open"], false);
    let (_, state) = browser.call(&app, "POST", "/api/bot", "");
    assert_eq!(state["to_move"], "black");
    assert_eq!(state["last"]["by"], "white");
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);

    let (status, analysis) = browser.call(&app, "POST", "/api/analyse", r#"{"visits": 16}"#);
    assert_eq!(status, 200);
    assert!(analysis["targets"].as_array().unwrap().len() >= 20);
    assert_eq!(analysis["to_move"], "black");

    assert_eq!(
        browser.error(&app, "/api/play", r#"{"move": "C3"}"#),
        (400, "move \"C3\": C3 is occupied".to_string())
    );
    assert_eq!(
        browser.error(&app, "/api/new", r#"{"human": "orange"}"#),
        (
            400,
            "human must be black or white, got `orange`".to_string()
        )
    );
    let (_, state) = browser.call(&app, "POST", "/api/new", r#"{"human": "white", "size": 9}"#);
    assert_eq!(state["human"], "white");
    assert_eq!(state["board"]["points"].as_array().unwrap().len(), 81);
    assert_eq!(
        state["board"]["max_moves"], 243,
        "the move limit follows the size"
    );
    let record = browser.send(&app, "GET", "/api/record", "");
    assert_eq!(record.download.as_deref(), Some("ghodak-size9.txt"));
}
