//! `ghast export` and `ghast gtp` driven over pipes, as a GUI or tournament manager would.

mod common;

use ghast::{Fakerghast, FakerghastOptions, GhastOptions, RawFakerghastOptions, RawOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn ghast() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ghast"))
}

/// An untrained tiny network on a size-3 board with short games, exported with 8 visits.
fn bundle(dir: &Path) -> PathBuf {
    let options: GhastOptions = RawOptions {
        size: 3,
        win_margin: 3,
        max_turns: Some(30),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    common::untrained_bundle::<ghast::Ghast>(dir, &options)
}

/// A running `ghast gtp` and the pipes to it.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(bot: &Path) -> Gtp {
        let mut child = ghast()
            .args(["gtp", "--cpu", "--bot"])
            .arg(bot)
            .env("GHAST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            input,
            output,
        }
    }

    /// Sends one line and returns the whole response, status and id included, without the
    /// blank line that ends it.
    fn send(&mut self, line: &str) -> String {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        let mut response = String::new();
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "engine hung up"
            );
            if line == "\n" {
                return response.trim_end_matches('\n').to_owned();
            }
            response.push_str(&line);
        }
    }

    /// The text of a successful response to `line`.
    fn ok(&mut self, line: &str) -> String {
        let response = self.send(line);
        response
            .strip_prefix("= ")
            .unwrap_or_else(|| panic!("`{line}` failed: {response}"))
            .to_owned()
    }
}

#[test]
fn a_whole_game_over_pipes() {
    let temp = tempfile::tempdir().unwrap();
    let mut gtp = Gtp::start(&bundle(temp.path()));
    assert_eq!(gtp.send("1 protocol_version"), "=1 2");
    assert_eq!(gtp.send("2 name"), "=2 ghast");
    assert_eq!(gtp.send("known_command genmove"), "= true");
    assert_eq!(gtp.send("known_command fly"), "= false");
    let commands = gtp.ok("list_commands");
    for command in [
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "ghast-analyze",
    ] {
        assert!(commands.lines().any(|line| line == command), "{commands}");
    }
    assert_eq!(gtp.send("3 fly"), "?3 unknown command");
    gtp.ok("boardsize 3");
    gtp.ok("clear_board");

    let illegal = gtp.send("4 play b c3:0");
    assert!(
        illegal.starts_with("?4 illegal move: move \"c3:0\": c3 is not open yet"),
        "{illegal}"
    );
    assert_eq!(
        gtp.send("play w c1:0"),
        "? it is orange's turn to move, not blue's"
    );
    gtp.ok("play b c1:0");
    gtp.ok("undo");
    assert_eq!(gtp.ok("ghast-position"), "3/4/5/4/3 o 1");

    // The engine plays Orange, we answer for Blue with the first hex that takes a tile.
    let mut moves = 0;
    while !gtp.ok("showboard").contains("result ") {
        let colour = if moves % 2 == 0 { "b" } else { "w" };
        if colour == "b" {
            let generated = gtp.ok(&format!("genmove {colour}"));
            assert!(
                generated == "pass" || generated.contains(':'),
                "{generated}"
            );
        } else {
            let answered = ["c1:0", "d1:0", "e1:0", "b2:0", "f2:0", "pass"]
                .iter()
                .any(|text| gtp.send(&format!("play {colour} {text}")) == "= ");
            assert!(answered, "pass is always legal while the game goes on");
        }
        moves += 1;
        assert!(moves <= 40, "the game must end within max_turns");
    }
    let score = gtp.ok("final_score");
    assert!(
        score == "0" || score.starts_with("O+") || score.starts_with("B+"),
        "{score}"
    );
    let board = gtp.ok("showboard");
    assert!(board.starts_with("\n       c   d   e"), "{board}");
    assert!(board.contains("position "), "{board}");

    assert_eq!(gtp.send("9 quit"), "=9 ");
    assert!(gtp.child.wait().unwrap().success());
}

#[test]
fn a_damaged_bundle_is_refused_with_status_2() {
    let temp = tempfile::tempdir().unwrap();
    let bot = bundle(temp.path());
    std::fs::write(bot.join("bot.toml"), "visits = [").unwrap();
    let output = ghast().args(["gtp", "--bot"]).arg(&bot).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bot.toml: malformed bot settings"),
        "{stderr}"
    );
}

fn fakerghast_options() -> FakerghastOptions {
    RawFakerghastOptions {
        size: 3,
        win_margin: 3,
        max_turns: Some(24),
        fakerghast: Some(1),
        ..RawFakerghastOptions::default()
    }
    .validate()
    .unwrap()
}

/// Fakerghast over GTP: the engine answers `genmove` with its pair in full, takes the
/// opponent's pairs in public form and learns each real tile from the reveal (`/hex`), so its
/// score keeps to the referee's while the game goes on; a reveal that names no pair due is
/// refused.
#[test]
fn fakerghast_engines_are_told_the_public_form_and_learn_reveals() {
    use game::{Game, GtpGame, Side};
    let temp = tempfile::tempdir().unwrap();
    let options = fakerghast_options();
    let mut gtp = Gtp::start(&common::untrained_bundle::<Fakerghast>(
        temp.path(),
        &options,
    ));
    gtp.ok("boardsize 3");
    gtp.ok("clear_board");
    let mut referee = Fakerghast::new(&options);
    let (mut legal, mut reveals) = (Vec::new(), 0);
    while referee.outcome().is_none() {
        if referee.to_move() == Side::First {
            let generated = gtp.ok("genmove orange");
            assert!(
                generated == "pass" || generated.contains('+'),
                "a full pair: {generated}"
            );
            referee.play_told(&generated).unwrap();
        } else {
            let before = referee.clone();
            let mut actions = Vec::new();
            loop {
                referee.legal_actions(&mut legal);
                actions.push(legal[0]);
                referee.apply(legal[0]);
                if !referee.mid_move() {
                    break;
                }
            }
            let public = Fakerghast::told_move(&before, &actions, &referee, Side::First);
            assert!(!public.contains('+'), "{public}");
            if let Some((tiles, _)) = public.split_once('/') {
                reveals += 1;
                let board = game::BoardView::board(&before, Side::First);
                let empty = board
                    .cells
                    .iter()
                    .find(|c| c.tile.is_none() && c.face_down.is_none());
                let wrong = &empty.unwrap().name;
                let refused = gtp.send(&format!("play blue {tiles}/{wrong}"));
                assert!(
                    refused.starts_with("? illegal move:") && refused.contains("no pair of blue"),
                    "{refused}"
                );
            }
            gtp.ok(&format!("play blue {public}"));
        }
        // The reveal before scoring at the end is no move's: the engine cannot know it.
        if referee.outcome().is_none() {
            assert_eq!(gtp.ok("final_score"), referee.final_score(), "{referee}");
        }
    }
    assert!(reveals > 0, "blue's pairs were revealed to the engine");
}

/// Two engines play Fakerghast under the arena as referee: whole games, records that
/// `ghast replay` reads back, and neither engine ever told which tile of the other's pair is
/// real (every `play` of the opponent's move is in public form).
#[test]
fn two_engines_play_fakerghast_through_the_arena() {
    let temp = tempfile::tempdir().unwrap();
    let bot = common::untrained_bundle::<Fakerghast>(temp.path(), &fakerghast_options());
    let engine = |name: &str| {
        let log = temp.path().join(format!("{name}.log"));
        let script = temp.path().join(format!("{name}.sh"));
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\ntee -a '{}' | exec '{}' gtp --cpu --bot '{}'\n",
                log.display(),
                env!("CARGO_BIN_EXE_ghast"),
                bot.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        (format!("gtp:{}", script.display()), log)
    };
    let ((first, first_log), (second, second_log)) = (engine("first"), engine("second"));
    let out = temp.path().join("records");
    let output = ghast()
        .args(["arena", &first, &second, "--games", "2", "--threads", "1"])
        .args(["--fakerghast", "1", "--size", "3", "--win-margin", "3"])
        .args(["--max-turns", "24", "--out"])
        .arg(&out)
        .env("GHAST_LOG", "warn")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("2 games"), "{stdout}");
    let summary = std::fs::read_to_string(out.join("match.json")).unwrap();
    assert!(!summary.contains("forfeit\": \""), "{summary}");
    for log in [first_log, second_log] {
        let commands = std::fs::read_to_string(log).unwrap();
        // Per game (from `clear_board` on): the engine's colour is the one it generates for;
        // the other colour's moves reach it in public form, its own (openings) in full.
        let mut told_opponent_moves = 0;
        for game in commands.split("clear_board").skip(1) {
            let own = game
                .lines()
                .find_map(|l| l.strip_prefix("genmove "))
                .expect("the engine moved");
            for play in game.lines().filter_map(|l| l.strip_prefix("play ")) {
                let (colour, text) = play.split_once(' ').unwrap();
                if colour != own {
                    told_opponent_moves += 1;
                    assert!(!text.contains('+'), "told a real tile: {play}");
                }
            }
        }
        assert!(told_opponent_moves > 0, "{commands}");
    }
    for index in 0..2 {
        let moves = std::fs::read_to_string(out.join(format!("game-{index:04}.moves"))).unwrap();
        let mut referee = Fakerghast::new(&fakerghast_options());
        for text in moves.split_whitespace() {
            referee.play(text).unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(referee.result().is_some(), "{moves}");
    }
}

/// Vastuz over GTP: a steal's whole turn is one `play` (section 4.4's example), refused
/// steals say why, and the engine answers `genmove` with whole turns that the rules replay.
#[test]
fn vastuz_turns_travel_whole_over_gtp() {
    let temp = tempfile::tempdir().unwrap();
    let options = vastuz::RawOptions { size: 4, pie: 1 }.validate().unwrap();
    let mut gtp = Gtp::start(&common::untrained_bundle::<vastuz::Vastuz>(
        temp.path(),
        &options,
    ));
    let example = "2x1/2o2/3o2/3x3/1o4/o4/4 b 9";
    gtp.ok(&format!("ghast-set_position {example}"));
    let refused = gtp.send("play black c4+e3-e3+a6-c5");
    assert!(
        refused.starts_with("? ") && refused.contains("still possible"),
        "{refused}"
    );
    gtp.ok("play black c4+e3-e3+a6-c5+e2-g1");
    assert_eq!(gtp.ok("ghast-position"), "2xx/5/3x2/2xx3/1ox3/5/4 w 10");
    let mut referee =
        vastuz::Vastuz::from_position(&options, "2xx/5/3x2/2xx3/1ox3/5/4 w 10").unwrap();
    for colour in ["white", "black"].iter().cycle().take(60) {
        let reply = gtp.ok(&format!("genmove {colour}"));
        referee
            .play(&reply)
            .unwrap_or_else(|e| panic!("the engine's {reply}: {e}"));
        assert_eq!(gtp.ok("ghast-position"), referee.position_text());
        if referee.decision() == vastuz::Decision::Over {
            break;
        }
    }
    assert_eq!(referee.decision(), vastuz::Decision::Over, "the game ends");
    let score = gtp.ok("final_score");
    let [black, white] = referee.half_scores();
    assert!(
        score == "0" && black == white
            || score.starts_with('B') && black > white
            || score.starts_with('W') && white > black,
        "{score}: {black}/2 against {white}/2"
    );
    assert!(gtp.ok("showboard").contains("result "));
}

/// Qast over GTP: the test referees, sending each round's roll as `play black r213.31`; the
/// engine decides every token of both sides with `genmove`, and the rules replay each one.
#[test]
fn qast_rolls_come_from_the_referee_and_every_token_replays() {
    use game::Game;
    let temp = tempfile::tempdir().unwrap();
    let options = qast::RawOptions {
        max_rounds: 3,
        ..Default::default()
    }
    .validate()
    .unwrap();
    let mut gtp = Gtp::start(&common::untrained_bundle::<qast::Qast>(
        temp.path(),
        &options,
    ));
    let mut referee = qast::Qast::new(&options);
    let rolls = ["r213.31", "r333.12", "r121.23"];
    let mut rolled = 0;
    while referee.outcome().is_none() {
        let token = if referee.is_chance() {
            let refused = gtp.send("genmove black");
            assert!(refused.starts_with("? "), "no genmove at a roll: {refused}");
            let roll = rolls[rolled % rolls.len()];
            rolled += 1;
            gtp.ok(&format!("play black {roll}"));
            roll.to_owned()
        } else {
            let colour = ["black", "white"][referee.to_move().index()];
            gtp.ok(&format!("genmove {colour}"))
        };
        referee
            .play_told(&token)
            .unwrap_or_else(|e| panic!("{token}: {e}"));
        assert_eq!(
            gtp.ok("ghast-position"),
            referee.position_text(),
            "after {token}"
        );
    }
    assert_eq!(rolled, 3, "a roll a round");
    let refused = gtp.send("play black r214.31");
    assert!(refused.starts_with("? "), "{refused}");
    let score = gtp.ok("final_score");
    let lead = referee.score(game::Side::First) - referee.score(game::Side::Second);
    assert!(
        score.starts_with('B') && lead > 0.0
            || score.starts_with('W') && lead < 0.0
            || score == "0",
        "{score}: the count's lead {lead}"
    );
    assert!(gtp.ok("showboard").contains("result "));
}

/// Ghost Chess over GTP with whole-turn tokens (UCI-like): the test plays White's first turns
/// itself (an Assault among them), the engine answers each with a whole Black turn, follow-ups
/// of White's included, then plays both sides with `genmove`; the rules replay every token and
/// the engine's position agrees after each.
#[test]
fn ghostchess_turns_are_whole_tokens_both_ways() {
    use game::Game;
    let temp = tempfile::tempdir().unwrap();
    let options = ghostchess::RawOptions { max_moves: 16 }.validate().unwrap();
    let mut gtp = Gtp::start(&common::untrained_bundle::<ghostchess::GhostChess>(
        temp.path(),
        &options,
    ));
    let mut referee = ghostchess::GhostChess::new(&options);
    let refused = gtp.send("play white c1e3");
    assert!(
        refused.starts_with("? ") && refused.contains("c1e3"),
        "d2 blocks the bishop: {refused}"
    );
    let mut ours = ["C1E3^", "d2d4"].into_iter();
    while referee.outcome().is_none() {
        let colour = ["white", "black"][referee.to_move().index()];
        let token = match ours.next().filter(|_| colour == "white") {
            Some(token) => {
                gtp.ok(&format!("play white {token}"));
                token.to_ascii_lowercase()
            }
            None => gtp.ok(&format!("genmove {colour}")),
        };
        referee
            .play_told(&token)
            .unwrap_or_else(|e| panic!("{token}: {e}"));
        assert!(!referee.mid_move(), "{token} is a whole turn");
        assert_eq!(
            gtp.ok("ghast-position"),
            referee.position_text(),
            "after {token}"
        );
    }
    assert!(gtp.ok("showboard").contains("result "));
    let score = gtp.ok("final_score");
    let white_won = referee.outcome() == Some(game::Outcome::Win(game::Side::First));
    assert_eq!(score.starts_with('W'), white_won, "{score}");
}
