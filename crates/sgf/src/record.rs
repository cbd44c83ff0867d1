//! A game's record as SGF and back, for any game that implements [`SgfGame`]: the root sets
//! the game up (`GM`, the game's own properties, `PB`/`PW`, `RE`, stones already on the board
//! as `AB`/`AW` with `HA` and `PL`), then one node per move (`B[cd]`, `W[]` for a pass).
//! Reading follows the main line and plays a move out of turn as KataGo does: the turn is
//! handed to its colour ([`game::GtpGame::hand_turn_to`]).

use crate::tree::{self, GameTree, Node, ParseError};
use game::{Game, Outcome, SgfGame, Side};
use thiserror::Error;

/// SGF's move properties, the first side's then the second's, in every game.
const MOVES: [&str; 2] = ["B", "W"];
/// SGF's set-up properties: stones of the first side, of the second, and points emptied.
const SET_UP: [&str; 3] = ["AB", "AW", "AE"];

/// The players' names by side, as `PB` and `PW` hold them.
pub type Players = [Option<String>; 2];

/// What a record says beside its moves: who played, and the result as SGF writes it (`B+R`,
/// `W+3.5`, `0` for a draw).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub players: Players,
    pub result: Option<String>,
}

/// A record read from SGF: the start position, then every move of the main line with the
/// position after it.
#[derive(Clone, Debug)]
pub struct SgfRecord<G: Game> {
    pub summary: Summary,
    /// The start position and the position after each move: one more than `actions`.
    pub positions: Vec<G>,
    /// Each move's action, played in `positions[i]` (after a turn handed over, where the move
    /// was out of turn) to give `positions[i + 1]`.
    pub actions: Vec<usize>,
}

impl<G: Game> SgfRecord<G> {
    /// The position at the end of the main line.
    pub fn last(&self) -> &G {
        self.positions.last().expect("a record holds its start")
    }
}

/// Why a text is not a record of the game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    #[error("not SGF: {0}")]
    Format(#[from] ParseError),
    #[error("GM[{found}]: this is not a record of {game} (GM[{expected}])")]
    OtherGame {
        found: String,
        game: &'static str,
        expected: u32,
    },
    #[error("the root node: {0}")]
    Root(String),
    /// A node of the main line that cannot be played: its number (the root is 0), as SGF
    /// writes it, and why.
    #[error("node {number} `{node}`: {reason}")]
    Node {
        number: usize,
        node: String,
        reason: String,
    },
}

/// The result as SGF's `RE` writes it, for a game that ended with `outcome` by `reason`
/// (the referee's: `resign`, `forfeit`, or the rules' own word), `end` being the last
/// position: `B+R`, `W+F`, the score (`B+3.5`) where the rules ended it, `0` for a draw.
pub fn result_value<G: SgfGame>(end: &G, outcome: Outcome, reason: &str) -> String {
    let Outcome::Win(winner) = outcome else {
        return "0".to_owned();
    };
    let letter = MOVES[winner.index()];
    match reason {
        "resign" => format!("{letter}+R"),
        "forfeit" => format!("{letter}+F"),
        "time" => format!("{letter}+T"),
        _ if end.outcome().is_some() => end.final_score(),
        _ => format!("{letter}+"),
    }
}

/// Why a game cannot be written or read as SGF: the format has a number (`GM`) for some
/// games only, and a game without one says so by [`SgfGame`]'s absence.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("SGF has no form for {0}")]
pub struct NoForm(pub &'static str);

/// The game played from `start` by `moves` (whole moves in the game's notation, as
/// [`Game::play_told`] reads them) in SGF, with `players` and its result: from `ending` (the
/// outcome and the referee's reason, which knows resignations and forfeits) where given,
/// else the rules' own where the moves ended the game. The one writer of the records that
/// `ghast replay --sgf` and `ghast arena --out` write.
pub fn write_moves<G: SgfGame>(
    start: &G,
    moves: &[impl AsRef<str>],
    players: Players,
    ending: Option<(Outcome, &str)>,
) -> Result<String, String> {
    let mut end = start.clone();
    let mut actions = Vec::new();
    for text in moves {
        actions.extend(end.play_told(text.as_ref())?);
    }
    let result = match ending {
        Some((outcome, reason)) => Some(result_value(&end, outcome, reason)),
        None => end
            .outcome()
            .map(|outcome| result_value(&end, outcome, end.end_reason().unwrap_or(""))),
    };
    Ok(write_record(start, &actions, &Summary { players, result }))
}

/// The record of a game played from `start` by `actions`, in SGF. `start` may hold stones
/// (handicap or a position set up); its side to move is written as `PL` when it has.
pub fn write_record<G: SgfGame>(start: &G, actions: &[usize], summary: &Summary) -> String {
    let options = start.options();
    let mut root = Node::default();
    let text = |value: &str| [value.to_owned()];
    root.push("FF", text("4"));
    root.push("GM", [G::SGF_GAME.to_string()]);
    root.push("CA", text("UTF-8"));
    root.push("AP", [format!("ghast:{}", env!("CARGO_PKG_VERSION"))]);
    for (id, value) in G::sgf_setup(options) {
        root.push(id, [value]);
    }
    for (side, id) in [Side::First, Side::Second].into_iter().zip(["PB", "PW"]) {
        if let Some(name) = &summary.players[side.index()] {
            root.push(id, text(name));
        }
    }
    if let Some(result) = &summary.result {
        root.push("RE", text(result));
    }
    let stones = start.stones();
    if !stones.is_empty() {
        let handicap = stones.iter().all(|&(side, _)| side == Side::First);
        if handicap && stones.len() >= 2 && start.to_move() == Side::Second {
            root.push("HA", [stones.len().to_string()]);
        }
        for (side, id) in [(Side::First, "AB"), (Side::Second, "AW")] {
            let points = stones
                .iter()
                .filter(|&&(owner, _)| owner == side)
                .filter_map(|&(_, action)| G::sgf_point(options, action));
            root.push(id, points);
        }
        root.properties
            .retain(|property| !property.values.is_empty());
    }
    if !stones.is_empty() || start.to_move() != Side::First {
        root.push("PL", text(MOVES[start.to_move().index()]));
    }
    let mut nodes = vec![root];
    let mut game = start.clone();
    for &action in actions {
        let mut node = Node::default();
        let point = G::sgf_point(options, action).unwrap_or_default();
        node.push(MOVES[game.to_move().index()], [point]);
        nodes.push(node);
        game.apply(action);
    }
    tree::write(&[GameTree {
        nodes,
        variations: Vec::new(),
    }])
}

/// Reads the first game of an SGF collection: the root sets the game up, then the main line
/// is played move by move, each checked for legality. A move by the side not to move hands
/// the turn over first, as KataGo plays such records. The side to move at the start is `PL`,
/// else the first move's colour, else (KataGo's rule) the second side where only the first
/// side's stones stand on the board (handicap), else the first side.
pub fn read_record<G: SgfGame>(text: &str) -> Result<SgfRecord<G>, RecordError> {
    let trees = tree::parse(text)?;
    let line = trees[0].main_line();
    let root = line[0];
    let game_number = root.get("GM").unwrap_or("1").trim();
    if game_number != G::SGF_GAME.to_string() {
        return Err(RecordError::OtherGame {
            found: game_number.to_owned(),
            game: G::NAME,
            expected: G::SGF_GAME,
        });
    }
    let options =
        G::sgf_options(&|id| root.get(id).map(str::to_owned)).map_err(RecordError::Root)?;
    let start = start_position::<G>(&options, &line).map_err(RecordError::Root)?;
    let summary = Summary {
        players: ["PB", "PW"].map(|id| root.get(id).map(str::to_owned)),
        result: root.get("RE").map(str::to_owned),
    };
    let mut record = SgfRecord {
        summary,
        positions: vec![start],
        actions: Vec::new(),
    };
    for (number, node) in line.iter().enumerate().skip(1) {
        let fail = |reason: String| RecordError::Node {
            number,
            node: node.text(),
            reason,
        };
        if let Some(id) = SET_UP.iter().find(|id| !node.values(id).is_empty()) {
            return Err(fail(format!(
                "{id}: stones set up in the middle of a game are not read"
            )));
        }
        let played: Vec<(Side, &str)> = [Side::First, Side::Second]
            .into_iter()
            .filter_map(|side| node.get(MOVES[side.index()]).map(|value| (side, value)))
            .collect();
        let (side, value) = match played[..] {
            [] => continue,
            [one] => one,
            _ => return Err(fail("a move by both colours in one node".to_owned())),
        };
        let mut game = record.last().clone();
        if game.outcome().is_some() {
            return Err(fail("a move after the game ended".to_owned()));
        }
        if game.to_move() != side {
            game = game.hand_turn_to(side).map_err(&fail)?;
        }
        let action = G::sgf_action(&options, value).map_err(&fail)?;
        if !game.is_legal(action) {
            // The game's own words for why, where its notation can name the action.
            let why = game
                .parse_action(&game.action_to_string(action))
                .err()
                .unwrap_or_else(|| "an illegal move".to_owned());
            return Err(fail(why));
        }
        game.apply(action);
        record.actions.push(action);
        record.positions.push(game);
    }
    Ok(record)
}

fn start_position<G: SgfGame>(options: &G::Options, line: &[&Node]) -> Result<G, String> {
    let root = line[0];
    if !root.values("AE").is_empty() {
        return Err("AE: points emptied at the start are not read".to_owned());
    }
    let mut stones = Vec::new();
    for (side, id) in [(Side::First, "AB"), (Side::Second, "AW")] {
        for value in root.values(id) {
            for point in
                expand_points(value).map_err(|reason| format!("{id}[{value}]: {reason}"))?
            {
                let action =
                    G::sgf_action(options, &point).map_err(|reason| format!("{id}: {reason}"))?;
                stones.push((side, action));
            }
        }
    }
    let first_move = line.iter().skip(1).find_map(|node| {
        [Side::First, Side::Second]
            .into_iter()
            .find(|side| node.get(MOVES[side.index()]).is_some())
    });
    let to_move = match root.get("PL") {
        Some("B" | "b") => Side::First,
        Some("W" | "w") => Side::Second,
        Some(other) => return Err(format!("PL[{other}]: expected B or W")),
        None => first_move.unwrap_or(
            if !stones.is_empty() && stones.iter().all(|&(side, _)| side == Side::First) {
                Side::Second
            } else {
                Side::First
            },
        ),
    };
    if stones.is_empty() {
        let start = G::new(options);
        return if start.to_move() == to_move {
            Ok(start)
        } else {
            start.hand_turn_to(to_move)
        };
    }
    G::set_up(options, &stones, to_move)
}

/// The points of a stone value: one point, or a rectangle `aa:cc` (FF[4]'s compressed list)
/// as the points it spans.
fn expand_points(value: &str) -> Result<Vec<String>, String> {
    let Some((from, to)) = value.split_once(':') else {
        return Ok(vec![value.to_owned()]);
    };
    match (from.as_bytes(), to.as_bytes()) {
        (&[c0, r0], &[c1, r1]) if c0 <= c1 && r0 <= r1 => Ok((r0..=r1)
            .flat_map(|row| (c0..=c1).map(move |column| [column, row]))
            .map(|pair| String::from_utf8_lossy(&pair).into_owned())
            .collect()),
        _ => Err("expected a point or a rectangle of two points, top left first".to_owned()),
    }
}
