//! The JSON API through `App::handle`, with a uniform evaluator instead of a network.

use ghast::RawOptions;
use mcts::{SearchConfig, UniformEvaluator};
use serde_json::Value;
use serve::{App, Bot, Reply};

fn app() -> App<UniformEvaluator> {
    let options = RawOptions {
        size: 3,
        win_margin: 3,
        ..RawOptions::default()
    };
    let bot = Bot::new(UniformEvaluator, SearchConfig::play());
    App::new(bot, options.validate().unwrap(), 8)
}

fn call(app: &mut App<UniformEvaluator>, method: &str, path: &str, body: &str) -> (u16, Value) {
    let Reply { status, body, .. } = app.handle(method, path, body);
    (
        status,
        serde_json::from_str(&body).expect("the API answers JSON"),
    )
}

fn error(app: &mut App<UniformEvaluator>, path: &str, body: &str) -> (u16, String) {
    let (status, reply) = call(app, "POST", path, body);
    (
        status,
        reply["error"]
            .as_str()
            .expect("an error message")
            .to_string(),
    )
}

fn cell<'a>(state: &'a Value, name: &str) -> &'a Value {
    state["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

#[test]
fn start_state_opens_only_the_edge() {
    let (status, state) = call(&mut app(), "GET", "/api/state", "");
    assert_eq!(status, 200);
    assert_eq!(state["position"], "3/4/5/4/3 o 1");
    assert_eq!(state["cells"].as_array().unwrap().len(), 19);
    assert_eq!(cell(&state, "c3")["open"], false, "the centre opens later");
    assert_eq!(cell(&state, "c1")["open"], true);
    assert_eq!(state["bot_to_move"], false);
    assert_eq!(state["tile"]["couplers"], serde_json::json!([2, 3, 4]));
}

#[test]
fn a_move_and_the_bots_reply_show_on_the_board() {
    let mut app = app();
    let (status, state) = call(&mut app, "POST", "/api/play", r#"{"move": "C1:3"}"#);
    assert_eq!(status, 200);
    assert_eq!(
        cell(&state, "c1")["tile"],
        serde_json::json!({"colour": "orange", "orientation": 3})
    );
    assert_eq!(state["last"]["move"], "c1:3");
    assert_eq!(state["last"]["placed"], "c1");
    assert_eq!(state["bot_to_move"], true);
    let (status, state) = call(&mut app, "POST", "/api/bot", "");
    assert_eq!(status, 200);
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    assert_eq!(state["last"]["by"], "blue");
    assert_eq!(state["to_move"], "orange");

    let record = app.handle("GET", "/api/record", "");
    assert_eq!(record.body.lines().count(), 2);
    assert_eq!(record.body.lines().next(), Some("c1:3"));
    assert!(record.download.is_some());

    let (_, state) = call(&mut app, "POST", "/api/undo", "");
    assert_eq!(state["moves"].as_array().unwrap().len(), 0);
    assert_eq!(state["position"], "3/4/5/4/3 o 1");
}

#[test]
fn malformed_or_illegal_moves_are_refused_with_the_reason() {
    let mut app = app();
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
            error(&mut app, "/api/play", body),
            (400, message.to_string()),
            "{body}"
        );
    }
    let (status, message) = error(&mut app, "/api/play", "{not json");
    assert_eq!(status, 400);
    assert!(message.starts_with("bad request body:"), "{message}");
    let (status, message) = error(&mut app, "/api/play", r#"{"mvoe": "c1:0"}"#);
    assert_eq!(status, 400);
    assert!(message.contains("unknown field `mvoe`"), "{message}");
    let (_, state) = call(&mut app, "GET", "/api/state", "");
    assert!(
        state["moves"].as_array().unwrap().is_empty(),
        "nothing was played"
    );
}

#[test]
fn new_game_checks_its_settings() {
    let mut app = app();
    assert_eq!(
        error(&mut app, "/api/new", r#"{"visits": 0}"#),
        (400, "visits must be 1..=100000, got 0".to_string())
    );
    assert_eq!(
        error(&mut app, "/api/new", r#"{"size": 9}"#),
        (400, "size must be 2..=7, got 9".to_string())
    );
    assert_eq!(error(&mut app, "/api/new", r#"{"human": "green"}"#).0, 400);
    let (status, state) = call(
        &mut app,
        "POST",
        "/api/new",
        r#"{"human": "blue", "visits": 4, "size": 4}"#,
    );
    assert_eq!(status, 200);
    assert_eq!(state["cells"].as_array().unwrap().len(), 37);
    assert_eq!(state["human"], "blue");
    assert_eq!(state["visits"], 4);
    assert_eq!(state["bot_to_move"], true, "Orange, the bot, opens");
}

#[test]
fn analysis_spreads_the_policy_over_the_open_hexes() {
    let mut app = app();
    let (status, analysis) = call(&mut app, "POST", "/api/analyse", r#"{"visits": 16}"#);
    assert_eq!(status, 200);
    let hexes = analysis["hexes"].as_array().unwrap();
    assert_eq!(hexes.len(), 12, "the 12 edge hexes of a size-3 board");
    let total: f64 = hexes.iter().map(|h| h["prior"].as_f64().unwrap()).sum();
    assert!(
        total > 0.9 && total <= 1.0 + 1e-4,
        "the pass keeps the rest: {total}"
    );
    assert!(analysis["visits"].as_u64().unwrap() >= 16);
    let orange = analysis["win_probability"]["orange"].as_f64().unwrap();
    let blue = analysis["win_probability"]["blue"].as_f64().unwrap();
    assert!((orange + blue - 1.0).abs() < 1e-5);
    assert!(!analysis["moves"].as_array().unwrap().is_empty());
}

#[test]
fn a_finished_game_has_no_bot_move_and_unknown_pages_are_404() {
    let mut app = app();
    call(&mut app, "POST", "/api/play", r#"{"move": "pass"}"#);
    let (_, state) = call(&mut app, "POST", "/api/play", r#"{"move": "pass"}"#);
    assert_eq!(state["result"]["text"], "draw passes");
    assert_eq!(
        error(&mut app, "/api/bot", ""),
        (409, "the game is over".to_string())
    );
    assert_eq!(call(&mut app, "GET", "/api/nothing", "").0, 404);
    assert_eq!(call(&mut app, "GET", "/api/play", "").0, 405);
}

#[test]
fn the_page_and_its_assets_are_served() {
    let mut app = app();
    for (path, kind) in [
        ("/", "text/html"),
        ("/page.js", "text/javascript"),
        ("/page.css", "text/css"),
    ] {
        let reply = app.handle("GET", path, "");
        assert_eq!(reply.status, 200, "{path}");
        assert!(reply.content_type.starts_with(kind), "{path}");
        assert!(!reply.body.is_empty());
    }
}
