#![no_main]
//! Query lines through the analysis engine of every game, searching with a uniform evaluator:
//! every line is answered with JSON and nothing panics. Searches are capped by the steps the
//! target takes (a query may ask for any number of visits), after which every query is
//! terminated.

use analysis::{AnalysisEngine, Perspective, SearchSettings, Settings};
use game::Planes;
use libfuzzer_sys::fuzz_target;
use mcts::{SearchConfig, UniformEvaluator};

/// Steps of search a run of the target takes at most.
const STEPS: usize = 64;

fn analyse<G: Planes>(input: &str) {
    let settings = Settings {
        positions_in_flight: 4,
        search: SearchSettings {
            visits: 16,
            max_time: None,
            perspective: Perspective::SideToMove,
            pv_len: 5,
            search: SearchConfig {
                root_noise: false,
                ..SearchConfig::default()
            },
        },
        cache_entries: 1 << 10,
        seed: 0,
    };
    let mut engine = AnalysisEngine::<G, _>::new(G::Options::default(), UniformEvaluator, settings);
    for line in input.lines() {
        engine.handle_line(line);
    }
    for _ in 0..STEPS {
        if !engine.step().expect("uniform priors have no device to fail") {
            break;
        }
    }
    engine.handle_line(r#"{"id":"end","action":"terminate_all"}"#);
    for line in engine.take_output() {
        let answer: serde_json::Value = serde_json::from_str(&line).expect("answers are JSON");
        assert!(answer.is_object(), "{line}");
    }
    assert!(engine.is_idle(), "terminate_all leaves nothing to search");
}

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    ghast_fuzz::for_every_game!(analyse(&input));
});
