//! Invariants of the rules over random games (random decisions, rolls by their odds): discs
//! are conserved, position strings round-trip, and the flip carries a legal game to a legal
//! game with the same result.

use game::Game;
use game::speed::RandomPlayout;
use proptest::prelude::*;
use qast::{Next, Qast, QastOptions, RawOptions};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn rules(side: i64, black_gold: i64, max_rounds: i64) -> QastOptions {
    RawOptions {
        side,
        black_gold,
        max_rounds,
    }
    .validate()
    .unwrap()
}

/// A random game's actions: decisions uniformly from the legal list, rolls by their odds.
fn random_game(options: &QastOptions, seed: u64) -> Vec<usize> {
    let mut actions = Vec::new();
    let mut rng = SmallRng::seed_from_u64(seed);
    RandomPlayout::default().play(&mut Qast::new(options), &mut rng, |a| actions.push(a));
    actions
}

fn discs_in_play(game: &Qast, colour: u8) -> usize {
    game.on_track(colour)
        + usize::from(game.circles[usize::from(colour)] + game.gold[usize::from(colour)])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn discs_are_conserved_and_positions_round_trip(
        side in (9i64..=19).prop_map(|k| 2 * k + 1), black_gold in 0i64..=1, seed in any::<u64>()
    ) {
        let options = rules(side, black_gold, 30);
        let mut game = Qast::new(&options);
        for action in random_game(&options, seed) {
            game.apply(action);
            if !matches!(game.next, Next::Setup(_)) {
                prop_assert_eq!(discs_in_play(&game, 0), 4);
                prop_assert_eq!(discs_in_play(&game, 1), 4);
            }
            let text = game.to_string();
            let reread = Qast::from_position(&options, &text).unwrap();
            prop_assert_eq!(reread.to_string(), text);
            prop_assert_eq!(reread.hash(), game.hash());
        }
    }

    /// `is_legal` decides without listing; it must agree with the list on every action.
    #[test]
    fn is_legal_agrees_with_the_legal_list(seed in any::<u64>(), black_gold in 0i64..=1) {
        let options = rules(19, black_gold, 30);
        let mut game = Qast::new(&options);
        let mut legal = Vec::new();
        for action in random_game(&options, seed) {
            game.legal_actions(&mut legal);
            for candidate in 0..game.num_actions().max(qast::ROLLS) + 2 {
                prop_assert_eq!(
                    game.is_legal(candidate),
                    legal.contains(&candidate),
                    "{} at {}", candidate, game.to_string()
                );
            }
            game.apply(action);
        }
    }

    #[test]
    fn the_flip_maps_a_legal_game_to_a_legal_game_with_the_same_result(
        seed in any::<u64>(), black_gold in 0i64..=1
    ) {
        let options = rules(19, black_gold, 25);
        let (mut game, mut flipped) = (Qast::new(&options), Qast::new(&options));
        for action in random_game(&options, seed) {
            let image = game.transform_action(1, action);
            prop_assert!(flipped.is_legal(image), "{} flipped", game.action_to_string(action));
            game.apply(action);
            flipped.apply(image);
            prop_assert_eq!(flipped.gold, game.gold);
            prop_assert_eq!(flipped.total_progress(), game.total_progress());
        }
        prop_assert_eq!(flipped.result_text(), game.result_text());
    }
}

#[test]
fn a_roll_has_243_equally_likely_outcomes() {
    let mut game = Qast::from_position(
        &QastOptions::default(),
        "o4,o9,o13,x24,x28 x1o1 x1o0 x 1 - roll 7",
    )
    .unwrap();
    let mut outcomes = Vec::new();
    game.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 243);
    let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let roll = game.parse_action("r213.31").unwrap();
    assert_eq!(game.action_to_string(roll), "r213.31");
    game.apply(roll);
    assert_eq!(
        game.to_string(),
        "o4,o9,o13,x24,x28 x1o1 x1o0 x 1 213.31 ax1 8"
    );
}
