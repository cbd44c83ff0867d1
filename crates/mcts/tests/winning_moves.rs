//! Play takes a move that wins at once, even one the search never visited.

use game::Game;
use ghodak::{Ghodak, RawOptions};
use mcts::{Search, SearchConfig, UniformEvaluator};

/// 5 x 5 Go with komi 0.5 after Black's C3 and White's pass: Black owns the whole board.
fn black_ahead_after_a_white_pass() -> Ghodak {
    let options = RawOptions {
        size: 5,
        komi: 0.5,
        max_moves: None,
    }
    .validate()
    .unwrap();
    let mut game = Ghodak::new(&options);
    game.play("C3").unwrap();
    game.play("pass").unwrap();
    game
}

#[test]
fn a_pass_that_wins_is_played_whatever_the_visits() {
    let game = black_ahead_after_a_white_pass();
    // One visit each for a handful of the 25 moves: the pass is almost surely never visited.
    let mut search = Search::<Ghodak>::new(SearchConfig::play(), 3);
    let result = search.run(&game, &mut UniformEvaluator, 4).unwrap();
    assert_eq!(game.action_to_string(result.action), "pass");
    assert_eq!(result.value, 1.0);
}

#[test]
fn a_pass_that_loses_is_not_forced() {
    // Black C3 C4, White D4, then Black passes: Black leads 2 to 1.5, so White's pass would
    // end the game lost, and nothing wins at once for White.
    let mut game = black_ahead_after_a_white_pass();
    for text in ["C4", "D4", "pass"] {
        game.play(text).unwrap();
    }
    let mut search = Search::<Ghodak>::new(SearchConfig::play(), 3);
    let result = search.run(&game, &mut UniformEvaluator, 64).unwrap();
    assert_ne!(game.action_to_string(result.action), "pass");
}
