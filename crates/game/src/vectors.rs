//! The replay and illegal-move vectors of the project's rule pages (`*-replay.txt` and
//! `*-illegal.txt`, made by independent implementations), read and checked here once for
//! every game that uses their common form, so each game's test is its data and its words.
//!
//! A replay file holds games: `game N <replay flags>`, the start position, one line per move
//! with the position after it, an optional `result ...` line, then `end`. An illegal file
//! holds blocks: `illegal N <replay flags>`, the legal prefix (moves on one line, maybe
//! empty), the refused move, `why <reason>`, then `end`. Lines starting with `#` are comments.

use crate::Game;
use crate::rules::{Rule, with_rules};

/// One game of a replay file.
#[derive(Clone, Debug)]
pub struct ReplayVector {
    /// `game N`, for messages.
    pub name: String,
    /// The `ghast replay` flags of its header, such as `--side 19`.
    pub flags: Vec<String>,
    pub start: String,
    /// Each move with the position after it.
    pub steps: Vec<(String, String)>,
    /// The result line without `result `, if the game ended.
    pub result: Option<String>,
}

/// One block of an illegal-move file.
#[derive(Clone, Debug)]
pub struct IllegalVector {
    /// Its header line, for messages.
    pub name: String,
    pub flags: Vec<String>,
    pub prefix: Vec<String>,
    pub refused: String,
    /// The file's reason word (`malformed`, `occupied`, ...).
    pub reason: String,
}

fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|line| !line.starts_with('#'))
}

fn header(line: &str, keyword: &str) -> Option<(String, Vec<String>)> {
    let mut words = line.split_whitespace();
    (words.next() == Some(keyword)).then(|| {
        let number = words.next().unwrap_or_default();
        (
            format!("{keyword} {number}"),
            words.map(str::to_owned).collect(),
        )
    })
}

/// The games of a replay file, or what is wrong with it.
pub fn replay_vectors(text: &str) -> Result<Vec<ReplayVector>, String> {
    let mut games = Vec::new();
    let mut current: Option<ReplayVector> = None;
    for line in content_lines(text).filter(|line| !line.is_empty()) {
        if let Some((name, flags)) = header(line, "game") {
            current = Some(ReplayVector {
                name,
                flags,
                start: String::new(),
                steps: Vec::new(),
                result: None,
            });
            continue;
        }
        let game = current
            .as_mut()
            .ok_or_else(|| format!("`{line}` comes before any `game` line"))?;
        if line == "end" {
            games.extend(current.take());
        } else if let Some(result) = line.strip_prefix("result ") {
            game.result = Some(result.to_owned());
        } else if game.start.is_empty() {
            game.start = line.to_owned();
        } else {
            let (mv, position) = line
                .split_once(' ')
                .ok_or_else(|| format!("{}: `{line}` is not a move and a position", game.name))?;
            game.steps.push((mv.to_owned(), position.to_owned()));
        }
    }
    match current {
        Some(game) => Err(format!("{} has no `end`", game.name)),
        None => Ok(games),
    }
}

/// The blocks of an illegal-move file, or what is wrong with it.
pub fn illegal_vectors(text: &str) -> Result<Vec<IllegalVector>, String> {
    let lines: Vec<&str> = content_lines(text).collect();
    lines
        .split(|line| *line == "end")
        .filter(|block| block.iter().any(|line| !line.is_empty()))
        .map(|block| {
            let [head, prefix, refused, why] = block else {
                return Err(format!("a block of {} lines: {block:?}", block.len()));
            };
            let (name, flags) =
                header(head, "illegal").ok_or_else(|| format!("`{head}` is no `illegal` line"))?;
            let reason = why
                .strip_prefix("why ")
                .ok_or_else(|| format!("{name}: `{why}` is no `why` line"))?;
            Ok(IllegalVector {
                name,
                flags,
                prefix: prefix.split_whitespace().map(str::to_owned).collect(),
                refused: refused.trim().to_owned(),
                reason: reason.to_owned(),
            })
        })
        .collect()
}

/// The options that `ghast replay` flags such as `--game qast --black-gold 1` give game `G`.
pub fn options_from_flags<G: Game>(flags: &[String]) -> Result<G::Options, String> {
    let mut rules = Vec::new();
    for pair in flags.chunks(2) {
        match pair {
            [flag, name] if flag == "--game" => {
                if name != G::NAME {
                    return Err(format!("a vector of {name}, not {}", G::NAME));
                }
            }
            [flag, value] if flag.starts_with("--") => {
                rules.push(Rule::new(&flag[2..].replace('-', "_"), value));
            }
            other => return Err(format!("flags {other:?} are not `--key value`")),
        }
    }
    with_rules(&G::Options::default(), &rules)
}

/// Replays `vector` by `G`'s rules: the start, every position after a move (and the same
/// position read back by `read_position`: the same text, and while the game goes on the same
/// hash, not over), and the result.
pub fn check_replay<G: Game>(
    vector: &ReplayVector,
    read_position: impl Fn(&G::Options, &str) -> Result<G, String>,
) -> Result<(), String> {
    check_replay_reading(vector, Some(&read_position), true)
}

/// A reader of position strings under some options ([`Game::from_position_text`]).
pub type ReadPosition<'a, G> = &'a dyn Fn(&<G as Game>::Options, &str) -> Result<G, String>;

/// [`check_replay`] for any game: the positions are read back only where `read_position` is
/// given (a game may read no position strings), and their hashes compared only if
/// `positions_are_complete` (a game whose strings leave out part of the state, such as Go's
/// ko and passes, reads back a position that goes on differently).
pub fn check_replay_reading<G: Game>(
    vector: &ReplayVector,
    read_position: Option<ReadPosition<'_, G>>,
    positions_are_complete: bool,
) -> Result<(), String> {
    let name = &vector.name;
    let options = options_from_flags::<G>(&vector.flags)?;
    let mut game = G::new(&options);
    expect_equal(&game.position_text(), &vector.start, || {
        format!("{name} start")
    })?;
    for (number, (mv, expected)) in vector.steps.iter().enumerate() {
        let at = || format!("{name} move {} ({mv})", number + 1);
        game.play_told(mv)
            .map_err(|error| format!("{}: {error}", at()))?;
        expect_equal(&game.position_text(), expected, at)?;
        let Some(read_position) = read_position else {
            continue;
        };
        let reread = read_position(&options, expected).map_err(|e| format!("{}: {e}", at()))?;
        expect_equal(&reread.position_text(), expected, || {
            format!("{} read back", at())
        })?;
        // A game that ended may have ended by what no position string holds (a repetition
        // lives in the game's history): its result line is checked below instead.
        if positions_are_complete
            && game.outcome().is_none()
            && (reread.hash() != game.hash() || reread.outcome().is_some())
        {
            return Err(format!("{}: read back with another hash or outcome", at()));
        }
    }
    expect_equal(&game.result_text(), &vector.result, || {
        format!("{name} result")
    })
}

/// Plays `vector`'s prefix and checks that its move is refused with a message that quotes it
/// and says why in one of the `words` its reason has.
pub fn check_refusal<G: Game>(vector: &IllegalVector, words: &[&str]) -> Result<(), String> {
    let name = &vector.name;
    let options = options_from_flags::<G>(&vector.flags)?;
    let mut game = G::new(&options);
    for mv in &vector.prefix {
        game.play_told(mv)
            .map_err(|error| format!("{name}: prefix move {mv}: {error}"))?;
    }
    let refused = &vector.refused;
    let error = match game.parse_move(refused) {
        Ok(_) => {
            return Err(format!(
                "{name}: {refused} must be refused ({})",
                vector.reason
            ));
        }
        Err(error) => error,
    };
    if !error.contains(&format!("\"{refused}\"")) {
        return Err(format!("{name}: `{error}` does not name {refused}"));
    }
    if !words.iter().any(|word| error.contains(word)) {
        return Err(format!(
            "{name}: `{error}` does not say why ({}: {words:?})",
            vector.reason
        ));
    }
    Ok(())
}

fn expect_equal<T: PartialEq + std::fmt::Debug>(
    got: &T,
    expected: &T,
    at: impl Fn() -> String,
) -> Result<(), String> {
    if got == expected {
        Ok(())
    } else {
        Err(format!("{}: got {got:?}, expected {expected:?}", at()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_into_games_and_blocks() {
        let replay = "# a comment\ngame 1 --game x --size 3\nstart\na1 p1\nresult black\nend\n";
        let games = replay_vectors(replay).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].name, "game 1");
        assert_eq!(games[0].flags, ["--game", "x", "--size", "3"]);
        assert_eq!(games[0].steps, [("a1".to_owned(), "p1".to_owned())]);
        assert_eq!(games[0].result.as_deref(), Some("black"));
        assert!(replay_vectors("game 1\nstart\n").is_err(), "no end");
        let illegal = "# c\nillegal 1 --game x\n\nzz\nwhy malformed\nend\n";
        let blocks = illegal_vectors(illegal).unwrap();
        assert_eq!(blocks.len(), 1);
        assert!(blocks[0].prefix.is_empty());
        assert_eq!(
            (blocks[0].refused.as_str(), blocks[0].reason.as_str()),
            ("zz", "malformed")
        );
        assert!(
            illegal_vectors("illegal 1\nzz\nend\n").is_err(),
            "a short block"
        );
    }
}
