//! In a game with chance, both games of a colour-swapped pair draw chance's outcomes from one
//! stream: the n-th roll of one game is the n-th roll of the other, whoever makes it, so that
//! luck cancels over the pair. Pairs differ from each other.

use arena::{Match, MatchSettings, PlayerSpec};
use game::Game;
use pig::{Pig, RawOptions};

/// The chance outcomes of a game, in order, from its moves as the record writes them.
fn rolls(moves: &[String]) -> Vec<String> {
    let options = RawOptions {
        target: 20,
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    let mut game = Pig::new(&options);
    let mut rolls = Vec::new();
    for text in moves {
        if game.is_chance() {
            rolls.push(text.clone());
        }
        game.play_told(text).unwrap();
    }
    rolls
}

#[test]
fn both_games_of_a_pair_roll_the_same_dice_and_pairs_differ() {
    let (a, b): (PlayerSpec, PlayerSpec) = ("random".parse().unwrap(), "greedy".parse().unwrap());
    let game_match = Match::<Pig> {
        options: RawOptions {
            target: 20,
            ..RawOptions::default()
        }
        .validate()
        .unwrap(),
        a: &a,
        b: &b,
        settings: MatchSettings {
            games: 8,
            threads: 2,
            opening_moves: 0,
            sprt: None,
            seed: 5,
        },
    };
    let result = game_match.run(&mut |_| {}).unwrap();
    let mut firsts = Vec::new();
    for pair in result.games.chunks(2) {
        let (one, other) = (rolls(&pair[0].moves), rolls(&pair[1].moves));
        let shared = one.len().min(other.len());
        assert!(shared >= 4, "{one:?} / {other:?}");
        assert_eq!(
            one[..shared],
            other[..shared],
            "games {} and {}",
            pair[0].index,
            pair[1].index
        );
        assert_ne!(
            pair[0].moves, pair[1].moves,
            "the players differ, so the games do"
        );
        firsts.push(one[..4].to_vec());
    }
    firsts.dedup();
    assert!(
        firsts.len() > 1,
        "every pair rolled the same dice: {firsts:?}"
    );
}
