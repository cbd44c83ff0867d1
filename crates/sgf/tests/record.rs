//! Go records through SGF: what is written reads back as the same game, what other programs
//! write (handicap, moves out of turn, FF[3] passes) reads as they mean it, and a bad record
//! names the node and why.

use game::{Game, GtpGame, Outcome, SgfGame, Side};
use ghodak::{Ghodak, GhodakOptions, RawOptions};
use rand::{Rng, SeedableRng};
use sgf::{RecordError, Summary, read_record, result_value, write_record};

fn options(size: i64, komi: f64) -> GhodakOptions {
    RawOptions {
        size,
        komi,
        max_moves: None,
    }
    .validate()
    .unwrap()
}

fn play(game: &mut Ghodak, moves: &[&str]) -> Vec<usize> {
    moves
        .iter()
        .map(|text| {
            let action = game.parse_action(text).unwrap();
            game.apply(action);
            action
        })
        .collect()
}

#[test]
fn a_random_game_reads_back_move_for_move_with_its_result() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for size in [5, 9, 13, 19] {
        let start = Ghodak::new(&options(size, 7.5));
        let mut game = start.clone();
        let mut actions = Vec::new();
        let mut legal = Vec::new();
        while game.outcome().is_none() && actions.len() < 400 {
            game.legal_actions(&mut legal);
            let action = legal[rng.random_range(..legal.len())];
            game.apply(action);
            actions.push(action);
        }
        let result = game
            .outcome()
            .map(|outcome| result_value(&game, outcome, game.end_reason().unwrap()));
        let summary = Summary {
            players: [
                Some("ghast [bot]".to_owned()),
                Some("GNU Go 3.8".to_owned()),
            ],
            result: result.clone(),
        };
        let text = write_record(&start, &actions, &summary);
        assert!(
            text.starts_with(&format!(
                "(;FF[4]GM[1]CA[UTF-8]AP[ghast:{}]SZ[{size}]KM[7.5]RU[Chinese]PB[ghast [bot\\]]PW[GNU Go 3.8]",
                env!("CARGO_PKG_VERSION")
            )),
            "{text}"
        );
        let record = read_record::<Ghodak>(&text).unwrap();
        assert_eq!(record.actions, actions, "size {size}");
        assert_eq!(record.summary, summary);
        assert_eq!(record.positions.len(), actions.len() + 1);
        assert_eq!(record.last().position_text(), game.position_text());
        assert_eq!(record.last().options(), start.options());
    }
}

#[test]
fn results_say_resignation_forfeit_score_and_draw() {
    let options = options(5, 0.5);
    let mut game = Ghodak::new(&options);
    let going_on = game.clone();
    assert_eq!(
        result_value(&going_on, Outcome::Win(Side::Second), "resign"),
        "W+R"
    );
    assert_eq!(
        result_value(&going_on, Outcome::Win(Side::First), "forfeit"),
        "B+F"
    );
    assert_eq!(result_value(&going_on, Outcome::Draw, "limit"), "0");
    play(&mut game, &["C3", "pass", "pass"]);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome, Outcome::Win(Side::First));
    assert_eq!(result_value(&game, outcome, "passes"), "B+24.5");
    assert_eq!(game.final_score(), "B+24.5");
}

#[test]
fn handicap_stones_are_ab_with_white_to_play() {
    let options = options(9, 0.5);
    let empty = Ghodak::new(&options);
    let point = |name: &str| empty.parse_action(name).unwrap();
    let stones = [(Side::First, point("C3")), (Side::First, point("G7"))];
    let start = Ghodak::set_up(&options, &stones, Side::Second).unwrap();
    let mut game = start.clone();
    let actions = play(&mut game, &["E5", "D4", "pass"]);
    let text = write_record(&start, &actions, &Summary::default());
    assert!(
        text.contains("HA[2]AB[gc][cg]PL[W]\n;W[ee]\n;B[df]\n;W[])"),
        "{text}"
    );
    let record = read_record::<Ghodak>(&text).unwrap();
    assert_eq!(record.actions, actions);
    assert_eq!(record.positions[0].stones(), start.stones());
    assert_eq!(Game::to_move(&record.positions[0]), Side::Second);
    assert_eq!(record.last().position_text(), game.position_text());
}

#[test]
fn other_programs_records_read_as_they_mean_them() {
    // Handicap without PL: White plays first (KataGo's rule); a rectangle of stones; FF[3]'s
    // `tt` pass; comments and an empty node; two Black moves in a row, played as KataGo
    // plays them, by handing the turn over.
    let text = "(;GM[1]FF[3]SZ[9]KM[0.5]HA[4]AB[cc:dd]C[hi]\n;W[ee];\n;B[tt]C[a pass];B[gg];W[ff])";
    let record = read_record::<Ghodak>(text).unwrap();
    let start = &record.positions[0];
    assert_eq!(start.stones().len(), 4);
    assert_eq!(Game::to_move(start), Side::Second);
    let names: Vec<String> = record
        .positions
        .iter()
        .zip(&record.actions)
        .map(|(position, &action)| position.action_to_string(action))
        .collect();
    assert_eq!(names, ["E5", "pass", "G3", "F4"]);
    assert_eq!(record.summary, Summary::default());

    // No size: 19, as SGF says; no moves and no PL: Black to play.
    let record = read_record::<Ghodak>("(;GM[1])").unwrap();
    assert_eq!(record.last().options().size(), 19);
    assert_eq!(Game::to_move(record.last()), Side::First);
}

#[test]
fn a_bad_record_names_the_node_and_why() {
    let cases: &[(&str, &str)] = &[
        ("(;GM[1]SZ[9];B[ee", "not SGF: line 1, column"),
        ("(;GM[3])", "GM[3]: this is not a record of ghodak (GM[1])"),
        (
            "(;SZ[25])",
            "the root node: SZ[25] KM[0]: size must be 5..=19",
        ),
        ("(;SZ[9]AB[ee]AW[ee])", "the root node: two stones on E5"),
        (
            "(;SZ[9]AB[aj])",
            "the root node: AB: [aj] is off the 9x9 board",
        ),
        (
            "(;SZ[9]AB[dd:cc])",
            "AB[dd:cc]: expected a point or a rectangle",
        ),
        ("(;SZ[9]PL[X])", "PL[X]: expected B or W"),
        (
            "(;SZ[9]AE[aa])",
            "AE: points emptied at the start are not read",
        ),
        ("(;SZ[9];B[ee];W[ee])", "node 2 `;W[ee]`: "),
        (
            "(;SZ[9];B[ee];W[ef]AB[aa])",
            "node 2 `;W[ef]AB[aa]`: AB: stones set up",
        ),
        (
            "(;SZ[9];B[ee]W[ff])",
            "node 1 `;B[ee]W[ff]`: a move by both colours",
        ),
        ("(;SZ[9];B[e])", "node 1 `;B[e]`: [e] is not a point"),
        (
            "(;SZ[5];B[];W[];B[aa])",
            "node 3 `;B[aa]`: a move after the game ended",
        ),
    ];
    for (text, words) in cases {
        let error = read_record::<Ghodak>(text).unwrap_err();
        assert!(error.to_string().contains(words), "{text}: {error}");
    }
    let occupied = read_record::<Ghodak>("(;SZ[9];B[ee];W[ee])").unwrap_err();
    let RecordError::Node { number, reason, .. } = occupied else {
        panic!("{occupied:?}")
    };
    assert_eq!(number, 2);
    assert!(reason.contains("occupied"), "{reason}");
}
