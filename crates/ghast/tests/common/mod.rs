//! The replay vectors of `tests/data/replay-vectors.txt`, parsed.

use ghast::{GhastOptions, RawOptions, parse_vetoes};

/// One game of the vector file: its options, start position, moves with the position after
/// each, and the result line if it ended.
pub struct VectorGame {
    pub name: String,
    pub options: GhastOptions,
    pub start: String,
    pub moves: Vec<(String, String)>,
    pub result: Option<String>,
}

pub fn vector_games() -> Vec<VectorGame> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/replay-vectors.txt");
    let text = std::fs::read_to_string(path).expect("read the replay vectors");
    let mut games: Vec<VectorGame> = Vec::new();
    let skip = |line: &str| line.starts_with('#') || line.trim().is_empty() || line == "end";
    for line in text.lines().filter(|l| !skip(l)) {
        if let Some(header) = line.strip_prefix("game ") {
            let mut words = header.split_whitespace();
            let name = format!("game {}", words.next().unwrap());
            let args: Vec<String> = words.map(String::from).collect();
            let options = cli_options(&args);
            games.push(VectorGame {
                name,
                options,
                start: String::new(),
                moves: vec![],
                result: None,
            });
            continue;
        }
        let game = games.last_mut().expect("a game header first");
        if game.start.is_empty() {
            game.start = line.to_string();
        } else if let Some(result) = line.strip_prefix("result ") {
            game.result = Some(result.to_string());
        } else {
            let (mv, position) = line.split_once(' ').unwrap();
            game.moves.push((mv.to_string(), position.to_string()));
        }
    }
    assert_eq!(games.len(), 60);
    games
}

fn cli_options(args: &[String]) -> GhastOptions {
    let mut raw = RawOptions::default();
    for pair in args.chunks(2) {
        let value = &pair[1];
        match pair[0].as_str() {
            "--size" => raw.size = value.parse().unwrap(),
            "--win-margin" => raw.win_margin = value.parse().unwrap(),
            "--komi" => raw.komi = value.parse().unwrap(),
            "--vetoes" => raw.vetoes = parse_vetoes(value).unwrap(),
            "--max-turns" => raw.max_turns = Some(value.parse().unwrap()),
            flag => panic!("unknown flag {flag}"),
        }
    }
    raw.validate().unwrap()
}
