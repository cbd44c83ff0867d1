//! The replay vectors of `tests/data/`, parsed.

use ghast::{
    FakerghastOptions, GhastOptions, RawFakerghastOptions, RawOptions, parse_fakes, parse_vetoes,
};

/// One game of a vector file: its options as `ghast replay` flags, start position, moves with
/// the position after each, and the result line if it ended.
pub struct VectorGame {
    pub name: String,
    pub args: Vec<String>,
    pub start: String,
    pub moves: Vec<(String, String)>,
    pub result: Option<String>,
}

/// The games of `tests/data/<file>`; there must be `count` of them.
pub fn vector_games(file: &str, count: usize) -> Vec<VectorGame> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("read the replay vectors");
    let mut games: Vec<VectorGame> = Vec::new();
    let skip = |line: &str| line.starts_with('#') || line.trim().is_empty() || line == "end";
    for line in text.lines().filter(|l| !skip(l)) {
        if let Some(header) = line.strip_prefix("game ") {
            let mut words = header.split_whitespace();
            let name = format!("game {}", words.next().unwrap());
            games.push(VectorGame {
                name,
                args: words.map(String::from).collect(),
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
    assert_eq!(games.len(), count, "games in {file}");
    games
}

/// The value of each `--flag value` pair, by flag.
fn flags(args: &[String]) -> impl Iterator<Item = (&str, &str)> {
    args.chunks(2)
        .map(|pair| (pair[0].as_str(), pair[1].as_str()))
}

pub fn ghast_options(args: &[String]) -> GhastOptions {
    let mut raw = RawOptions::default();
    for (flag, value) in flags(args) {
        match flag {
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

pub fn fakerghast_options(args: &[String]) -> FakerghastOptions {
    let mut raw = RawFakerghastOptions::default();
    for (flag, value) in flags(args) {
        match flag {
            "--size" => raw.size = value.parse().unwrap(),
            "--win-margin" => raw.win_margin = value.parse().unwrap(),
            "--komi" => raw.komi = value.parse().unwrap(),
            "--max-turns" => raw.max_turns = Some(value.parse().unwrap()),
            "--fakerghast" => raw.fakerghast = Some(value.parse().unwrap()),
            "--fakes" => raw.fakes = parse_fakes(value).unwrap(),
            flag => panic!("unknown flag {flag}"),
        }
    }
    raw.validate().unwrap()
}
