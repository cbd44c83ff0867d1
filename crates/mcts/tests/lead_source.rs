//! Where the score lead in a leaf's utility comes from: the network's prediction, or the
//! position's own score (`lead_source = "position"`).

use game::Game;
use mcts::{Formula, LeadSource, Search, SearchConfig, UniformEvaluator};
use pig::{HOLD, Pig, ROLL, RawOptions, face_action};

/// A search of one visit: the root's value is its own evaluation's utility.
fn root_value(game: &Pig, lead_source: LeadSource) -> f32 {
    let config = SearchConfig {
        formula: Formula::Puct,
        root_noise: false,
        score_utility: 1.0,
        score_scale: 5.0,
        lead_source,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, 1);
    let result = search.run(game, &mut UniformEvaluator, 1).unwrap();
    assert_eq!(
        result.value, 0.0,
        "the game value leaves the score term out"
    );
    search.tree().expect("searched").root_value()
}

/// After the first side banks 7 points, the second side's position is worth its value (0
/// from a uniform network) plus the score term of its lead: nothing from the network's lead
/// (0), `(2 / pi) * atan(-7 / 5)` from the position's score.
#[test]
fn the_position_lead_counts_the_score_on_the_board() {
    let options = RawOptions::default().validate().unwrap();
    let mut game = Pig::new(&options);
    for action in [ROLL, face_action(4), ROLL, face_action(3), HOLD] {
        game.apply(action);
    }
    assert_eq!(game.score(game.to_move().other()), 7.0);
    assert_eq!(root_value(&game, LeadSource::Network), 0.0);
    let expected = std::f32::consts::FRAC_2_PI * (-7.0f32 / 5.0).atan();
    let value = root_value(&game, LeadSource::Position);
    assert!(
        (value - expected).abs() < 1e-5,
        "{value}, expected {expected}"
    );
}
