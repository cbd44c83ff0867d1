//! Search with chance nodes, checked against exact expectimax values computed here by brute
//! force: of Pig over its whole (finite, acyclic) game, and of Qast end-games, the last rounds
//! before the round limit with their rolls.

use game::{Game, Side};
use mcts::{
    ChanceChoice, DeviceError, Evaluation, Evaluator, Formula, Search, SearchConfig,
    UniformEvaluator,
};
use pig::{HOLD, Pig, PigOptions, ROLL, RawOptions};
use qast::Qast;
use std::collections::HashMap;

/// Exact values from the first side's view, by expectimax: the mover maximises its value,
/// chance averages over its outcomes with their probabilities. Memoised by the position's
/// hash, which Pig packs exactly; Qast's 64-bit Zobrist keys make a collision among the few
/// thousand positions of an end-game vanishingly unlikely.
struct Expectimax<G> {
    memo: HashMap<u64, f64>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game> Expectimax<G> {
    fn new() -> Self {
        Self {
            memo: HashMap::new(),
            _game: std::marker::PhantomData,
        }
    }

    fn value(&mut self, game: &G) -> f64 {
        if let Some(outcome) = game.outcome() {
            return f64::from(outcome.value_for(Side::First));
        }
        if let Some(&value) = self.memo.get(&game.hash()) {
            return value;
        }
        let value = if game.is_chance() {
            let mut outcomes = Vec::new();
            game.chance_outcomes(&mut outcomes);
            outcomes
                .iter()
                .map(|&(action, probability)| probability * self.after(game, action))
                .sum()
        } else {
            let sign = if game.to_move() == Side::First {
                1.0
            } else {
                -1.0
            };
            let mut legal = Vec::new();
            game.legal_actions(&mut legal);
            sign * legal
                .iter()
                .map(|&action| sign * self.after(game, action))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        self.memo.insert(game.hash(), value);
        value
    }

    fn after(&mut self, game: &G, action: usize) -> f64 {
        let mut next = game.clone();
        next.apply(action);
        self.value(&next)
    }

    /// The value of `action` for the side to move at `game`.
    fn action_value(&mut self, game: &G, action: usize) -> f64 {
        let sign = if game.to_move() == Side::First {
            1.0
        } else {
            -1.0
        };
        sign * self.after(game, action)
    }
}

fn options(target: i64, faces: i64, max_turns: i64) -> PigOptions {
    RawOptions {
        target,
        faces,
        max_turns,
    }
    .validate()
    .unwrap()
}

fn position(options: &PigOptions, moves: &str) -> Pig {
    let mut game = Pig::new(options);
    for text in moves.split_whitespace() {
        let action = game.parse_action(text).unwrap();
        game.apply(action);
    }
    game
}

/// The exact value of every decision position as the evaluator's value: search then only has
/// to average chance correctly and find the maximum.
struct ExactEvaluator<'a, G>(&'a mut Expectimax<G>);

impl<G: Game> Evaluator<G> for ExactEvaluator<'_, G> {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        UniformEvaluator.evaluate(positions, out)?;
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            let sign = if position.to_move() == Side::First {
                1.0
            } else {
                -1.0
            };
            evaluation.value = (sign * self.0.value(position)) as f32;
        }
        Ok(())
    }
}

fn puct() -> SearchConfig {
    SearchConfig {
        formula: Formula::Puct,
        root_noise: false,
        leaves_per_tree: 1,
        ..SearchConfig::default()
    }
}

/// Positions where rolling and holding differ by a clear margin, either way: rolling is
/// worth the risk of a 1 in most of Pig, holding on the last turn when it puts the mover
/// ahead.
fn decisions() -> Vec<Pig> {
    let long = options(20, 6, 12);
    let short = options(20, 6, 4);
    [
        (&long, "roll 4 roll 3"),
        (&long, "roll 5 roll 6 roll 4 hold roll 2"),
        (&long, "roll 6 roll 6 roll 5"),
        (&long, "roll 3 hold roll 6 roll 5 roll 4"),
        (&short, "roll 2 hold roll 3 hold roll 4 hold roll 4"),
        (
            &short,
            "roll 6 hold roll 2 roll 2 hold roll 5 hold roll 6 roll 3",
        ),
    ]
    .iter()
    .map(|(options, moves)| position(options, moves))
    .collect()
}

/// The exact value of `game`'s best move, and which move that is.
fn best_move(exact: &mut Expectimax<Pig>, game: &Pig) -> (f64, usize) {
    let roll = exact.action_value(game, ROLL);
    let hold = exact.action_value(game, HOLD);
    assert!(
        (roll - hold).abs() > 0.05,
        "{}: roll {roll:.4}, hold {hold:.4} are too close to tell apart",
        game.position_text()
    );
    if roll > hold {
        (roll, ROLL)
    } else {
        (hold, HOLD)
    }
}

/// With exact values at the leaves, search has only to average chance correctly and find
/// the maximum: it chooses the expectimax move.
#[test]
fn exact_leaf_values_lead_search_to_the_expectimax_move() {
    let mut exact = Expectimax::new();
    let mut chosen = Vec::new();
    for game in decisions() {
        let (_, best) = best_move(&mut exact, &game);
        let mut search = Search::new(puct(), 1);
        let mut values = Expectimax::new();
        let mut evaluator = ExactEvaluator(&mut values);
        let result = search.run(&game, &mut evaluator, 2000).unwrap();
        assert_eq!(result.action, best, "{}", game.position_text());
        chosen.push(result.action);
    }
    assert!(chosen.contains(&ROLL) && chosen.contains(&HOLD));
}

/// With no knowledge at all (uniform priors, value 0 at every leaf), search must find the
/// values by reaching the ends of the game through its chance nodes: the root value
/// converges to the exact expectimax value as the visits grow, and the move chosen is the
/// expectimax move.
#[test]
fn a_search_without_knowledge_converges_to_the_expectimax_value() {
    let (long, short) = (options(8, 4, 8), options(8, 4, 4));
    let mut chosen = Vec::new();
    for (options, moves) in [
        (&long, "roll 3"),
        (&long, "roll 2 roll 2"),
        (&long, "roll 4 hold roll 3"),
        (&long, "roll 3 roll 2 hold roll 2 roll 2"),
        (&short, "roll 2 hold roll 3 hold roll 2 hold roll 2"),
    ] {
        let game = position(options, moves);
        let (value, best) = best_move(&mut Expectimax::new(), &game);
        let mut errors = Vec::new();
        for visits in [1_000, 100_000] {
            let result = Search::new(puct(), 7)
                .run(&game, &mut UniformEvaluator, visits)
                .unwrap();
            errors.push((f64::from(result.value) - value).abs());
            chosen.push(result.action);
            assert_eq!(result.action, best, "{moves}, {visits} visits");
        }
        // Measured: 0.012-0.037 at 1,000 visits, 0.007-0.010 at 100,000.
        assert!(
            errors[1] < 0.02,
            "{moves}: errors {errors:?} at 1,000 and 100,000 visits (exact {value:.4})"
        );
    }
    assert!(chosen.contains(&ROLL) && chosen.contains(&HOLD));
}

/// Gumbel search goes through chance nodes as PUCT does.
#[test]
fn gumbel_search_finds_the_expectimax_move_through_chance_nodes() {
    let mut exact = Expectimax::new();
    let config = SearchConfig {
        formula: Formula::Gumbel,
        ..puct()
    };
    for game in decisions() {
        let (_, best) = best_move(&mut exact, &game);
        let mut search = Search::new(config.clone(), 3);
        let mut values = Expectimax::new();
        let mut evaluator = ExactEvaluator(&mut values);
        let result = search.run(&game, &mut evaluator, 400).unwrap();
        assert_eq!(result.action, best, "{}", game.position_text());
    }
}

#[test]
#[should_panic(expected = "chance")]
fn a_search_never_starts_at_a_chance_node() {
    let options = options(20, 6, 12);
    let game = position(&options, "roll");
    Search::new(puct(), 0)
        .run(&game, &mut UniformEvaluator, 10)
        .unwrap();
}

/// A Qast end-game: Black's end placement of round 1 (forced: its circles are empty) with the
/// limit at round 2, so the roll of round 2 and its twelve decisions remain, the count of
/// section 7 deciding. Black has three discs racing, one about to lap, White one disc two
/// spaces from its lap; the gold circles have room for one. About 1.8 million positions.
const QAST_END_GAME: &str = "o6-4,x20-25,x26-24,x32-34 x0o2 x1o1 x 1 321.33 ex 19";

/// The search's value of the end-game with exact values at its leaves, `visits` visits: the
/// root, the roll, and then the roll's outcomes in the order the chance node picks them.
fn qast_end_game_error(
    exact: &mut Expectimax<Qast>,
    game: &Qast,
    chance: ChanceChoice,
    seed: u64,
    visits: u32,
) -> f64 {
    let config = SearchConfig { chance, ..puct() };
    let result = Search::new(config, seed)
        .run(game, &mut ExactEvaluator(exact), visits)
        .unwrap();
    // Black is to move, so the search's value is the first side's, as the expectimax's.
    f64::from(result.value) - exact.value(game)
}

/// Every roll of Qast is equally likely: a stratified chance node visits each of the 243
/// once in its first 243 descents, so with exact values below it the search's value is the
/// exact expectimax value of the end-game, where sampling the rolls (with replacement)
/// misses some and repeats others.
#[test]
fn a_stratified_roll_gives_a_qast_end_game_its_exact_expectimax_value() {
    let options = qast::RawOptions {
        max_rounds: 2,
        ..Default::default()
    }
    .validate()
    .unwrap();
    let game = Qast::from_position(&options, QAST_END_GAME).unwrap();
    assert_eq!(game.to_move(), Side::First);
    let mut exact = Expectimax::new();
    let value = exact.value(&game);
    assert!(
        (0.5..0.99).contains(&value),
        "the end-game should be open, not decided: {value:.4}"
    );
    // The root, the roll node, and each of the 243 rolls once.
    let visits = 2 + 243;
    let mut sampled = Vec::new();
    for seed in 0..4 {
        let error = qast_end_game_error(&mut exact, &game, ChanceChoice::Stratified, seed, visits);
        // Measured: 0.0002 (float sums) for every seed.
        assert!(
            error.abs() < 1e-3,
            "stratified, seed {seed}: off by {error:.4}"
        );
        sampled.push(
            qast_end_game_error(&mut exact, &game, ChanceChoice::Sampled, seed, visits).abs(),
        );
    }
    // Measured: 0.008 to 0.024 over five seeds.
    let mean = sampled.iter().sum::<f64>() / sampled.len() as f64;
    assert!(
        mean > 2e-3,
        "sampled rolls should miss the exact value: {sampled:.4?}"
    );
}
