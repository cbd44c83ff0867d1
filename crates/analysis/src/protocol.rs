//! The query language, as KataGo's analysis engine speaks it (its docs/Analysis_Engine.md):
//! one JSON object a line. This file reads a line into a [`Request`] whatever the game; the
//! engine gives the moves and rules their game's meaning.

use serde_json::{Map, Value};

/// What one line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Analyse(Box<Query>),
    Action(Action),
}

/// A query to analyse some turns of one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Query {
    pub id: String,
    /// `[player, move]` pairs, each move as the game writes it whole; a plain string is a move
    /// of whichever side is to move (`None`), for games whose sides do not simply alternate.
    pub moves: Vec<(Option<String>, String)>,
    pub initial_stones: Vec<(String, String)>,
    pub initial_player: Option<String>,
    /// A string (KataGo's name of a Go rule set) or an object of the game's rules.
    pub rules: Option<Value>,
    pub komi: Option<f64>,
    pub board_x_size: Option<i64>,
    pub board_y_size: Option<i64>,
    /// The turns to analyse, 0 being the start; by default the last.
    pub analyze_turns: Option<Vec<usize>>,
    pub max_visits: Option<u32>,
    /// Moves of each principal variation at most (KataGo's `analysisPVLen` of a query).
    pub analysis_pv_len: Option<usize>,
    /// `overrideSettings`: KataGo's search settings for this query, each value as a config
    /// file would write it.
    pub override_settings: Vec<(String, String)>,
    pub include_policy: bool,
    pub include_ownership: bool,
    /// Ownership after each move tried as well (`includeMovesOwnership`).
    pub include_moves_ownership: bool,
    pub include_pv_visits: bool,
    pub avoid_moves: Vec<Restriction>,
    pub allow_moves: Vec<Restriction>,
    /// Seconds between reports while a position is searched.
    pub report_during_search_every: Option<f64>,
    pub priority: i64,
    /// One priority per turn of `analyze_turns`, instead of `priority`.
    pub priorities: Option<Vec<i64>>,
}

/// One entry of `avoidMoves` or `allowMoves`.
#[derive(Clone, Debug, PartialEq)]
pub struct Restriction {
    pub player: String,
    pub moves: Vec<String>,
    pub until_depth: u32,
}

/// A special action: KataGo's `query_version`, `clear_cache`, `terminate` and
/// `terminate_all`. Each is answered by echoing the query's fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub kind: ActionKind,
    /// The query's fields, to echo.
    pub echo: Map<String, Value>,
    pub terminate_id: Option<String>,
    pub turn_numbers: Option<Vec<usize>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ActionKind {
    QueryVersion,
    ClearCache,
    Terminate,
    TerminateAll,
}

/// A line the engine could not act on, as it answers it: the query's `id` where it had one,
/// the field at fault, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub id: Option<String>,
    pub field: Option<String>,
    pub message: String,
}

impl Problem {
    pub fn new(id: Option<&str>, field: Option<&str>, message: impl Into<String>) -> Problem {
        Problem {
            id: id.map(str::to_owned),
            field: field.map(str::to_owned),
            message: message.into(),
        }
    }

    /// The error line: `{"error": ..., "field": ..., "id": ...}`, as KataGo writes it.
    pub fn error_line(&self) -> String {
        self.line("error")
    }

    /// The warning line: the same with `warning`; the query is still answered.
    pub fn warning_line(&self) -> String {
        self.line("warning")
    }

    fn line(&self, kind: &str) -> String {
        let mut object = Map::new();
        object.insert(kind.to_owned(), Value::from(self.message.clone()));
        if let Some(field) = &self.field {
            object.insert("field".to_owned(), Value::from(field.clone()));
        }
        if let Some(id) = &self.id {
            object.insert("id".to_owned(), Value::from(id.clone()));
        }
        Value::Object(object).to_string()
    }
}

/// Fields this engine reads.
const KNOWN: &[&str] = &[
    "id",
    "action",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "analysisPVLen",
    "overrideSettings",
    "includePolicy",
    "includeOwnership",
    "includeMovesOwnership",
    "includePVVisits",
    "avoidMoves",
    "allowMoves",
    "reportDuringSearchEvery",
    "priority",
    "priorities",
];

/// KataGo's fields that this engine knows of and does not act on: each gets a warning that
/// says so, and the query is answered without it.
const NOT_SUPPORTED: &[&str] = &[
    "rootPolicyTemperature",
    "rootFpuReductionMax",
    "includeMovesOwnershipStdev",
    "includeOwnershipStdev",
    "includeNoResultValue",
    "whiteHandicapBonus",
    "humanSLProfile",
];

/// Reads one line. The warnings are for fields the engine ignores; the query still goes on.
pub fn parse_line(line: &str) -> Result<(Request, Vec<Problem>), Problem> {
    let value: Value = serde_json::from_str(line).map_err(|error| {
        Problem::new(
            None,
            None,
            format!("could not parse the line as JSON: {error}"),
        )
    })?;
    let Value::Object(object) = value else {
        return Err(Problem::new(None, None, "a query is a JSON object"));
    };
    let id = match object.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Number(number)) => number.to_string(),
        Some(_) => return Err(Problem::new(None, Some("id"), "`id` must be a string")),
        None => return Err(Problem::new(None, Some("id"), "a query needs an `id`")),
    };
    let fields = Fields {
        id: &id,
        object: &object,
    };
    if let Some(action) = object.get("action") {
        return Ok((Request::Action(fields.action(action)?), Vec::new()));
    }
    let warnings = object
        .keys()
        .filter(|key| !KNOWN.contains(&key.as_str()))
        .map(|key| {
            let why = if NOT_SUPPORTED.contains(&key.as_str()) {
                "this engine does not support this field; the query is answered without it"
            } else {
                "unknown field, ignored"
            };
            Problem::new(Some(&id), Some(key), why)
        })
        .collect();
    Ok((Request::Analyse(Box::new(fields.query()?)), warnings))
}

/// The fields of one query, read with errors that name them.
struct Fields<'a> {
    id: &'a str,
    object: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn problem(&self, field: &str, message: impl Into<String>) -> Problem {
        Problem::new(Some(self.id), Some(field), message)
    }

    fn action(&self, action: &Value) -> Result<Action, Problem> {
        let kind = match action.as_str() {
            Some("query_version") => ActionKind::QueryVersion,
            Some("clear_cache") => ActionKind::ClearCache,
            Some("terminate") => ActionKind::Terminate,
            Some("terminate_all") => ActionKind::TerminateAll,
            _ => {
                return Err(self.problem(
                    "action",
                    format!(
                        "unknown action {action}: the actions are query_version, clear_cache, \
                         terminate and terminate_all"
                    ),
                ));
            }
        };
        let terminate_id = match (kind, self.object.get("terminateId")) {
            (ActionKind::Terminate, Some(Value::String(id))) => Some(id.clone()),
            (ActionKind::Terminate, Some(_)) => {
                return Err(self.problem("terminateId", "`terminateId` must be a string"));
            }
            (ActionKind::Terminate, None) => {
                return Err(self.problem("terminateId", "terminate needs a `terminateId`"));
            }
            _ => None,
        };
        Ok(Action {
            kind,
            echo: self.object.clone(),
            terminate_id,
            turn_numbers: self.optional("turnNumbers", turns)?,
        })
    }

    fn query(&self) -> Result<Query, Problem> {
        let flag = |name: &str| {
            self.optional(name, |value| value.as_bool().ok_or("must be true or false"))
                .map(Option::unwrap_or_default)
        };
        let query = Query {
            id: self.id.to_owned(),
            moves: self.optional("moves", moves)?.unwrap_or_default(),
            initial_stones: self.optional("initialStones", pairs)?.unwrap_or_default(),
            initial_player: self.optional("initialPlayer", |v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or("must be a player, such as \"B\"")
            })?,
            rules: self.optional("rules", |v| match v {
                Value::String(_) | Value::Object(_) => Ok(v.clone()),
                _ => Err("must be a rule set's name or an object of rules"),
            })?,
            komi: self.optional("komi", |v| v.as_f64().ok_or("must be a number"))?,
            board_x_size: self
                .optional("boardXSize", |v| v.as_i64().ok_or("must be an integer"))?,
            board_y_size: self
                .optional("boardYSize", |v| v.as_i64().ok_or("must be an integer"))?,
            analyze_turns: self.optional("analyzeTurns", turns)?,
            max_visits: self.optional("maxVisits", |v| {
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|&n| n >= 1)
                    .ok_or("must be a whole number of visits, at least 1")
            })?,
            analysis_pv_len: self.optional("analysisPVLen", |v| {
                v.as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or("must be a whole number of moves")
            })?,
            override_settings: self
                .optional("overrideSettings", settings)?
                .unwrap_or_default(),
            include_policy: flag("includePolicy")?,
            include_ownership: flag("includeOwnership")?,
            include_moves_ownership: flag("includeMovesOwnership")?,
            include_pv_visits: flag("includePVVisits")?,
            avoid_moves: self
                .optional("avoidMoves", restrictions)?
                .unwrap_or_default(),
            allow_moves: self
                .optional("allowMoves", restrictions)?
                .unwrap_or_default(),
            report_during_search_every: self.optional("reportDuringSearchEvery", |v| {
                v.as_f64()
                    .filter(|&s| s.is_finite() && s > 0.0)
                    .ok_or("must be a number of seconds above 0")
            })?,
            priority: self
                .optional("priority", |v| v.as_i64().ok_or("must be an integer"))?
                .unwrap_or(0),
            priorities: self.optional("priorities", |v| {
                v.as_array()
                    .and_then(|items| items.iter().map(Value::as_i64).collect())
                    .ok_or("must be a list of integers")
            })?,
        };
        if query.allow_moves.len() > 1 {
            return Err(self.problem("allowMoves", "must hold one entry at most, as in KataGo"));
        }
        if let (Some(priorities), turns) = (&query.priorities, &query.analyze_turns) {
            let wanted = turns.as_ref().map_or(1, Vec::len);
            if priorities.len() != wanted {
                return Err(self.problem(
                    "priorities",
                    format!(
                        "{} priorities for {wanted} turns to analyse: give one per turn",
                        priorities.len()
                    ),
                ));
            }
        }
        Ok(query)
    }

    /// The field `name` read by `read`, `None` where it is absent (or null); a value `read`
    /// refuses is a problem naming the field.
    fn optional<T>(
        &self,
        name: &str,
        read: impl FnOnce(&Value) -> Result<T, &'static str>,
    ) -> Result<Option<T>, Problem> {
        match self.object.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => read(value)
                .map(Some)
                .map_err(|why| self.problem(name, format!("`{name}` {why}, not {value}"))),
        }
    }
}

/// An object of settings, each value as a config file writes it: a string as it is, a number
/// or a boolean as JSON writes it.
fn settings(value: &Value) -> Result<Vec<(String, String)>, &'static str> {
    const WHY: &str = "must be an object of KataGo's settings, such as {\"maxVisits\": 50}";
    value
        .as_object()
        .ok_or(WHY)?
        .iter()
        .map(|(key, value)| match value {
            Value::String(text) => Ok((key.clone(), text.clone())),
            Value::Number(_) | Value::Bool(_) => Ok((key.clone(), value.to_string())),
            _ => Err(WHY),
        })
        .collect()
}

fn turns(value: &Value) -> Result<Vec<usize>, &'static str> {
    value
        .as_array()
        .and_then(|items| {
            items
                .iter()
                .map(|item| item.as_u64().and_then(|n| usize::try_from(n).ok()))
                .collect()
        })
        .ok_or("must be a list of turn numbers (0 is the start)")
}

/// `[player, move]` pairs or plain moves.
fn moves(value: &Value) -> Result<Vec<(Option<String>, String)>, &'static str> {
    const WHY: &str = "must be a list of [player, move] pairs of strings, or of moves";
    value
        .as_array()
        .ok_or(WHY)?
        .iter()
        .map(|entry| match entry {
            Value::String(text) => Ok((None, text.clone())),
            Value::Array(pair) => match pair.as_slice() {
                [Value::String(player), Value::String(text)] => {
                    Ok((Some(player.clone()), text.clone()))
                }
                _ => Err(WHY),
            },
            _ => Err(WHY),
        })
        .collect()
}

fn pairs(value: &Value) -> Result<Vec<(String, String)>, &'static str> {
    const WHY: &str = "must be a list of [player, move] pairs of strings";
    value
        .as_array()
        .ok_or(WHY)?
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([Value::String(player), Value::String(text)]) => {
                Ok((player.clone(), text.clone()))
            }
            _ => Err(WHY),
        })
        .collect()
}

fn restrictions(value: &Value) -> Result<Vec<Restriction>, &'static str> {
    const WHY: &str = "must be a list of {\"player\", \"moves\", \"untilDepth\"} objects";
    value
        .as_array()
        .ok_or(WHY)?
        .iter()
        .map(|entry| {
            let player = entry.get("player").and_then(Value::as_str).ok_or(WHY)?;
            let moves = entry
                .get("moves")
                .and_then(Value::as_array)
                .and_then(|moves| {
                    moves
                        .iter()
                        .map(|m| m.as_str().map(str::to_owned))
                        .collect::<Option<Vec<_>>>()
                })
                .ok_or(WHY)?;
            let until_depth = entry
                .get("untilDepth")
                .and_then(Value::as_u64)
                .and_then(|d| u32::try_from(d).ok())
                .filter(|&d| d >= 1)
                .ok_or("needs an `untilDepth` of at least 1 in every entry")?;
            Ok(Restriction {
                player: player.to_owned(),
                moves,
                until_depth,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(line: &str) -> (Query, Vec<Problem>) {
        match parse_line(line) {
            Ok((Request::Analyse(query), warnings)) => (*query, warnings),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn reads_katagos_example_query() {
        let (query, warnings) = query(
            r#"{"id":"foo","initialStones":[["B","Q4"],["B","C4"]],"moves":[["W","P5"],["B","P6"]],"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,"analyzeTurns":[0,1,2]}"#,
        );
        assert!(warnings.is_empty());
        assert_eq!(query.id, "foo");
        assert_eq!(query.initial_stones.len(), 2);
        assert_eq!(query.moves[1], (Some("B".to_owned()), "P6".to_owned()));
        assert_eq!(query.rules, Some(Value::from("tromp-taylor")));
        assert_eq!(query.komi, Some(7.5));
        assert_eq!(query.board_x_size, Some(19));
        assert_eq!(query.analyze_turns, Some(vec![0, 1, 2]));
        assert_eq!(query.priority, 0);
    }

    #[test]
    fn unknown_and_unsupported_fields_are_warnings() {
        let (_, warnings) =
            query(r#"{"id":"a","moves":[],"colour":"x","rootPolicyTemperature":1.5}"#);
        let fields: Vec<_> = warnings.iter().map(|w| w.field.clone().unwrap()).collect();
        assert_eq!(fields, ["colour", "rootPolicyTemperature"]);
        assert!(warnings[1].message.contains("does not support"));
        assert_eq!(
            warnings[0].warning_line(),
            r#"{"field":"colour","id":"a","warning":"unknown field, ignored"}"#
        );
    }

    #[test]
    fn bad_values_are_errors_naming_the_field() {
        let cases = [
            (r#"{"id":"a","maxVisits":0}"#, "maxVisits"),
            (r#"{"id":"a","maxVisits":"many"}"#, "maxVisits"),
            (r#"{"id":"a","moves":[["B"]]}"#, "moves"),
            (r#"{"id":"a","analyzeTurns":[-1]}"#, "analyzeTurns"),
            (r#"{"id":"a","includePolicy":1}"#, "includePolicy"),
            (
                r#"{"id":"a","avoidMoves":[{"player":"B","moves":["A1"]}]}"#,
                "avoidMoves",
            ),
            (
                r#"{"id":"a","analyzeTurns":[1,2],"priorities":[1]}"#,
                "priorities",
            ),
            (r#"{"id":"a","overrideSettings":[1]}"#, "overrideSettings"),
            (
                r#"{"id":"a","overrideSettings":{"maxVisits":[1]}}"#,
                "overrideSettings",
            ),
            (r#"{"id":"a","analysisPVLen":-2}"#, "analysisPVLen"),
            (r#"{"id":"a","action":"dance"}"#, "action"),
            (r#"{"id":"a","action":"terminate"}"#, "terminateId"),
            (r#"{"moves":[]}"#, "id"),
        ];
        for (line, field) in cases {
            let problem = parse_line(line).expect_err(line);
            assert_eq!(problem.field.as_deref(), Some(field), "{line}: {problem:?}");
            assert!(problem.error_line().starts_with(r#"{"error":"#), "{line}");
        }
        for line in ["{not json", "[1, 2]", ""] {
            let problem = parse_line(line).expect_err(line);
            assert_eq!(problem.id, None);
        }
    }

    #[test]
    fn actions_keep_their_fields_to_echo() {
        let (request, _) =
            parse_line(r#"{"id":"t","action":"terminate","terminateId":"foo","turnNumbers":[1]}"#)
                .unwrap();
        let Request::Action(action) = request else {
            panic!("{request:?}")
        };
        assert_eq!(action.kind, ActionKind::Terminate);
        assert_eq!(action.terminate_id.as_deref(), Some("foo"));
        assert_eq!(action.turn_numbers, Some(vec![1]));
        assert_eq!(action.echo.len(), 4);
    }
}
