//! Plays every game of the replay vectors (random games made by an independent implementation
//! of GHODAK.md and checked move by move against GNU Go) and checks each position, the result,
//! and the moves the vectors refuse.

use ghodak::{Ghodak, GhodakOptions, RawOptions};

struct VectorGame {
    name: String,
    options: GhodakOptions,
    start: String,
    moves: Vec<(String, String)>,
    result: Option<String>,
}

/// Options from a vector header's `--size S --komi K [--max-moves M]`.
fn options_from_flags(flags: &[&str]) -> GhodakOptions {
    let mut raw = RawOptions::default();
    for pair in flags.chunks(2) {
        match pair {
            ["--game", "ghodak"] => {}
            ["--size", v] => raw.size = v.parse().unwrap(),
            ["--komi", v] => raw.komi = v.parse().unwrap(),
            ["--max-moves", v] => raw.max_moves = Some(v.parse().unwrap()),
            other => panic!("unknown vector option {other:?}"),
        }
    }
    raw.validate().unwrap()
}

fn vector_games() -> Vec<VectorGame> {
    let text = include_str!("data/replay-vectors.txt");
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
        let mut state = Ghodak::new(&game.options);
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
        }
        let result = state.result().map(|r| r.to_string());
        assert_eq!(result, game.result, "{} result", game.name);
    }
}

#[test]
fn positions_round_trip_through_games() {
    for game in vector_games() {
        for (_, position) in &game.moves {
            let state = Ghodak::from_position_str(&game.options, position).unwrap();
            assert_eq!(&state.to_string(), position, "{}", game.name);
        }
    }
}

/// Every Ghodak block of the illegal-move vectors: the prefix plays, the move is refused,
/// and the refusal is the kind the vector names.
#[test]
fn every_illegal_vector_move_is_refused_for_its_reason() {
    let text = include_str!("../../../tests/data/illegal-moves.txt");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let mut checked = 0;
    for block in lines.split(|l| *l == "end").filter(|b| b.len() >= 4) {
        let header: Vec<&str> = block[0].split_whitespace().collect();
        if header.get(2) != Some(&"--game") || header.get(3) != Some(&"ghodak") {
            continue;
        }
        let (prefix, refused) = (block[1], block[2]);
        let reason = block[3].strip_prefix("why ").unwrap();
        let mut state = Ghodak::new(&options_from_flags(&header[2..]));
        for mv in prefix.split_whitespace() {
            state
                .play(mv)
                .unwrap_or_else(|e| panic!("{}: prefix move {mv}: {e}", block[0]));
        }
        let before = state.to_string();
        let error = state.play(refused).unwrap_err();
        assert_eq!(state.to_string(), before, "a refused move changes nothing");
        let kind = match error.fault {
            ghodak::MoveFault::Malformed => "malformed",
            ghodak::MoveFault::OffBoard(..) => "off-board",
            ghodak::MoveFault::Occupied(_) => "occupied",
            ghodak::MoveFault::Suicide(_) => "suicide",
            ghodak::MoveFault::Ko(_) => "ko",
            ghodak::MoveFault::GameOver => "game-over",
        };
        assert_eq!(kind, reason, "{}: {error}", block[0]);
        assert!(error.to_string().contains(refused), "{error}");
        checked += 1;
    }
    assert_eq!(checked, 60);
}
