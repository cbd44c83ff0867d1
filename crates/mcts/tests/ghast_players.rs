//! The baseline players on real Ghast positions (small boards and margins, so that tactics
//! are a move or two deep).

use game::{Game, Outcome, Side};
use ghast::{Ghast, GhastOptions, RawOptions};
use mcts::players::{GreedyPlayer, MctsPlayer, Player, RandomPlayer};
use mcts::{SearchConfig, UniformEvaluator};

fn options(size: i64, win_margin: i64) -> GhastOptions {
    RawOptions {
        size,
        win_margin,
        ..RawOptions::default()
    }
    .validate()
    .expect("valid options")
}

fn position(size: i64, text: &str) -> Ghast {
    Ghast::from_position_str(&options(size, 2), text).expect("valid position")
}

fn legal(game: &Ghast) -> Vec<usize> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    legal
}

fn after(game: &Ghast, action: usize) -> Ghast {
    let mut next = game.clone();
    next.apply(action);
    next
}

/// Every reply of the opponent ends the game in the mover's favour.
fn wins_in_two(game: &Ghast, action: usize) -> bool {
    let me = game.to_move();
    let next = after(game, action);
    next.outcome().is_none()
        && legal(&next)
            .into_iter()
            .all(|reply| after(&next, reply).outcome() == Some(Outcome::Win(me)))
}

fn loses_at_once(game: &Ghast, action: usize) -> bool {
    after(game, action).outcome() == Some(Outcome::Win(game.to_move().other()))
}

/// Plays one game and returns its outcome; both players see every move.
fn play(game: &mut Ghast, orange: &mut dyn Player<Ghast>, blue: &mut dyn Player<Ghast>) -> Outcome {
    orange.reset();
    blue.reset();
    loop {
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        let action = match game.to_move() {
            Side::First => orange.choose(game),
            Side::Second => blue.choose(game),
        };
        assert!(
            game.is_legal(action),
            "{} played an illegal move",
            game.action_to_string(action)
        );
        game.apply(action);
        orange.observe(action);
        blue.observe(action);
    }
}

#[test]
fn uct_finds_the_only_move_that_wins_by_margin() {
    for (size, text) in [
        (4, "1c2/2b2/2B2f/6C/c2F2/4D/1a2 o 11"),
        (3, "B2/3A/1A1da/b3/e1F b 12"),
    ] {
        let game = position(size, text);
        let winning = legal(&game)
            .into_iter()
            .filter(|&a| wins_in_two(&game, a))
            .count();
        assert!(
            winning * 10 <= legal(&game).len(),
            "{text}: a hard test needs few winning moves"
        );
        let action = MctsPlayer::uct(3000, 1).choose(&game);
        assert!(
            wins_in_two(&game, action),
            "{text}: played {}",
            game.action_to_string(action)
        );
    }
}

#[test]
fn uct_avoids_moves_that_lose_by_margin_at_once() {
    for (size, text) in [
        (3, "1ca/1Be1/2A1E/C1CC/3 o 15"),
        (4, "2DA/b4/1b2c1/4B2/1e2d1/5/3e b 12"),
    ] {
        let game = position(size, text);
        let losing = legal(&game)
            .into_iter()
            .filter(|&a| loses_at_once(&game, a))
            .count();
        assert!(
            losing * 10 >= legal(&game).len() * 9,
            "{text}: a hard test has few safe moves"
        );
        let action = MctsPlayer::uct(1000, 2).choose(&game);
        assert!(
            !loses_at_once(&game, action),
            "{text}: played {}",
            game.action_to_string(action)
        );
    }
}

#[test]
fn uct_200_beats_random() {
    let options = options(4, 3);
    let mut uct = MctsPlayer::uct(200, 3);
    let mut random = RandomPlayer::new(4);
    let games = 40;
    let wins = (0..games)
        .filter(|&i| {
            let mut game = Ghast::new(&options);
            let (outcome, uct_side) = if i % 2 == 0 {
                (play(&mut game, &mut uct, &mut random), Side::First)
            } else {
                (play(&mut game, &mut random, &mut uct), Side::Second)
            };
            outcome == Outcome::Win(uct_side)
        })
        .count();
    assert!(wins * 100 >= games * 95, "uct-200 won {wins} of {games}");
}

#[test]
fn baselines_finish_games_with_legal_moves() {
    let options = options(3, 2);
    let mut greedy = GreedyPlayer::new(5);
    let mut puct = MctsPlayer::new("puct-50", UniformEvaluator, SearchConfig::play(), 50, 6);
    for i in 0..4 {
        let mut game = Ghast::new(&options);
        if i % 2 == 0 {
            play(&mut game, &mut greedy, &mut puct);
        } else {
            play(&mut game, &mut puct, &mut greedy);
        }
    }
    assert_eq!(Player::<Ghast>::name(&greedy), "greedy");
    assert_eq!(Player::<Ghast>::name(&puct), "puct-50");
}
