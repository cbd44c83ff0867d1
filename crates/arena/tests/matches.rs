//! Matches between the baselines on a small board: results, pairing, SPRT and records.

use arena::rating::SprtDecision;
use arena::{Match, MatchResult, MatchSettings, PlayerSpec};
use game::{Game, Side};
use ghast::{Ghast, GhastOptions, RawOptions};

fn small_board() -> GhastOptions {
    RawOptions {
        size: 4,
        win_margin: 5,
        ..RawOptions::default()
    }
    .validate()
    .unwrap()
}

fn play(a: &str, b: &str, settings: MatchSettings) -> MatchResult {
    let (a, b): (PlayerSpec, PlayerSpec) = (a.parse().unwrap(), b.parse().unwrap());
    let game_match = Match::<Ghast> {
        options: small_board(),
        a: &a,
        b: &b,
        settings,
    };
    let mut seen = 0;
    let result = game_match.run(&mut |_| seen += 1).unwrap();
    assert_eq!(seen, result.games.len(), "every game is reported once");
    result
}

fn settings(games: u32) -> MatchSettings {
    MatchSettings {
        games,
        threads: 2,
        opening_moves: 2,
        sprt: None,
        seed: 7,
    }
}

#[test]
fn greedy_beats_random() {
    let result = play("greedy", "random", settings(16));
    assert_eq!(result.wdl.games(), 16);
    assert_eq!(result.pairs.counts.iter().sum::<u32>(), 8);
    assert!(
        result.wdl.wins >= 12,
        "greedy should win most: {:?}",
        result.wdl
    );
    assert!(result.stats().elo > 0.0);
    assert_eq!((result.a.as_str(), result.b.as_str()), ("greedy", "random"));
}

#[test]
fn colours_alternate_and_openings_are_shared_by_pairs() {
    let result = play("random", "greedy", settings(8));
    let indices: Vec<u32> = result.games.iter().map(|g| g.index).collect();
    assert_eq!(indices, (0..8).collect::<Vec<_>>());
    for pair in result.games.chunks(2) {
        let (first, second) = (&pair[0], &pair[1]);
        assert_eq!((first.a_side, second.a_side), (Side::First, Side::Second));
        assert_eq!(
            (first.players[0].as_str(), second.players[0].as_str()),
            ("random", "greedy")
        );
        assert_eq!(first.opening_moves, 2);
        assert_eq!(
            first.moves[..2],
            second.moves[..2],
            "a pair shares its opening"
        );
    }
    let openings: std::collections::HashSet<_> =
        result.games.iter().map(|g| g.moves[..2].to_vec()).collect();
    assert!(openings.len() > 1, "pairs get different openings");
}

#[test]
fn records_replay_to_the_same_result() {
    let result = play("greedy", "random", settings(4));
    for record in &result.games {
        let mut game = Ghast::new(&small_board());
        for text in &record.moves {
            game.play(text).unwrap();
        }
        assert_eq!(
            game.outcome(),
            Some(record.ending.outcome),
            "game {}",
            record.index
        );
        assert_eq!(game.end_reason(), Some(record.ending.reason.as_str()));
    }
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let sprt = Some("0,200".parse().unwrap());
    let result = play(
        "uct:50",
        "random",
        MatchSettings {
            sprt,
            ..settings(200)
        },
    );
    let status = result.sprt.expect("the test ran");
    assert_eq!(status.decision, SprtDecision::AcceptH1);
    assert!(
        result.wdl.games() < 60,
        "stopped after {} games",
        result.wdl.games()
    );
}

#[test]
fn odd_game_counts_are_refused() {
    let (a, b) = (PlayerSpec::Random, PlayerSpec::Greedy);
    let game_match = Match::<Ghast> {
        options: small_board(),
        a: &a,
        b: &b,
        settings: settings(3),
    };
    let error = game_match.run(&mut |_| {}).unwrap_err().to_string();
    assert!(error.contains("even number"), "{error}");
}
