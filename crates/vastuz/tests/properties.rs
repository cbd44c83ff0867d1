//! Invariants of the rules over random games of every small size: a steal conserves stones,
//! position strings round-trip, a game mapped by any of the 12 symmetries stays legal with the
//! same result, and the score treats both colours alike.

use game::Game;
use game::playout::RandomPlayout;
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use vastuz::{Decision, RawOptions, Vastuz, VastuzOptions};

fn rules(size: i64, pie: i64) -> VastuzOptions {
    RawOptions { size, pie }.validate().unwrap()
}

/// A random game's actions, every one drawn from the legal list.
fn random_game(options: &VastuzOptions, seed: u64) -> Vec<usize> {
    let mut actions = Vec::new();
    let mut rng = SmallRng::seed_from_u64(seed);
    RandomPlayout::default().play(&mut Vastuz::new(options), &mut rng, |a| actions.push(a));
    actions
}

fn stones(game: &Vastuz) -> usize {
    let cells = game.geometry().cells();
    (0..cells).filter(|&c| game.colour_at(c).is_some()).count()
}

/// The position with Black's and White's stones exchanged.
fn colours_swapped(position: &str) -> String {
    position
        .split(' ')
        .next()
        .unwrap()
        .chars()
        .map(|c| match c {
            'x' => 'o',
            'o' => 'x',
            other => other,
        })
        .collect::<String>()
        + " b 1"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn steals_conserve_stones_and_positions_round_trip(
        size in 2i64..=7, pie in 0i64..=1, seed in any::<u64>()
    ) {
        let options = rules(size, pie);
        let mut game = Vastuz::new(&options);
        for action in random_game(&options, seed) {
            let (before, decision) = (stones(&game), game.decision());
            game.apply(action);
            let expected = match decision {
                Decision::Place if action < game.geometry().cells() => before + 1,
                Decision::Take => before - 1,
                Decision::Put => before + 1,
                _ => before,
            };
            prop_assert_eq!(stones(&game), expected);
            if !game.mid_move() {
                let text = game.position_text();
                let reread = Vastuz::from_position(&options, &text).unwrap();
                prop_assert_eq!(reread.position_text(), text);
                prop_assert_eq!(reread.hash(), game.hash());
            }
        }
    }

    #[test]
    fn a_game_mapped_by_a_symmetry_stays_legal_with_the_same_result(
        size in 2i64..=6, seed in any::<u64>(), sym in 0usize..12
    ) {
        let options = rules(size, 1);
        let (mut game, mut mapped) = (Vastuz::new(&options), Vastuz::new(&options));
        for action in random_game(&options, seed) {
            let image = game.transform_action(sym, action);
            prop_assert!(mapped.is_legal(image), "{} under symmetry {sym}", game.action_to_string(action));
            game.apply(action);
            mapped.apply(image);
            prop_assert_eq!(mapped.half_scores(), game.half_scores());
        }
        prop_assert_eq!(mapped.result_text(), game.result_text());
    }

    #[test]
    fn the_score_treats_both_colours_alike(size in 2i64..=7, seed in any::<u64>()) {
        let options = rules(size, 0);
        let mut game = Vastuz::new(&options);
        for action in random_game(&options, seed) {
            game.apply(action);
            if !game.mid_move() {
                let [black, white] = game.half_scores();
                let swapped = Vastuz::from_position(&options, &colours_swapped(&game.position_text())).unwrap();
                prop_assert_eq!(swapped.half_scores(), [white, black]);
            }
        }
    }
}

#[test]
fn the_example_of_section_4_4_plays_as_written() {
    // Size 4, Black to move: the example of section 4.4, move by move.
    let options = rules(4, 0);
    let mut game = Vastuz::from_position(&options, "2x1/2o2/3o2/3x3/1o4/o4/4 b 9").unwrap();
    for refused in [
        "c4+e3-e3+e2-g1+a6-c5",
        "c4+e3-e3+a6-c5",
        "c4+e3-e3+a6-f3",
        "c4+e3-e3+a6-c5+e2-f2",
    ] {
        assert!(game.clone().play(refused).is_err(), "{refused}");
    }
    let mut other_order = game.clone();
    game.play("c4+e3-e3+a6-c5+e2-g1").unwrap();
    assert_eq!(game.position_text(), "2xx/5/3x2/2xx3/1ox3/5/4 w 10");
    other_order.play("c4+a6-c5+e3-e3+e2-g1").unwrap();
    assert_eq!(other_order.position_text(), game.position_text());
}

#[test]
fn scores_follow_the_examples_of_section_5() {
    // A line of three each: equal lists, a draw at 1 against 1 so far.
    let options = rules(4, 0);
    let game = Vastuz::from_position(&options, "xxx1/5/6/7/6/o4/oo2 b 5").unwrap();
    assert_eq!(game.sizes(), [vec![3], vec![3]]);
    assert_eq!(game.half_scores(), [2, 2]);
    // Black 3 1 1 against White 3: 2.5 against 1 (White's list ends first).
    let game = Vastuz::from_position(&options, "xxx1/5/6/x5x/6/5/ooo1 b 5").unwrap();
    assert_eq!(game.sizes(), [vec![3, 1, 1], vec![3]]);
    assert_eq!(game.half_scores(), [5, 2]);
}

#[test]
fn bad_position_strings_say_why() {
    // Found by the fuzzer: a run of empty points too long to count overflowed.
    let options = rules(5, 1);
    for (text, why) in [
        ("5/6/7/8/99999999999/8/7/6/5 b 1", "too many points"),
        ("5/6/7/8/9/8/7/6 b 1", "rows"),
        ("5/6/7/8/9/8/7/6/5 b 0", "move number"),
        ("5/6/7/8/9/8/7/6/4 b 1", "row 9 has 4 points"),
        ("5/6/7/8/9/8/7/6/5x b 1", "too many points"),
        ("5/6/7/8/9/8/7/6/q4 b 1", "`q`"),
    ] {
        let error = Vastuz::from_position(&options, text)
            .unwrap_err()
            .to_string();
        assert!(error.contains(why), "{text}: {error}");
    }
}
