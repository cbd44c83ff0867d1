//! Plays every game of the public vectors (made by an independent implementation of
//! VASTUZ.md) and checks each position and the result, and that every move the vectors refuse
//! is refused with a message naming it.

use game::Game;
use vastuz::{RawOptions, Vastuz, VastuzOptions};

/// Options from a vector header's `--game vastuz --size S --pie P`.
fn options_from_flags(flags: &[&str]) -> VastuzOptions {
    let mut raw = RawOptions::default();
    for pair in flags.chunks(2) {
        match pair {
            ["--game", "vastuz"] => {}
            ["--size", v] => raw.size = v.parse().unwrap(),
            ["--pie", v] => raw.pie = v.parse().unwrap(),
            other => panic!("unknown vector option {other:?}"),
        }
    }
    raw.validate().unwrap()
}

struct VectorGame {
    name: String,
    options: VastuzOptions,
    start: String,
    moves: Vec<(String, String)>,
    result: Option<String>,
}

fn vector_games() -> Vec<VectorGame> {
    let text = include_str!("data/vastuz-replay.txt");
    let mut games: Vec<VectorGame> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["game", number, ref flags @ ..] => games.push(VectorGame {
                name: format!("game {number}"),
                options: options_from_flags(flags),
                start: String::new(),
                moves: Vec::new(),
                result: None,
            }),
            ["end"] => {}
            ["result", ..] => {
                games.last_mut().unwrap().result = Some(line["result ".len()..].to_string());
            }
            _ => {
                let game = games.last_mut().unwrap();
                if game.start.is_empty() {
                    game.start = line.to_string();
                } else {
                    let (mv, position) = line.split_once(' ').unwrap();
                    game.moves.push((mv.to_string(), position.to_string()));
                }
            }
        }
    }
    games
}

#[test]
fn all_vector_games_replay_exactly() {
    let games = vector_games();
    assert_eq!(games.len(), 40);
    for game in games {
        let mut state = Vastuz::new(&game.options);
        assert_eq!(state.to_string(), game.start, "{} start", game.name);
        for (i, (mv, expected)) in game.moves.iter().enumerate() {
            state
                .play(mv)
                .unwrap_or_else(|e| panic!("{} move {}: {e}", game.name, i + 1));
            assert_eq!(
                &state.to_string(),
                expected,
                "{} after move {} ({mv})",
                game.name,
                i + 1
            );
            let reread = Vastuz::from_position(&game.options, expected).unwrap();
            assert_eq!(
                reread.to_string(),
                *expected,
                "{} move {}",
                game.name,
                i + 1
            );
            assert_eq!(
                reread.hash(),
                state.hash(),
                "{} move {} hash",
                game.name,
                i + 1
            );
        }
        assert_eq!(state.result_text(), game.result, "{} result", game.name);
    }
}

#[test]
fn every_illegal_vector_is_refused_naming_the_move() {
    let text = include_str!("data/vastuz-illegal.txt");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let mut checked = 0;
    for block in lines.split(|line| *line == "end").filter(|b| b.len() >= 4) {
        let header: Vec<&str> = block[0].split_whitespace().collect();
        let options = options_from_flags(&header[2..]);
        let mut state = Vastuz::new(&options);
        for mv in block[1].split_whitespace() {
            state
                .play(mv)
                .unwrap_or_else(|e| panic!("{} prefix move {mv}: {e}", block[0]));
        }
        let refused = block[2].trim();
        let error = state.play(refused).expect_err(&format!(
            "{}: {refused} must be refused ({})",
            block[0], block[3]
        ));
        assert!(
            error.contains(refused),
            "{}: `{error}` names the move",
            block[0]
        );
        let reason = block[3].trim_start_matches("why ");
        let words: &[&str] = match reason {
            "occupied" => &["occupied"],
            "merge" => &["merge"],
            "off-board" => &["off the board"],
            "malformed" => &["malformed"],
            "pass" => &["pass is legal only"],
            "swap" => &["swap"],
            "game-over" => &["over"],
            "extra-steal" => &["no steal is possible"],
            "missing-steal" => &["still possible"],
            "bad-take" => &["no target", "no remaining target", "empty", "own stone"],
            "bad-put" => &["occupied", "touches another", "not next to"],
            "step-unfinished" => &["must finish first"],
            other => panic!("unknown reason {other}"),
        };
        assert!(
            words.iter().any(|word| error.contains(word)),
            "{}: `{error}` says why ({reason})",
            block[0]
        );
        checked += 1;
    }
    assert_eq!(checked, 40);
}
