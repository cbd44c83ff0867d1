//! Plays every game of the public vectors (made by an independent implementation of QAST.md)
//! and checks each position and the result, and that every token the vectors refuse is
//! refused with a message naming it.

use game::Game;
use qast::{Qast, QastOptions, RawOptions};

/// Options from a vector header's `--game qast --side S --black-gold B --max-rounds M`.
fn options_from_flags(flags: &[&str]) -> QastOptions {
    let mut raw = RawOptions::default();
    for pair in flags.chunks(2) {
        match pair {
            ["--game", "qast"] => {}
            ["--side", v] => raw.side = v.parse().unwrap(),
            ["--black-gold", v] => raw.black_gold = v.parse().unwrap(),
            ["--max-rounds", v] => raw.max_rounds = v.parse().unwrap(),
            other => panic!("unknown vector option {other:?}"),
        }
    }
    raw.validate().unwrap()
}

fn play(game: &mut Qast, token: &str) -> Result<(), String> {
    let action = game.parse_action(token)?;
    game.apply(action);
    Ok(())
}

#[test]
fn all_vector_games_replay_exactly() {
    let text = include_str!("data/qast-replay.txt");
    let mut games = 0;
    let mut game: Option<(String, QastOptions, Qast)> = None;
    let mut started = false;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["game", number, ref flags @ ..] => {
                let options = options_from_flags(flags);
                game = Some((
                    format!("game {number}"),
                    options.clone(),
                    Qast::new(&options),
                ));
                games += 1;
                started = false;
            }
            ["end"] => game = None,
            ["result", ..] => {
                let (name, _, state) = game.as_ref().unwrap();
                assert_eq!(
                    state.result_text().as_deref(),
                    Some(&line["result ".len()..]),
                    "{name}"
                );
            }
            _ => {
                let (name, options, state) = game.as_mut().unwrap();
                if !started {
                    assert_eq!(state.to_string(), line, "{name} start");
                    started = true;
                    continue;
                }
                let (token, expected) = line.split_once(' ').unwrap();
                play(state, token).unwrap_or_else(|e| panic!("{name} token {token}: {e}"));
                assert_eq!(state.to_string(), expected, "{name} after {token}");
                let reread = Qast::from_position(options, expected)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(reread.to_string(), expected, "{name} reread");
                assert_eq!(reread.hash(), state.hash(), "{name} hash after {token}");
                assert_eq!(
                    reread.outcome(),
                    state.outcome(),
                    "{name} outcome after {token}"
                );
            }
        }
    }
    assert_eq!(games, 40);
}

#[test]
fn every_illegal_vector_is_refused_naming_the_token() {
    let text = include_str!("data/qast-illegal.txt");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let mut checked = 0;
    for block in lines.split(|line| *line == "end").filter(|b| b.len() >= 4) {
        let header: Vec<&str> = block[0].split_whitespace().collect();
        let options = options_from_flags(&header[2..]);
        let mut state = Qast::new(&options);
        for token in block[1].split_whitespace() {
            play(&mut state, token).unwrap_or_else(|e| panic!("{} prefix {token}: {e}", block[0]));
        }
        let refused = block[2].trim();
        let error = state.parse_action(refused).expect_err(&format!(
            "{}: {refused} must be refused ({})",
            block[0], block[3]
        ));
        assert!(
            error.contains(&format!("\"{refused}\"")),
            "{}: `{error}` names it",
            block[0]
        );
        let reason = block[3].trim_start_matches("why ");
        let words: &[&str] = match reason {
            "malformed" => &["malformed"],
            "off-track" => &["off the track"],
            "game-over" => &["game is over"],
            "not-a-roll" => &["roll is due"],
            "roll-not-due" => &["no roll is due"],
            "wrong-kind" => &["takes no such token"],
            "bad-place" => &["empty painted space", "no disc in the mover's circles"],
            "bad-assign" => &["no disc of the mover's"],
            "bad-move" => &[
                "moves only",
                "passes or lands",
                "is worth",
                "beyond",
                "no disc to move",
            ],
            "bad-pass" => &["pass is allowed only"],
            "bad-gold" => &["gold circles are full", "set-up choice only"],
            "bad-kick" => &["no disc on gold", "circles are full"],
            other => panic!("unknown reason {other}"),
        };
        assert!(
            words.iter().any(|word| error.contains(word)),
            "{}: `{error}` says why ({reason})",
            block[0]
        );
        checked += 1;
    }
    assert_eq!(checked, 60);
}
