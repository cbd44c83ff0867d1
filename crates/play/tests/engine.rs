//! The GTP engine driven in-process: whole games, vetoes, errors, undo, positions, analysis.

mod common;

use game::{Game, GtpGame, Planes, Side};
use ghast::Ghast;
use mcts::ResignRule;
use play::gtp::{Command, GtpEngine};
use play::{Bot, Bundle};
use std::io::Cursor;
use tch::Device;

fn send<G: GtpGame + Planes>(engine: &mut GtpEngine<G>, line: &str) -> Result<String, String> {
    engine.execute(&Command::parse(line).expect("a command line"))
}

fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "b",
        Side::Second => "white",
    }
}

fn engine(vetoes: [i64; 2]) -> (tempfile::TempDir, GtpEngine<Ghast>) {
    let temp = tempfile::tempdir().unwrap();
    let engine = common::engine(temp.path(), &common::small_options(vetoes));
    (temp, engine)
}

/// Plays a game where the bot's moves alternate with the first legal move, whichever side is
/// to move (veto answers included), and returns the number of moves.
fn play_out<G: GtpGame + Planes>(engine: &mut GtpEngine<G>) -> usize {
    let mut legal = Vec::new();
    for moves in 0.. {
        let game = engine.game();
        if game.outcome().is_some() {
            return moves;
        }
        let side = colour(game.to_move());
        if moves % 2 == 0 {
            let answer = send(engine, &format!("genmove {side}")).unwrap();
            assert!(!answer.is_empty());
        } else {
            game.legal_actions(&mut legal);
            let text = game.action_to_string(legal[0]);
            assert_eq!(
                send(engine, &format!("play {side} {text}")),
                Ok(String::new())
            );
        }
    }
    unreachable!()
}

#[test]
fn genmove_and_play_alternate_until_the_game_ends() {
    let (_temp, mut engine) = engine([0, 0]);
    let moves = play_out(&mut engine);
    assert!((2..=30).contains(&moves), "{moves} moves");
    let score = send(&mut engine, "final_score").unwrap();
    assert!(
        score == "0" || score.starts_with("O+") || score.starts_with("B+"),
        "{score}"
    );
    assert_eq!(
        send(&mut engine, "genmove b"),
        Err("the game is over".into())
    );
    assert_eq!(
        send(&mut engine, "play w pass"),
        Err("the game is over".into())
    );
}

#[test]
fn the_side_to_move_follows_veto_answers() {
    let (_temp, mut engine) = engine([0, 1]);
    assert_eq!(send(&mut engine, "play orange c1:0"), Ok(String::new()));
    assert_eq!(
        send(&mut engine, "play orange d1:0"),
        Err("it is blue's turn to accept or veto, not orange's".into())
    );
    let answer = send(&mut engine, "genmove blue").unwrap();
    assert!(answer == "accept" || answer == "veto", "{answer}");
    assert!(
        send(&mut engine, "showboard")
            .unwrap()
            .contains("vetoes left 0,")
    );
    play_out(&mut engine);
}

#[test]
fn bad_commands_say_why() {
    let (_temp, mut engine) = engine([0, 0]);
    let illegal = send(&mut engine, "play b z9:1").unwrap_err();
    assert!(
        illegal.starts_with("illegal move: move \"z9:1\""),
        "{illegal}"
    );
    assert_eq!(
        send(&mut engine, "play w c1:0"),
        Err("it is orange's turn to move, not blue's".into())
    );
    send(&mut engine, "play b c1:0").unwrap();
    let occupied = send(&mut engine, "play w c1:3").unwrap_err();
    assert!(occupied.ends_with("c1 is occupied"), "{occupied}");
    let closed = send(&mut engine, "play w c3:3").unwrap_err();
    assert!(closed.contains("not open yet"), "{closed}");
    assert!(
        send(&mut engine, "play purple c2:0")
            .unwrap_err()
            .starts_with("invalid color")
    );
    assert_eq!(
        send(&mut engine, "play b"),
        Err("syntax error: wrong arguments for play".into())
    );
    assert_eq!(
        send(&mut engine, "frobnicate"),
        Err("unknown command".into())
    );
    assert_eq!(
        send(&mut engine, "boardsize 9"),
        Err("unacceptable size".into())
    );
    assert_eq!(
        send(&mut engine, "boardsize x"),
        Err("boardsize not an integer".into())
    );
    let komi = send(&mut engine, "komi 0.3").unwrap_err();
    assert_eq!(komi, "komi must be a finite multiple of 0.5, got 0.3");
    let position = send(&mut engine, "ghast-set_position 3/4/5/4/3 x 1").unwrap_err();
    assert!(
        position.contains("to-move must be `o` or `b`"),
        "{position}"
    );
    assert!(
        send(&mut engine, "ghast-set_visits 0")
            .unwrap_err()
            .contains("from 1")
    );
    assert_eq!(
        send(&mut engine, "ghast-chance 3"),
        Err("no chance event is due: a side decides now".into())
    );
}

#[test]
fn undo_replays_to_the_previous_position() {
    let (_temp, mut engine) = engine([0, 0]);
    let start = send(&mut engine, "ghast-position").unwrap();
    assert_eq!(start, "3/4/5/4/3 o 1");
    send(&mut engine, "play b c1:0").unwrap();
    let after_one = send(&mut engine, "ghast-position").unwrap();
    send(&mut engine, "genmove w").unwrap();
    send(&mut engine, "undo").unwrap();
    assert_eq!(send(&mut engine, "ghast-position"), Ok(after_one));
    send(&mut engine, "undo").unwrap();
    assert_eq!(send(&mut engine, "ghast-position"), Ok(start));
    assert_eq!(send(&mut engine, "undo"), Err("cannot undo".into()));
}

#[test]
fn board_size_komi_and_positions_change_the_game() {
    let (_temp, mut engine) = engine([0, 0]);
    send(&mut engine, "play b c1:0").unwrap();
    send(&mut engine, "komi 0.5").unwrap();
    assert_eq!(
        send(&mut engine, "ghast-position"),
        Ok("a2/4/5/4/3 b 2".into())
    );
    assert_eq!(send(&mut engine, "final_score"), Ok("O+0.5".into()));

    send(&mut engine, "boardsize 4").unwrap();
    assert_eq!(
        send(&mut engine, "ghast-position"),
        Ok("4/5/6/7/6/5/4 o 1".into())
    );
    assert_eq!(
        send(&mut engine, "final_score"),
        Ok("B+0.5".into()),
        "komi kept"
    );
    send(&mut engine, "genmove b").unwrap();

    send(&mut engine, "ghast-set_position 2/1a1/B1 b 3").unwrap();
    assert_eq!(
        send(&mut engine, "ghast-position"),
        Ok("2/1a1/B1 b 3".into())
    );
    send(&mut engine, "genmove w").unwrap();
    send(&mut engine, "clear_board").unwrap();
    assert_eq!(send(&mut engine, "ghast-position"), Ok("2/3/2 o 1".into()));
}

#[test]
fn analysis_lists_moves_with_visits_priors_and_values() {
    let (_temp, mut engine) = engine([0, 0]);
    let analysis = send(&mut engine, "ghast-analyze 24").unwrap();
    let mut lines = analysis.lines();
    let head: Vec<&str> = lines.next().unwrap().split(' ').collect();
    assert_eq!(head[..2], ["to_move", "orange"]);
    assert_eq!(head[7], "24", "{analysis}");
    let winrate: f32 = head[5].parse().unwrap();
    assert!((0.0..=1.0).contains(&winrate));
    let moves: Vec<Vec<&str>> = lines.map(|line| line.split(' ').collect()).collect();
    assert_eq!(moves.len(), 10, "{analysis}");
    let visits: Vec<u32> = moves.iter().map(|m| m[2].parse().unwrap()).collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{analysis}");
    assert!(visits.iter().sum::<u32>() <= 24);
    assert!(moves.iter().all(|m| m[1] == "visits" && m[3] == "prior"));
    send(&mut engine, "ghast-set_visits 3").unwrap();
    send(&mut engine, "clear_board").unwrap();
    let fresh = send(&mut engine, "ghast-analyze").unwrap();
    assert!(
        fresh.lines().next().unwrap().ends_with(" visits 3"),
        "{fresh}"
    );
}

#[test]
fn run_frames_responses_and_stops_at_quit() {
    let (_temp, mut engine) = engine([0, 0]);
    let script = "1 name\nprotocol_version\n  # a comment\n\n7 frobnicate\n\
        known_command genmove\nknown_command frobnicate\n9 quit\nname\n";
    let mut out = Vec::new();
    engine.run(Cursor::new(script), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "=1 ghast\n\n= 2\n\n?7 unknown command\n\n= true\n\n= false\n\n=9 \n\n"
    );
}

/// A Ghodak bot speaks GTP as Go programs do: `boardsize`, `komi`, `black`/`white`, `D4`,
/// `showboard` with X and O, and `final_score` as `B+`/`W+`, through a whole game.
#[test]
fn ghodak_plays_a_whole_game_in_go_terms() {
    let temp = tempfile::tempdir().unwrap();
    let options = ghodak::GhodakOptions::default();
    let weights = temp.path().join("gen-0000.safetensors");
    play::save_untrained::<ghodak::Ghodak>(
        &weights,
        &options,
        play::tiny_config::<ghodak::Ghodak>(&options),
    )
    .unwrap();
    let bundle =
        play::Bundle::<ghodak::Ghodak>::export(&weights, &temp.path().join("bot"), 8).unwrap();
    let bot = play::Bot::new(bundle, tch::Device::Cpu, 7).unwrap();
    let mut engine = GtpEngine::new(bot, options);

    assert_eq!(send(&mut engine, "boardsize 5"), Ok(String::new()));
    assert_eq!(send(&mut engine, "komi 0.5"), Ok(String::new()));
    assert_eq!(send(&mut engine, "play black C3"), Ok(String::new()));
    assert_eq!(
        send(&mut engine, "play black D4"),
        Err("it is white's turn to move, not black's".into())
    );
    let error = send(&mut engine, "play white c3").unwrap_err();
    assert!(error.contains("C3 is occupied"), "{error}");
    let reply = send(&mut engine, "genmove white").unwrap();
    assert!(reply == "pass" || reply.len() == 2, "a Go point: {reply}");
    let board = send(&mut engine, "showboard").unwrap();
    assert!(board.contains("    A B C D E\n 5 "), "{board}");
    let row_3: Vec<&str> = board
        .lines()
        .find(|line| line.starts_with(" 3 "))
        .unwrap_or_else(|| panic!("no row 3 in {board}"))
        .split_whitespace()
        .collect();
    assert_eq!(
        row_3[3], "X",
        "black's C3 (white's reply may be anywhere): {board}"
    );
    assert_eq!(send(&mut engine, "undo"), Ok(String::new()));
    assert_eq!(send(&mut engine, "final_score"), Ok("B+24.5".into()));

    let moves = play_out(&mut engine);
    assert!(moves > 0 && engine.game().outcome().is_some());
    let score = send(&mut engine, "final_score").unwrap();
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
    let error = send(&mut engine, "genmove black").unwrap_err();
    assert!(error.contains("the game is over"), "{error}");
}

#[test]
fn a_bot_that_finds_its_game_lost_for_long_enough_answers_resign() {
    let temp = tempfile::tempdir().unwrap();
    let options = common::small_options([0, 0]);
    let mut bundle = Bundle::<Ghast>::load(&common::bundle(temp.path(), &options, 8)).unwrap();
    // Every root value lies below 1.5: each of the bot's decisions counts as hopeless.
    bundle.settings.resign = ResignRule {
        threshold: 1.5,
        consecutive_moves: 2,
    };
    let mut engine = GtpEngine::new(Bot::new(bundle, Device::Cpu, 7).unwrap(), options);
    let first = send(&mut engine, "genmove b").unwrap();
    assert_ne!(first, "resign", "one hopeless decision is not yet a streak");
    let mut legal = Vec::new();
    engine.game().legal_actions(&mut legal);
    let reply = engine.game().action_to_string(legal[0]);
    send(&mut engine, &format!("play w {reply}")).unwrap();
    assert_eq!(send(&mut engine, "genmove b").as_deref(), Ok("resign"));
    assert_eq!(
        send(&mut engine, "genmove b"),
        Err("the game is over".to_owned())
    );
    // The bot played Orange (`b` names the first side): Blue won.
    assert_eq!(send(&mut engine, "final_score").as_deref(), Ok("B+R"));
}
