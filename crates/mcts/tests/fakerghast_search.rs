//! Search over information sets never peeks: two Fakerghast games that differ only in which
//! tile of the opponent's hidden pairs is real get the same search, move for move and visit for
//! visit, from the same seed; and the same move from the `greedy` and `uct:N` baselines.

use game::playout::RandomPlayout;
use game::{Game, Outcome};
use ghast::fakerghast::{Move, RawFakerghastOptions};
use ghast::{Fakerghast, FakerghastOptions};
use mcts::players::{GreedyPlayer, Player, UctPlayer};
use mcts::{RolloutEvaluator, Search, SearchConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn options() -> FakerghastOptions {
    RawFakerghastOptions {
        size: 4,
        win_margin: 6,
        fakerghast: Some(2),
        ..RawFakerghastOptions::default()
    }
    .validate()
    .unwrap()
}

/// A game `turns` turns in, every turn a pair (never a pass), drawn from `seed`; and its twin,
/// the same but for the real and fake tile swapped in the last two pairs of the side that just
/// moved, which are still face down (D = 2).
fn twins(turns: usize, seed: u64) -> (Fakerghast, Fakerghast) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Fakerghast::new(&options());
    let mut legal = Vec::new();
    let mut moves = Vec::new();
    while moves.len() < turns && game.outcome().is_none() {
        game.legal_actions(&mut legal);
        legal.retain(|&action| game.action_to_string(action) != "pass");
        game.apply(*rand::seq::IndexedRandom::choose(&legal[..], &mut rng).unwrap());
        if game.pending().is_none() {
            moves.push(game.last_move().unwrap());
        }
    }
    let mut twin = Fakerghast::new(&options());
    let last = moves.len();
    for (turn, &played) in moves.iter().enumerate() {
        twin.apply_move(match played {
            Move::Pair { real, fake } if turn + 4 >= last && (last - turn) % 2 == 1 => Move::Pair {
                real: fake,
                fake: real,
            },
            other => other,
        });
    }
    (game, twin)
}

#[test]
fn states_that_differ_only_in_hidden_choices_get_the_same_search() {
    let mut truth_mattered = 0;
    for seed in 0..8 {
        let (game, twin) = twins(6 + seed as usize % 4, seed);
        if game.outcome().is_some() {
            continue;
        }
        assert_ne!(game.full_text(), twin.full_text(), "the twins differ");
        assert_eq!(
            game.view_text(game.to_move()),
            twin.view_text(twin.to_move())
        );
        // The truth decides games: random playouts from the true states, with the same dice,
        // end differently for some pair of twins, so a search that read it would differ too.
        let mut rng = (
            ChaCha8Rng::seed_from_u64(seed),
            ChaCha8Rng::seed_from_u64(seed),
        );
        let (mut a, mut b) = (game.clone(), twin.clone());
        let mut playout = RandomPlayout::default();
        let outcomes: (Outcome, Outcome) = (
            playout.play(&mut a, &mut rng.0, |_| {}),
            playout.play(&mut b, &mut rng.1, |_| {}),
        );
        if outcomes.0 != outcomes.1 || a.full_text() != b.full_text() {
            truth_mattered += 1;
        }
        let search = |state: &Fakerghast| {
            Search::new(SearchConfig::default(), 11)
                .run(state, &mut RolloutEvaluator::new(5), 300)
                .unwrap()
        };
        assert_eq!(
            search(&game),
            search(&twin),
            "seed {seed}: {}",
            game.full_text()
        );
        let mut greedy = (GreedyPlayer::new(3), GreedyPlayer::new(3));
        assert_eq!(greedy.0.choose(&game), greedy.1.choose(&twin));
        // The `uct:N` baseline is UCT over a determinization: it too sees only a sample.
        let mut uct = (UctPlayer::uct(300, 3), UctPlayer::uct(300, 3));
        assert_eq!(uct.0.choose(&game), uct.1.choose(&twin));
    }
    assert!(
        truth_mattered > 0,
        "the hidden truth never changed a playout"
    );
}
