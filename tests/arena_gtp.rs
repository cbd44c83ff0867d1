//! Games against an external GTP engine process (the `ghast-random-gtp` helper binary).

use arena::{Match, MatchResult, MatchSettings, PlayerSpec};
use ghast::{Ghast, GhastOptions, RawOptions};

fn engine(flags: &str) -> PlayerSpec {
    format!(
        "gtp:{} --win-margin 5 {flags}",
        env!("CARGO_BIN_EXE_ghast-random-gtp")
    )
    .parse()
    .unwrap()
}

fn play(a: &PlayerSpec, b: &PlayerSpec) -> MatchResult {
    let options: GhastOptions = RawOptions {
        size: 4,
        win_margin: 5,
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    let settings = MatchSettings {
        games: 4,
        threads: 2,
        opening_moves: 2,
        sprt: None,
        seed: 3,
    };
    Match::<Ghast> {
        options,
        a,
        b,
        settings,
    }
    .run(&mut |_| {})
    .unwrap()
}

#[test]
fn a_gtp_engine_plays_whole_games() {
    let result = play(&engine("--seed 5"), &PlayerSpec::Random);
    assert_eq!(result.wdl.games(), 4);
    for game in &result.games {
        assert_eq!(game.ending.forfeit, None, "game {}", game.index);
        assert_ne!(game.ending.reason, "forfeit");
        assert!(game.moves.len() > game.opening_moves);
    }
}

#[test]
fn an_illegal_engine_move_loses_the_game_with_a_message() {
    let result = play(&PlayerSpec::Greedy, &engine("--illegal-after 0"));
    assert_eq!(result.wdl.wins, 4, "{:?}", result.wdl);
    for game in &result.games {
        let why = game.ending.forfeit.as_deref().expect("the engine forfeits");
        assert!(why.contains("illegal move `z99:0`"), "{why}");
        assert!(
            why.contains("ghast-random-gtp"),
            "the message names the engine: {why}"
        );
        assert_eq!(game.loser(), Some("gtp:ghast-random-gtp"));
    }
}

/// The error of a match whose first player is the engine `spec`, which cannot start.
fn setup_error(spec: &str) -> String {
    let missing: PlayerSpec = spec.parse().unwrap();
    let settings = MatchSettings {
        games: 2,
        threads: 1,
        opening_moves: 0,
        sprt: None,
        seed: 0,
    };
    Match::<Ghast> {
        options: GhastOptions::default(),
        a: &missing,
        b: &PlayerSpec::Random,
        settings,
    }
    .run(&mut |_| {})
    .unwrap_err()
    .to_string()
}

#[test]
fn an_engine_that_cannot_start_is_a_setup_error() {
    let error = setup_error("gtp:/nonexistent/engine");
    assert!(
        error.contains("cannot start `/nonexistent/engine`"),
        "{error}"
    );
    assert!(!error.contains("PATH"), "a path is not looked up: {error}");
}

#[test]
fn an_engine_off_the_path_is_named_with_where_to_look() {
    let error = setup_error("gtp:no-such-engine-anywhere --mode gtp");
    assert!(
        error.contains("cannot start `no-such-engine-anywhere`")
            && error.contains("not on the PATH; Debian puts game engines in /usr/games"),
        "{error}"
    );
}
