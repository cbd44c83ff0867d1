//! The engine driven line by line with an evaluator that answers from the position's hash:
//! what each kind of query is answered with, in which order, and that bad input never stops
//! it.

use analysis::{AnalysisEngine, Perspective, SearchSettings, Settings};
use game::{DeviceError, Evaluation, Evaluator, Game, Planes, Side};
use ghodak::Ghodak;
use mcts::{SearchConfig, UniformEvaluator};
use pig::Pig;
use serde_json::Value;

/// Uniform priors, and a value and lead that are a fixed function of the position's hash, so
/// that views can be told apart and a run repeats exactly.
#[derive(Default)]
struct HashEvaluator {
    positions: usize,
}

impl<G: Game> Evaluator<G> for HashEvaluator {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        self.positions += positions.len();
        UniformEvaluator.evaluate(positions, out)?;
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            let unit = (position.hash() % 1001) as f32 / 500.0 - 1.0;
            evaluation.value = 0.9 * unit;
            evaluation.lead = 10.0 * unit;
        }
        Ok(())
    }
}

fn settings(positions_in_flight: usize, perspective: Perspective) -> Settings {
    Settings {
        positions_in_flight,
        search: SearchSettings {
            visits: 30,
            max_time: None,
            perspective,
            pv_len: 5,
            search: SearchConfig {
                root_noise: false,
                ..SearchConfig::default()
            },
        },
        cache_entries: 1 << 12,
        seed: 7,
    }
}

fn engine<G: Planes>(positions_in_flight: usize) -> AnalysisEngine<G, HashEvaluator> {
    AnalysisEngine::new(
        G::Options::default(),
        HashEvaluator::default(),
        settings(positions_in_flight, Perspective::SideToMove),
    )
}

/// Sends `lines`, then steps until nothing is left; every line written, parsed.
fn answers<G: Planes, E: Evaluator<G>>(
    engine: &mut AnalysisEngine<G, E>,
    lines: &[&str],
) -> Vec<Value> {
    for line in lines {
        engine.handle_line(line);
    }
    while engine.step().unwrap() {}
    engine
        .take_output()
        .iter()
        .map(|line| {
            assert!(!line.contains('\n'), "one line: {line}");
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"))
        })
        .collect()
}

fn field<'a>(value: &'a Value, name: &str) -> &'a Value {
    value
        .get(name)
        .unwrap_or_else(|| panic!("no {name} in {value}"))
}

#[test]
fn every_turn_asked_is_answered_once_with_katagos_fields() {
    let mut engine = engine::<Ghodak>(64);
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"a","moves":[["B","E5"],["W","C3"],["B","G7"]],"analyzeTurns":[0,1,3],"maxVisits":40,"includePolicy":true,"includePVVisits":true}"#,
        ],
    );
    let mut turns: Vec<u64> = out
        .iter()
        .map(|r| field(r, "turnNumber").as_u64().unwrap())
        .collect();
    turns.sort();
    assert_eq!(turns, [0, 1, 3]);
    for result in &out {
        assert_eq!(field(result, "id"), "a");
        assert_eq!(field(result, "isDuringSearch"), false);
        let root = field(result, "rootInfo");
        assert!(field(root, "visits").as_u64().unwrap() >= 40);
        let winrate = field(root, "winrate").as_f64().unwrap();
        assert!((0.0..=1.0).contains(&winrate), "{winrate}");
        let turn = field(result, "turnNumber").as_u64().unwrap();
        let to_move = if turn.is_multiple_of(2) { "B" } else { "W" };
        assert_eq!(field(root, "currentPlayer"), to_move);
        let infos = field(result, "moveInfos").as_array().unwrap();
        assert!(!infos.is_empty());
        let mut previous = u64::MAX;
        for (order, info) in infos.iter().enumerate() {
            assert_eq!(field(info, "order").as_u64(), Some(order as u64));
            let visits = field(info, "visits").as_u64().unwrap();
            assert!(visits <= previous && visits > 0, "best first: {infos:?}");
            previous = visits;
            let pv = field(info, "pv").as_array().unwrap();
            assert_eq!(pv[0], *field(info, "move"));
            assert_eq!(field(info, "pvVisits").as_array().unwrap().len(), pv.len());
            for name in ["winrate", "scoreLead", "prior", "lcb", "utility"] {
                assert!(field(info, name).is_f64(), "{name} in {info}");
            }
        }
        let policy = field(result, "policy").as_array().unwrap();
        assert_eq!(policy.len(), 82, "81 points and pass");
        let sum: f64 = policy
            .iter()
            .map(|p| p.as_f64().unwrap())
            .filter(|&p| p >= 0.0)
            .sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
        let illegal = policy.iter().filter(|p| p.as_f64() == Some(-1.0)).count();
        assert_eq!(
            illegal as u64, turn,
            "one stone a move so far, each point now illegal"
        );
    }
    // E5 is the centre, index 4 * 9 + 4 from the top left, as KataGo lays out its policy.
    let after_first = out.iter().find(|r| field(r, "turnNumber") == 1).unwrap();
    assert_eq!(field(after_first, "policy")[40], -1.0);
}

#[test]
fn the_default_turn_is_the_last_and_a_finished_game_is_answered_exactly() {
    let mut engine = engine::<Ghodak>(8);
    let out = answers(
        &mut engine,
        &[r#"{"id":"end","moves":[["B","E5"],["W","pass"],["B","pass"]],"komi":7.5}"#],
    );
    assert_eq!(out.len(), 1, "{out:?}");
    let result = &out[0];
    assert_eq!(field(result, "turnNumber"), 3);
    assert_eq!(field(result, "moveInfos").as_array().unwrap().len(), 0);
    let root = field(result, "rootInfo");
    assert_eq!(field(root, "currentPlayer"), "W");
    // Black's one stone owns the board: 81 against komi 7.5, from White's view.
    assert_eq!(field(root, "scoreLead"), -73.5);
    assert_eq!(field(root, "winrate"), 0.0);
    assert!(
        field(result, "gameOver")
            .as_str()
            .unwrap()
            .starts_with("black")
    );
}

#[test]
fn a_view_from_one_side_turns_the_other_sides_figures_round() {
    let line = r#"{"id":"v","moves":[["B","E5"]],"maxVisits":50}"#;
    let run = |perspective| {
        let mut engine = AnalysisEngine::<Ghodak, _>::new(
            Default::default(),
            HashEvaluator::default(),
            settings(4, perspective),
        );
        answers(&mut engine, &[line]).remove(0)
    };
    let mover = run(Perspective::SideToMove);
    let black = run(Perspective::Side(Side::First));
    let white = run(Perspective::Side(Side::Second));
    assert_eq!(mover, white, "White is to move");
    let number = |result: &Value, path: &[&str]| {
        path.iter()
            .fold(result, |v, key| field(v, key))
            .as_f64()
            .unwrap()
    };
    let winrate = number(&mover, &["rootInfo", "winrate"]);
    assert!(
        (winrate - 0.5).abs() > 1e-3,
        "the evaluator is not neutral: {winrate}"
    );
    assert!((number(&black, &["rootInfo", "winrate"]) - (1.0 - winrate)).abs() < 1e-9);
    assert_eq!(
        number(&black, &["rootInfo", "scoreLead"]),
        -number(&mover, &["rootInfo", "scoreLead"])
    );
    let first = |r: &Value| field(r, "moveInfos")[0].clone();
    assert_eq!(field(&first(&black), "move"), field(&first(&mover), "move"));
    assert_eq!(
        number(&first(&black), &["winrate"]),
        1.0 - number(&first(&mover), &["winrate"])
    );
}

#[test]
fn priority_decides_which_query_is_searched_first() {
    let mut engine = engine::<Ghodak>(1);
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"low","moves":[],"maxVisits":20}"#,
            r#"{"id":"late","moves":[],"maxVisits":20}"#,
            r#"{"id":"high","moves":[],"maxVisits":20,"priority":5}"#,
        ],
    );
    let ids: Vec<&str> = out
        .iter()
        .map(|r| field(r, "id").as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["high", "low", "late"],
        "highest priority, then arrival"
    );
}

#[test]
fn positions_of_many_queries_share_the_evaluators_batches() {
    let lines: Vec<String> = (0..16)
        .map(|k| {
            format!(
                r#"{{"id":"{k}","moves":[["B","E{}"]],"maxVisits":25}}"#,
                k % 9 + 1
            )
        })
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let mut calls = Vec::new();
    for in_flight in [1, 16] {
        let mut engine = engine::<Ghodak>(in_flight);
        let mut steps = 0;
        for line in &lines {
            engine.handle_line(line);
        }
        while engine.step().unwrap() {
            steps += 1;
        }
        assert_eq!(engine.take_output().len(), 16);
        assert_eq!(engine.positions_searched(), 16);
        calls.push(steps);
    }
    assert!(
        calls[1] * 8 <= calls[0],
        "16 in flight take a sixteenth of the evaluator's calls, give or take: {calls:?}"
    );
}

#[test]
fn terminate_reports_what_was_searched_and_drops_the_queue() {
    let mut engine = engine::<Ghodak>(2);
    engine.handle_line(r#"{"id":"long","moves":[["B","E5"],["W","C3"]],"analyzeTurns":[0,1,2],"maxVisits":100000}"#);
    engine.handle_line(r#"{"id":"other","moves":[],"maxVisits":10}"#);
    for _ in 0..5 {
        engine.step().unwrap();
    }
    engine.handle_line(r#"{"id":"stop","action":"terminate","terminateId":"long"}"#);
    let out = answers(&mut engine, &[]);
    let long: Vec<&Value> = out.iter().filter(|r| r["id"] == "long").collect();
    assert_eq!(long.len(), 3, "one final line per turn: {out:?}");
    assert!(long.iter().all(|r| r["isDuringSearch"] == false));
    let searched: Vec<_> = long
        .iter()
        .filter(|r| r.get("moveInfos").is_some())
        .collect();
    let unstarted: Vec<_> = long.iter().filter(|r| r["noResults"] == true).collect();
    assert_eq!(
        (searched.len(), unstarted.len()),
        (2, 1),
        "two in flight, one queued"
    );
    assert!(
        searched
            .iter()
            .all(|r| r["rootInfo"]["visits"].as_u64().unwrap() < 100000)
    );
    assert!(
        out.iter()
            .any(|r| r["id"] == "stop" && r["terminateId"] == "long"),
        "echoed"
    );
    assert!(
        out.iter()
            .any(|r| r["id"] == "other" && r.get("moveInfos").is_some()),
        "the rest go on"
    );
}

#[test]
fn reports_during_search_come_before_the_final_one() {
    let mut engine = engine::<Ghodak>(1);
    let out = answers(
        &mut engine,
        &[r#"{"id":"r","moves":[],"maxVisits":400,"reportDuringSearchEvery":0.000001}"#],
    );
    let (last, during) = out.split_last().unwrap();
    assert!(!during.is_empty());
    assert!(during.iter().all(|r| r["isDuringSearch"] == true));
    assert_eq!(last["isDuringSearch"], false);
    let visits: Vec<u64> = out
        .iter()
        .map(|r| r["rootInfo"]["visits"].as_u64().unwrap())
        .collect();
    assert!(visits.windows(2).all(|w| w[0] <= w[1]), "{visits:?}");
}

#[test]
fn avoided_moves_are_not_searched_at_the_root() {
    let mut engine = engine::<Ghodak>(1);
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"x","moves":[],"maxVisits":300,"avoidMoves":[{"player":"B","moves":["E5","pass"],"untilDepth":1}]}"#,
        ],
    );
    let moves: Vec<&str> = out[0]["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert!(moves.len() > 10, "{moves:?}");
    assert!(
        !moves.contains(&"E5") && !moves.contains(&"pass"),
        "{moves:?}"
    );
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"y","moves":[],"maxVisits":50,"allowMoves":[{"player":"B","moves":["C3","G7"],"untilDepth":1}]}"#,
        ],
    );
    let mut moves: Vec<&str> = out[0]["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    moves.sort();
    assert_eq!(moves, ["C3", "G7"]);
}

#[test]
fn set_up_stones_and_the_first_player_come_from_the_query() {
    let mut engine = engine::<Ghodak>(1);
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"h","initialStones":[["B","C3"],["B","G7"]],"initialPlayer":"W","moves":[],"maxVisits":30,"includePolicy":true}"#,
        ],
    );
    assert_eq!(out[0]["rootInfo"]["currentPlayer"], "W");
    let policy = out[0]["policy"].as_array().unwrap();
    let illegal: Vec<usize> = (0..81).filter(|&i| policy[i] == -1.0).collect();
    // C3 is row 7 (from the top), column 2; G7 row 2, column 6.
    assert_eq!(illegal, [2 * 9 + 6, 6 * 9 + 2]);
}

#[test]
fn every_kind_of_bad_input_gets_one_line_and_later_queries_are_answered() {
    let mut engine = engine::<Ghodak>(4);
    let bad = [
        ("{not json", None),
        (r#"{"id":"m","moves":[["B","Z9"]]}"#, Some("moves")),
        (
            r#"{"id":"o","moves":[["B","E5"],["W","E5"]]}"#,
            Some("moves"),
        ),
        (
            r#"{"id":"h","moves":[["B","E5"],["W","Z9"]],"analyzeTurns":[0,1,2]}"#,
            Some("moves"),
        ),
        (
            r#"{"id":"a","moves":[["B","E5"]],"analyzeTurns":[0,1],"avoidMoves":[{"player":"W","moves":["Q9"],"untilDepth":1}]}"#,
            Some("avoidMoves"),
        ),
        (
            r#"{"id":"x","moves":[],"overrideSettings":{"maxVisits":0}}"#,
            Some("overrideSettings"),
        ),
        (
            r#"{"id":"s","boardXSize":13,"boardYSize":13}"#,
            Some("boardXSize"),
        ),
        (
            r#"{"id":"q","boardXSize":9,"boardYSize":11}"#,
            Some("boardYSize"),
        ),
        (r#"{"id":"r","rules":"mystery"}"#, Some("rules")),
        (r#"{"id":"g","rules":{"vetoes":"1,2"}}"#, Some("rules")),
        (r#"{"id":"k","komi":0.3}"#, Some("komi")),
        (r#"{"id":"v","maxVisits":-3}"#, Some("maxVisits")),
        (
            r#"{"id":"p","moves":[],"analyzeTurns":[2]}"#,
            Some("analyzeTurns"),
        ),
        (
            r#"{"id":"i","initialStones":[["B","E5"],["W","E5"]]}"#,
            Some("initialStones"),
        ),
    ];
    for (line, field) in bad {
        engine.handle_line(line);
        let out = engine.take_output();
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        let answer: Value = serde_json::from_str(&out[0]).unwrap();
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{line}: {answer}"
        );
        assert_eq!(
            answer.get("field").and_then(Value::as_str),
            field,
            "{line}: {answer}"
        );
    }
    let out = answers(
        &mut engine,
        &[r#"{"id":"fine","moves":[],"maxVisits":5,"someToolField":1}"#],
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0]["warning"], "unknown field, ignored");
    assert_eq!(out[0]["field"], "someToolField");
    assert_eq!(out[1]["id"], "fine");
    assert!(out[1]["moveInfos"].is_array());
}

#[test]
fn a_turn_where_chance_decides_is_refused_and_the_others_answered() {
    let mut engine = engine::<Pig>(4);
    // Pig: a roll is a decision, then chance throws the die (face 4 here).
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"pig","moves":[["first","roll"],["chance","4"],["first","hold"]],"analyzeTurns":[0,1,2,3]}"#,
        ],
    );
    assert_eq!(out.len(), 4, "{out:?}");
    let refused: Vec<&Value> = out.iter().filter(|r| r.get("error").is_some()).collect();
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0]["turnNumber"], 1);
    assert!(refused[0]["error"].as_str().unwrap().contains("chance"));
    for turn in [0, 2, 3] {
        let result = out.iter().find(|r| r["turnNumber"] == turn).unwrap();
        assert!(result["moveInfos"].is_array(), "{result}");
    }
}

#[test]
fn actions_are_echoed() {
    let mut engine = engine::<Ghodak>(4);
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"v","action":"query_version"}"#,
            r#"{"id":"c","action":"clear_cache"}"#,
            r#"{"id":"all","action":"terminate_all"}"#,
        ],
    );
    assert_eq!(out[0]["action"], "query_version");
    assert!(out[0]["version"].is_string());
    assert_eq!(
        out[1],
        serde_json::json!({"id": "c", "action": "clear_cache"})
    );
    assert_eq!(out[2]["action"], "terminate_all");
}

#[test]
fn ownership_from_an_evaluator_without_it_is_a_warning() {
    let mut engine = engine::<Ghodak>(4);
    let out = answers(
        &mut engine,
        &[r#"{"id":"own","moves":[],"maxVisits":5,"includeOwnership":true}"#],
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0]["field"], "includeOwnership");
    assert!(out[0]["warning"].as_str().unwrap().contains("no ownership"));
    assert!(out[1]["moveInfos"].is_array() && out[1].get("ownership").is_none());
}

#[test]
fn a_plain_move_is_played_by_the_side_to_move() {
    let mut engine = engine::<Ghodak>(4);
    let out = answers(
        &mut engine,
        &[r#"{"id":"plain","moves":["E5",["W","C3"],"pass"],"maxVisits":5}"#],
    );
    assert_eq!(out[0]["turnNumber"], 3, "{out:?}");
    assert_eq!(out[0]["rootInfo"]["currentPlayer"], "W");
}

/// Answers as [`HashEvaluator`] until its `fail_at`th call, then fails as a device does, at
/// that call and every one after it.
struct FailingDevice {
    calls: usize,
    fail_at: usize,
}

impl<G: Game> Evaluator<G> for FailingDevice {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        self.calls += 1;
        if self.calls >= self.fail_at {
            return Err(DeviceError {
                device: "cuda:0".to_owned(),
                message: "CUDA out of memory".to_owned(),
            });
        }
        HashEvaluator::default().evaluate(positions, out)
    }
}

/// A failed device answers every query being searched or queued with one error line each,
/// fails the step, and leaves nothing to search; queries answered before are untouched.
#[test]
fn a_failed_device_answers_every_query_under_way_with_its_error() {
    let mut engine = AnalysisEngine::<Ghodak, _>::new(
        Default::default(),
        FailingDevice {
            calls: 0,
            fail_at: 30,
        },
        settings(2, Perspective::SideToMove),
    );
    engine.handle_line(r#"{"id":"quick","moves":[],"maxVisits":2}"#);
    while engine.step().unwrap() {}
    let quick = engine.take_output();
    assert_eq!(quick.len(), 1, "{quick:?}");
    for line in [
        r#"{"id":"a","moves":[],"analyzeTurns":[0],"maxVisits":1000}"#,
        r#"{"id":"b","moves":[["B","E5"]],"analyzeTurns":[0,1],"maxVisits":1000}"#,
    ] {
        engine.handle_line(line);
    }
    let error = loop {
        match engine.step() {
            Ok(true) => {}
            Ok(false) => panic!("the device never failed"),
            Err(error) => break error,
        }
    };
    assert_eq!(
        error.to_string(),
        "the network on cuda:0 failed: CUDA out of memory"
    );
    let out: Vec<Value> = engine
        .take_output()
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // "a" and one turn of "b" searched, the other turn of "b" queued: one line a query.
    assert_eq!(
        out,
        [
            serde_json::json!({"id": "a", "error": error.to_string()}),
            serde_json::json!({"id": "b", "error": error.to_string()}),
        ]
    );
    assert!(engine.is_idle());
}

/// A move by the side not to move is played as KataGo plays it (the turn handed over); with
/// no `initialPlayer`, the first move's player moves first, else White after a handicap
/// (two or more black stones, no white), else Black.
#[test]
fn moves_out_of_turn_and_the_first_player_are_katagos() {
    let mut engine = engine::<Ghodak>(4);
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"w","moves":[["W","E5"]],"analyzeTurns":[0,1],"maxVisits":3}"#,
            r#"{"id":"bb","moves":[["B","E5"],["B","C3"]],"maxVisits":3}"#,
            r#"{"id":"hc","initialStones":[["B","C3"],["B","G7"]],"moves":[],"maxVisits":3}"#,
            r#"{"id":"one","initialStones":[["B","C3"]],"moves":[],"maxVisits":3}"#,
        ],
    );
    let player = |id: &str, turn: u64| {
        out.iter()
            .find(|r| r["id"] == id && r["turnNumber"] == turn)
            .unwrap_or_else(|| panic!("{id} {turn}: {out:?}"))["rootInfo"]["currentPlayer"]
            .clone()
    };
    assert_eq!(player("w", 0), "W", "the first move's player starts");
    assert_eq!(player("w", 1), "B");
    assert_eq!(player("bb", 2), "W", "two black moves in a row");
    assert_eq!(player("hc", 0), "W", "a handicap: White moves first");
    assert_eq!(player("one", 0), "B", "one stone is no handicap");
    assert!(out.iter().all(|r| r.get("error").is_none()), "{out:?}");
}

/// A turn asked twice is answered once.
#[test]
fn a_turn_asked_twice_is_answered_once() {
    let mut engine = engine::<Ghodak>(4);
    let out = answers(
        &mut engine,
        &[r#"{"id":"r","moves":[["B","E5"]],"analyzeTurns":[1,1,0,1],"maxVisits":3}"#],
    );
    let mut turns: Vec<u64> = out
        .iter()
        .map(|r| r["turnNumber"].as_u64().unwrap())
        .collect();
    turns.sort_unstable();
    assert_eq!(turns, [0, 1], "{out:?}");
}

/// `overrideSettings` sets KataGo's search settings for one query: the view, the visits,
/// the variations' length and the time; a setting without a counterpart here is named in a
/// warning, and the query is answered.
#[test]
fn override_settings_apply_to_their_query() {
    let mut engine = engine::<Ghodak>(4);
    let plain = answers(
        &mut engine,
        &[r#"{"id":"p","moves":[["B","E5"]],"maxVisits":40}"#],
    );
    let out = answers(
        &mut engine,
        &[
            r#"{"id":"o","moves":[["B","E5"]],"overrideSettings":{"reportAnalysisWinratesAs":"BLACK","maxVisits":25,"analysisPVLen":2,"wideRootNoise":0.04}}"#,
        ],
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0]["field"], "overrideSettings");
    assert!(
        out[0]["warning"]
            .as_str()
            .unwrap()
            .contains("`wideRootNoise`"),
        "{out:?}"
    );
    let (plain, over) = (&plain[0], &out[1]);
    assert_eq!(over["rootInfo"]["visits"], 25);
    let white = plain["rootInfo"]["winrate"].as_f64().unwrap();
    let black = over["rootInfo"]["winrate"].as_f64().unwrap();
    assert!(
        (white + black - 1.0).abs() < 0.2,
        "White's view then Black's: {white} {black}"
    );
    for info in over["moveInfos"].as_array().unwrap() {
        assert!(
            info["pv"].as_array().unwrap().len() <= 3,
            "the move and 2 after: {info}"
        );
    }
    // As in KataGo, a query's own maxVisits is read after its overrideSettings.
    let both = answers(
        &mut engine,
        &[r#"{"id":"b","moves":[],"maxVisits":30,"overrideSettings":{"maxVisits":25}}"#],
    );
    assert_eq!(both[0]["rootInfo"]["visits"], 30);
    // A search of ten million visits stops at its time.
    let timed = answers(
        &mut engine,
        &[r#"{"id":"t","moves":[],"overrideSettings":{"maxVisits":10000000,"maxTime":0.05}}"#],
    );
    let visits = timed[0]["rootInfo"]["visits"].as_u64().unwrap();
    assert!(visits > 0 && visits < 10_000_000, "{visits}");
}

/// Answers as [`HashEvaluator`], with Go's ownership of each position as the game counts it
/// (the side to move's view), and keeps every position it evaluated.
#[derive(Default)]
struct OwnershipEvaluator {
    wanted: bool,
    seen: Vec<Ghodak>,
    calls: usize,
}

impl Evaluator<Ghodak> for OwnershipEvaluator {
    fn evaluate(
        &mut self,
        positions: &[&Ghodak],
        out: &mut [Evaluation],
    ) -> Result<(), DeviceError> {
        self.calls += 1;
        HashEvaluator::default().evaluate(positions, out)?;
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            self.seen.push((*position).clone());
            evaluation.ownership.clear();
            if self.wanted {
                evaluation
                    .ownership
                    .resize(position.plane_shape().cells(), 0.0);
                position.ownership(position.to_move(), &mut evaluation.ownership);
            }
        }
        Ok(())
    }

    fn want_ownership(&mut self, wanted: bool) -> bool {
        self.wanted = wanted;
        true
    }
}

fn ownership_engine() -> AnalysisEngine<Ghodak, OwnershipEvaluator> {
    let mut settings = settings(4, Perspective::SideToMove);
    // No cache: every node the search makes is an evaluation the test sees.
    settings.cache_entries = 1;
    AnalysisEngine::new(Default::default(), OwnershipEvaluator::default(), settings)
}

/// The ownership reported is the search's: at one visit the network's at the root; at more,
/// the mean over every position the search evaluated (each seen from the root's side to
/// move), which this test computes from the evaluator's own record; a stone's cell is owned
/// by its side throughout.
#[test]
fn ownership_is_averaged_over_the_search() {
    let query = |visits: u32| {
        format!(
            r#"{{"id":"o","initialStones":[["B","C3"],["W","G7"]],"initialPlayer":"W","moves":[["W","E5"]],"maxVisits":{visits},"includeOwnership":true,"includeMovesOwnership":true,"includePolicy":true}}"#
        )
    };
    let c3 = 6 * 9 + 2;
    let g7 = 2 * 9 + 6;
    for visits in [1, 60] {
        let mut engine = ownership_engine();
        let out = answers(&mut engine, &[&query(visits)]);
        let ownership: Vec<f64> = out[0]["ownership"]
            .as_array()
            .unwrap_or_else(|| panic!("{out:?}"))
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        // Black is to move after White's E5.
        assert!(
            ownership[c3] > 0.99 && ownership[g7] < -0.99,
            "{ownership:?}"
        );
        let evaluator = engine.evaluator();
        let root_mover = evaluator.seen[0].to_move();
        let mut expected = vec![0.0f64; 81];
        let mut cells = vec![0.0f32; 81];
        for position in &evaluator.seen {
            position.ownership(root_mover, &mut cells);
            for (sum, &cell) in expected.iter_mut().zip(&cells) {
                *sum += f64::from(cell) / evaluator.seen.len() as f64;
            }
        }
        if visits == 1 {
            assert_eq!(
                evaluator.seen.len(),
                1,
                "one visit is the root's evaluation"
            );
            assert_eq!(
                evaluator.calls, 1,
                "policy and ownership come from the search's pass"
            );
        }
        for (got, want) in ownership.iter().zip(&expected) {
            assert!((got - want).abs() < 1e-5, "{ownership:?}\n{expected:?}");
        }
        let moves = out[0]["moveInfos"].as_array().unwrap();
        assert!(
            moves
                .iter()
                .all(|info| info["ownership"].as_array().map(Vec::len) == Some(81))
        );
        assert_eq!(out[0]["policy"].as_array().unwrap().len(), 82);
    }
}

/// Positions analysed again come from the cache all queries share, until `clear_cache`.
#[test]
fn the_cache_spans_queries_until_it_is_cleared() {
    let mut settings = settings(4, Perspective::SideToMove);
    settings.cache_entries = 1 << 14;
    let mut engine = AnalysisEngine::<Ghodak, _>::new(
        Default::default(),
        OwnershipEvaluator::default(),
        settings,
    );
    let line =
        r#"{"id":"c","moves":[["B","E5"],["W","C3"]],"analyzeTurns":[0,1,2],"maxVisits":20}"#;
    let evaluated = |engine: &mut AnalysisEngine<Ghodak, OwnershipEvaluator>, lines: &[&str]| {
        let before = engine.evaluator().seen.len();
        answers(engine, lines);
        engine.evaluator().seen.len() - before
    };
    let first = evaluated(&mut engine, &[line]);
    let again = evaluated(&mut engine, &[line]);
    assert!(
        again * 2 < first,
        "a repeat is mostly cache hits: {first} then {again}"
    );
    evaluated(&mut engine, &[r#"{"id":"x","action":"clear_cache"}"#]);
    let cleared = evaluated(&mut engine, &[line]);
    assert_eq!(cleared, first, "a cleared cache answers nothing");
}
