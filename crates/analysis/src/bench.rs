//! How much batching across queries buys: the same queries analysed one at a time (the next
//! sent when the last is answered, as a client of a GTP engine works) and all in flight at
//! once, on one engine, side by side.

use crate::engine::AnalysisEngine;
use game::{DeviceError, Evaluator, Game, Planes, short_colour};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Query lines for `count` positions of random games under `options`, each analysed with
/// `visits`: a game played at random from the start for a random number of moves (at most
/// `max_moves`), ending at a side's decision.
pub fn random_queries<G: Game>(
    options: &G::Options,
    count: usize,
    visits: u32,
    max_moves: usize,
    seed: u64,
) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut outcomes = Vec::new();
    let mut scratch = Vec::new();
    let mut queries = Vec::new();
    while queries.len() < count {
        let length = rng.random_range(0..=max_moves);
        let mut game = G::new(options);
        let mut moves = Vec::new();
        while moves.len() < length && game.outcome().is_none() {
            let (player, action) = if game.is_chance() {
                game.chance_outcomes(&mut outcomes);
                let pick = rng.random_range(0..outcomes.len());
                ("chance".to_owned(), outcomes[pick].0)
            } else {
                (
                    short_colour::<G>(game.to_move()),
                    game.random_legal_action(&mut rng, &mut scratch),
                )
            };
            moves.push(serde_json::json!([player, game.action_to_string(action)]));
            game.apply(action);
        }
        if game.outcome().is_some() || game.is_chance() {
            continue;
        }
        let id = queries.len();
        queries.push(
            serde_json::json!({"id": id.to_string(), "moves": moves, "maxVisits": visits})
                .to_string(),
        );
    }
    queries
}

/// What one way of sending the queries took.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Rate {
    pub seconds: f64,
    pub positions_per_sec: f64,
}

impl Rate {
    fn of(positions: usize, elapsed: Duration) -> Rate {
        let seconds = elapsed.as_secs_f64();
        Rate {
            seconds,
            positions_per_sec: positions as f64 / seconds.max(1e-9),
        }
    }
}

/// Analyses `queries` one at a time (each sent when the one before is answered).
pub fn one_at_a_time<G: Planes, E: Evaluator<G>>(
    engine: &mut AnalysisEngine<G, E>,
    queries: &[String],
) -> Result<Rate, DeviceError> {
    let start = Instant::now();
    for query in queries {
        engine.handle_line(query);
        while engine.step()? {}
        expect_answers(engine, 1);
    }
    Ok(Rate::of(queries.len(), start.elapsed()))
}

/// Analyses `queries` all sent at once.
pub fn all_in_flight<G: Planes, E: Evaluator<G>>(
    engine: &mut AnalysisEngine<G, E>,
    queries: &[String],
) -> Result<Rate, DeviceError> {
    let start = Instant::now();
    for query in queries {
        engine.handle_line(query);
    }
    while engine.step()? {}
    expect_answers(engine, queries.len());
    Ok(Rate::of(queries.len(), start.elapsed()))
}

fn expect_answers<G: Planes, E: Evaluator<G>>(engine: &mut AnalysisEngine<G, E>, count: usize) {
    let answers = engine.take_output();
    assert_eq!(answers.len(), count, "one result a query: {answers:?}");
    assert!(
        answers
            .iter()
            .all(|answer| answer.contains("\"moveInfos\"")),
        "every query is analysed: {answers:?}"
    );
}
