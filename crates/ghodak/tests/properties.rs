//! Invariants of the rules over random games.

use game::{Game, Planes};
use ghodak::{Ghodak, GhodakOptions, RawOptions};
use proptest::prelude::*;

fn options(size: i64) -> GhodakOptions {
    RawOptions {
        size,
        ..RawOptions::default()
    }
    .validate()
    .unwrap()
}

/// Plays `choices` as indices into the legal actions, stopping when the game ends.
fn play(options: &GhodakOptions, choices: &[usize]) -> (Ghodak, Vec<usize>) {
    let mut game = Ghodak::new(options);
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    for &choice in choices {
        game.legal_actions(&mut legal);
        if legal.is_empty() {
            break;
        }
        // Passing is one action among ~80; make it rarer still so games fill the board.
        let stones = legal.len() - 1;
        let action = if stones > 0 && choice % 50 != 0 {
            legal[choice % stones]
        } else {
            *legal.last().unwrap()
        };
        game.apply(action);
        actions.push(action);
    }
    (game, actions)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every group left on the board has a liberty (captures and the suicide rule), and the
    /// position string reads back to the same position and, with no ko pending, the same hash.
    #[test]
    fn positions_are_legal_and_round_trip(
        size in 5i64..=9,
        choices in prop::collection::vec(any::<usize>(), 0..200),
    ) {
        let options = options(size);
        let (game, _) = play(&options, &choices);
        let text = game.to_string();
        let back = Ghodak::from_position_str(&options, &text)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back.to_string(), text);
        if game.ko_point().is_none() && game.passes() == 0 {
            prop_assert_eq!(Game::hash(&back), Game::hash(&game));
        }
        let scores = game.half_scores();
        prop_assert!(scores[0] + scores[1] - options.half_komi() <= 2 * options.points() as i32);
    }

    /// Playing the same game mapped by a symmetry gives the mapped position: the same score,
    /// the mapped legal moves and the mapped ownership.
    #[test]
    fn symmetries_commute_with_the_rules(
        size in 5i64..=8,
        sym in 0usize..8,
        choices in prop::collection::vec(any::<usize>(), 0..150),
    ) {
        let options = options(size);
        let (game, actions) = play(&options, &choices);
        let mut mapped = Ghodak::new(&options);
        for &action in &actions {
            let action = mapped.transform_action(sym, action);
            prop_assert!(Game::is_legal(&mapped, action));
            mapped.apply(action);
        }
        prop_assert_eq!(game.half_scores(), mapped.half_scores());
        prop_assert_eq!(game.outcome(), mapped.outcome());
        let (mut legal, mut mapped_legal) = (Vec::new(), Vec::new());
        game.legal_actions(&mut legal);
        mapped.legal_actions(&mut mapped_legal);
        let mut expected: Vec<usize> = legal.iter().map(|&a| game.transform_action(sym, a)).collect();
        expected.sort_unstable();
        mapped_legal.sort_unstable();
        prop_assert_eq!(expected, mapped_legal);
        let points = options.points();
        let (mut own, mut own_mapped) = (vec![0.0; points], vec![0.0; points]);
        game.ownership(game.to_move(), &mut own);
        mapped.ownership(mapped.to_move(), &mut own_mapped);
        for point in 0..points {
            prop_assert_eq!(own[point], own_mapped[game.transform_action(sym, point)]);
        }
    }
}

#[test]
fn a_lone_capture_makes_a_ko_that_one_move_elsewhere_lifts() {
    // The classic ko shape on 5x5, Black to move; C2 takes the white stone on B2:
    //   row 3: . x o . .
    //   row 2: x o . o .
    //   row 1: . x o . .
    let options = options(5);
    let mut game = Ghodak::from_position_str(&options, "5/5/1xo2/xo1o1/1xo2 b 1").unwrap();
    game.play("C2").unwrap(); // Black takes B2.
    assert_eq!(game.to_string(), "5/5/1xo2/x1xo1/1xo2 w 2");
    let error = game.play("B2").unwrap_err();
    assert!(error.to_string().contains("retakes the ko"), "{error}");
    game.play("E5").unwrap();
    game.play("E4").unwrap();
    game.play("B2").unwrap(); // after a move elsewhere, White may take back
    assert_eq!(game.to_string(), "4o/4x/1xo2/xo1o1/1xo2 b 5");
    assert_eq!(game.ko_point(), Some(3 * 5 + 2), "and now C2 is Black's ko");
}

#[test]
fn planes_mark_liberties_and_the_ko() {
    let options = options(5);
    let mut game = Ghodak::from_position_str(&options, "5/5/1xo2/xo1o1/1xo2 b 1").unwrap();
    game.play("C2").unwrap();
    let cells = options.points();
    let mut planes = vec![0.0; ghodak::CHANNELS * cells];
    game.encode(&mut planes);
    let b2 = 3 * 5 + 1;
    assert_eq!(planes[4 * cells + b2], 1.0, "the ko point B2 is marked");
    let c2 = 3 * 5 + 2;
    assert_eq!(
        planes[cells + c2],
        1.0,
        "C2 is the opponent's stone for White"
    );
    assert_eq!(planes[8 * cells + c2], 1.0, "C2 has a single liberty");
    assert_eq!(planes[11 * cells + c2], 1.0, "C2 is the last stone");
}

/// Whether the point named `name` is a futile move for the side to move in `position` (5x5).
fn futile(position: &str, name: &str) -> bool {
    let game = Ghodak::from_position_str(&options(5), position).unwrap();
    let column = usize::from(name.as_bytes()[0] - b'A');
    let row = 5 - name[1..].parse::<usize>().unwrap();
    game.is_futile(row * 5 + column)
}

#[test]
fn filling_ones_own_true_eye_is_futile_and_nothing_else_is() {
    // A corner eye of Black at A5: its neighbours are Black, so is its one diagonal.
    //   row 5: . x . . .
    //   row 4: x x . . .
    assert!(futile("1x3/xx3/5/5/5 b 1", "A5"));
    assert!(
        !futile("1x3/xx3/5/5/5 w 1", "A5"),
        "it is Black's eye, not White's"
    );
    // A White stone on the diagonal makes it a false eye on the edge.
    assert!(!futile("1x3/xo3/5/5/5 b 1", "A5"));
    // Inside the board, one opposing diagonal still leaves a true eye at C4; two do not.
    //   row 5: . o x . .
    //   row 4: . x . x .
    //   row 3: . . x . .
    assert!(futile("1ox2/1x1x1/2x2/5/5 b 1", "C4"));
    assert!(!futile("1ox2/1x1x1/2xo1/5/5 b 1", "C4"));
    // An empty neighbour, an opposing neighbour, an occupied point: no eye to fill.
    assert!(!futile("1ox2/1x3/2x2/5/5 b 1", "C4"));
    assert!(!futile("1ox2/1x1o1/2x2/5/5 b 1", "C4"));
    assert!(!futile("1ox2/1x1x1/2x2/5/5 b 1", "B4"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A legal futile move is a stone that captures nothing: it only fills.
    #[test]
    fn a_futile_move_captures_nothing(
        size in 5i64..=9,
        choices in prop::collection::vec(any::<usize>(), 0..200),
    ) {
        let options = options(size);
        let (game, _) = play(&options, &choices);
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        for &point in legal.iter().filter(|&&action| game.is_futile(action)) {
            let mut after = game.clone();
            after.apply(point);
            let stones = |g: &Ghodak| (0..options.points()).filter(|&p| g.stone_at(p).is_some()).count();
            prop_assert_eq!(stones(&after), stones(&game) + 1, "it captures nothing");
        }
        prop_assert!(!game.is_futile(options.points()), "passing is never futile");
    }
}
