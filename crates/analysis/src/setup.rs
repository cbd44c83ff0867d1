//! A query's positions: the game's options it asks for (rules, komi, board size), its start
//! (set-up stones and first player), its moves replayed, and each turn to analyse with its
//! move filter. A query is read whole before any of it is searched, as KataGo builds every
//! turn's request before it queues one: a query with a bad move is one error, not half an
//! answer.

use crate::protocol::{Problem, Query, Restriction};
use game::rules::{self, Rule};
use game::{Game, GtpGame, GtpWork, Planes, Side, parse_colour};
use mcts::{MoveFilter, MoveRestriction};
use serde_json::Value;

/// KataGo's names of its Go rule sets: a query naming one the game does not play is answered
/// under the game's own rules, with a warning; any other name is an error.
const KATAGO_RULE_SETS: &[&str] = &[
    "tromp-taylor",
    "chinese",
    "chinese-ogs",
    "chinese-kgs",
    "japanese",
    "korean",
    "stone-scoring",
    "aga",
    "bga",
    "new-zealand",
    "aga-button",
];

/// [`GtpGame::set_up`] of a game `G`.
type SetUp<G> = fn(&<G as Game>::Options, &[(Side, usize)], Side) -> Result<G, String>;

/// What a game that speaks GTP offers a Go tool, read once by [`Game::with_gtp`].
struct GoHooks<G: Game> {
    set_up: SetUp<G>,
    /// [`GtpGame::hand_turn_to`].
    hand_turn_to: fn(&G, Side) -> Result<G, String>,
    katago_rules: Option<&'static str>,
}

struct HooksOf;

impl<G: Game> GtpWork<G> for HooksOf {
    type Output = GoHooks<G>;

    fn run(self) -> GoHooks<G>
    where
        G: GtpGame,
    {
        GoHooks {
            set_up: G::set_up,
            hand_turn_to: G::hand_turn_to,
            katago_rules: G::KATAGO_RULES,
        }
    }
}

/// One turn of a query to analyse.
pub(crate) struct Turn<G> {
    /// Its number: 0 is the start.
    pub number: usize,
    pub game: G,
    /// The query's `avoidMoves` and `allowMoves`, where the position is searched.
    pub filter: Option<MoveFilter>,
    pub priority: i64,
}

/// Reads queries into positions of the game `G` under the bot's options.
pub(crate) struct QueryReader<G: Game> {
    /// The options the bot's network was trained with: a query may change its rules, not
    /// the board's shape.
    options: G::Options,
    go: Option<GoHooks<G>>,
}

impl<G: Planes> QueryReader<G> {
    pub fn new(options: G::Options) -> Self {
        QueryReader {
            options,
            go: G::with_gtp(HooksOf),
        }
    }

    /// The game's options under `query`, with what it warned of.
    pub fn options(&self, query: &Query) -> Result<(G::Options, Vec<Problem>), Problem> {
        let mut warnings = Vec::new();
        let options = self.options_for(query, &mut warnings)?;
        Ok((options, warnings))
    }

    /// Every turn `query` asks about (each once: a turn asked twice is answered once, at its
    /// first place), under `options`; or the first problem with any part of it. A move by the side not to move is
    /// played as KataGo plays it in Go (the turn handed over, the history and so the ko
    /// cleared: [`GtpGame::hand_turn_to`]); in other games it is an error.
    pub fn turns(&self, query: &Query, options: &G::Options) -> Result<Vec<Turn<G>>, Problem> {
        let id = Some(query.id.as_str());
        let problem = |field: &str, message: String| Problem::new(id, Some(field), message);
        let mut game = self.start(query, options)?;
        let asked = query
            .analyze_turns
            .clone()
            .unwrap_or_else(|| vec![query.moves.len()]);
        if let Some(&late) = asked.iter().find(|&&turn| turn > query.moves.len()) {
            return Err(problem(
                "analyzeTurns",
                format!(
                    "turn {late} is past the end: the query has {} moves, so turns 0..={}",
                    query.moves.len(),
                    query.moves.len()
                ),
            ));
        }
        let mut positions: Vec<Option<G>> = vec![None; query.moves.len() + 1];
        if asked.contains(&0) {
            positions[0] = Some(game.clone());
        }
        for (index, (player, text)) in query.moves.iter().enumerate() {
            self.play(&mut game, player.as_deref(), text)
                .map_err(|why| {
                    let by = player
                        .as_ref()
                        .map_or(String::new(), |p| format!(" by {p}"));
                    problem("moves", format!("move {} `{text}`{by}: {why}", index + 1))
                })?;
            if asked.contains(&(index + 1)) {
                positions[index + 1] = Some(game.clone());
            }
        }
        let mut turns: Vec<Turn<G>> = Vec::new();
        for (k, &number) in asked.iter().enumerate() {
            if turns.iter().any(|turn| turn.number == number) {
                continue;
            }
            let game = positions[number].clone().expect("kept above");
            let searched = game.outcome().is_none() && !game.is_chance();
            let filter = if searched {
                self.filter_for(query, &game, options)?
            } else {
                None
            };
            turns.push(Turn {
                number,
                game,
                filter,
                priority: query
                    .priorities
                    .as_ref()
                    .map_or(query.priority, |priorities| priorities[k]),
            });
        }
        Ok(turns)
    }

    /// The bot's options with the query's rules, komi and board size; a game the network
    /// cannot read (another board size) is refused.
    fn options_for(
        &self,
        query: &Query,
        warnings: &mut Vec<Problem>,
    ) -> Result<G::Options, Problem> {
        let id = Some(query.id.as_str());
        let keys = rules::keys_of::<G::Options>();
        let mut options = self.options.clone();
        let mut apply = |field: &str, rules: Vec<Rule>| -> Result<(), Problem> {
            if let Some(unknown) = rules.iter().find(|rule| !keys.contains(&rule.key.as_str())) {
                return Err(Problem::new(
                    id,
                    Some(field),
                    format!(
                        "{} has no rule `{}`; its rules are {}",
                        G::NAME,
                        unknown.key,
                        keys.join(", ")
                    ),
                ));
            }
            options = rules::with_rules(&options, &rules).map_err(|why| {
                Problem::new(id, Some(field), format!("{why} (rules of {})", G::NAME))
            })?;
            Ok(())
        };
        match &query.rules {
            Some(Value::Object(object)) => {
                let rules = object
                    .iter()
                    .map(|(key, value)| {
                        toml::Value::try_from(value)
                            .map(|value| Rule {
                                key: key.replace('-', "_"),
                                value,
                            })
                            .map_err(|_| {
                                Problem::new(
                                    id,
                                    Some("rules"),
                                    format!("rule `{key}`: {value} is not a value a rule takes"),
                                )
                            })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                apply("rules", rules)?;
            }
            Some(Value::String(name)) => {
                warnings.extend(self.katago_rules(id, name)?);
            }
            _ => {}
        }
        if let Some(komi) = query.komi {
            apply(
                "komi",
                vec![Rule {
                    key: "komi".to_owned(),
                    value: toml::Value::Float(komi),
                }],
            )?;
        }
        if query.board_x_size.is_some() || query.board_y_size.is_some() {
            let (x, y) = (query.board_x_size, query.board_y_size);
            let size = x.or(y).expect("one is given");
            if y.is_some_and(|y| y != size) {
                return Err(Problem::new(
                    id,
                    Some("boardYSize"),
                    format!(
                        "boardXSize {size} and boardYSize {}: {}'s boards are square",
                        y.unwrap_or(size),
                        G::NAME
                    ),
                ));
            }
            let field = if x.is_some() {
                "boardXSize"
            } else {
                "boardYSize"
            };
            apply(
                field,
                vec![Rule {
                    key: "size".to_owned(),
                    value: toml::Value::Integer(size),
                }],
            )?;
        }
        let bot = G::new(&self.options);
        let asked = G::new(&options);
        if asked.plane_shape() != bot.plane_shape() || asked.num_actions() != bot.num_actions() {
            let field = if query.board_x_size.is_some() {
                "boardXSize"
            } else {
                "rules"
            };
            return Err(Problem::new(
                id,
                Some(field),
                format!(
                    "the bot's network reads {} positions of {}x{} cells, and these rules ask for {}x{}: \
                     use a bot trained on that board",
                    G::NAME,
                    bot.plane_shape().height,
                    bot.plane_shape().width,
                    asked.plane_shape().height,
                    asked.plane_shape().width
                ),
            ));
        }
        Ok(options)
    }

    /// Checks a `rules` string: KataGo's name of this game's rules is fine; the name of
    /// another of KataGo's rule sets gets a warning, since the game's own rules are used.
    fn katago_rules(&self, id: Option<&str>, name: &str) -> Result<Option<Problem>, Problem> {
        let own = self.go.as_ref().and_then(|go| go.katago_rules).ok_or_else(|| {
            Problem::new(
                id,
                Some("rules"),
                format!(
                    "a rules string names one of KataGo's Go rule sets; {} takes an object of its \
                     rules ({})",
                    G::NAME,
                    rules::keys_of::<G::Options>().join(", ")
                ),
            )
        })?;
        let name = name.to_ascii_lowercase();
        if name == own {
            return Ok(None);
        }
        if KATAGO_RULE_SETS.contains(&name.as_str()) {
            return Ok(Some(Problem::new(
                id,
                Some("rules"),
                format!(
                    "{} plays KataGo's `{own}` rules only; analysed under them, not `{name}`",
                    G::NAME
                ),
            )));
        }
        Err(Problem::new(
            id,
            Some("rules"),
            format!(
                "unknown rules `{name}`: KataGo's rule sets are {}",
                KATAGO_RULE_SETS.join(", ")
            ),
        ))
    }

    /// The position before the first move: the game's start, or its set-up stones and first
    /// player where the query gives them. Without `initialPlayer`, KataGo's rule: the first
    /// move's player, else the second side where the stones are a handicap (two or more of
    /// the first side's and none of the second's), else the game's first player.
    fn start(&self, query: &Query, options: &G::Options) -> Result<G, Problem> {
        let id = Some(query.id.as_str());
        let start = G::new(options);
        let first_player = match &query.initial_player {
            Some(player) => Some(
                parse_colour::<G>(player)
                    .map_err(|why| Problem::new(id, Some("initialPlayer"), why))?,
            ),
            None => None,
        };
        let first_mover = query
            .moves
            .first()
            .and_then(|(player, _)| parse_colour::<G>(player.as_deref()?).ok());
        if query.initial_stones.is_empty() && first_player.is_none() {
            // The first move's player moves first, where the game can hand the turn over
            // (elsewhere that move is refused as out of turn).
            return Ok(match (first_mover, &self.go) {
                (Some(side), Some(go)) if side != start.to_move() => {
                    (go.hand_turn_to)(&start, side)
                        .map_err(|why| Problem::new(id, Some("moves"), why))?
                }
                _ => start,
            });
        }
        if query.initial_stones.is_empty() && first_player == Some(start.to_move()) {
            return Ok(start);
        }
        let field = if query.initial_stones.is_empty() {
            "initialPlayer"
        } else {
            "initialStones"
        };
        let go = self.go.as_ref().ok_or_else(|| {
            Problem::new(
                id,
                Some(field),
                format!(
                    "{} places no stones and starts with its first player",
                    G::NAME
                ),
            )
        })?;
        let stones = query
            .initial_stones
            .iter()
            .map(|(player, text)| {
                let side = parse_colour::<G>(player)
                    .map_err(|why| Problem::new(id, Some("initialStones"), why))?;
                let action = start.parse_action(text).map_err(|why| {
                    Problem::new(id, Some("initialStones"), format!("`{text}`: {why}"))
                })?;
                Ok((side, action))
            })
            .collect::<Result<Vec<_>, Problem>>()?;
        let count = |side: Side| stones.iter().filter(|(s, _)| *s == side).count();
        let handicap = count(Side::First) >= 2 && count(Side::Second) == 0;
        let to_move = first_player.or(first_mover).unwrap_or(if handicap {
            Side::Second
        } else {
            start.to_move()
        });
        (go.set_up)(options, &stones, to_move).map_err(|why| Problem::new(id, Some(field), why))
    }

    /// Plays one move of a query: at a side's decision, `text` is a whole move as the game
    /// writes it, or one decision of it, by `player` where given (a move out of turn hands
    /// the turn over, where the game can); at chance's, `text` is the outcome.
    fn play(&self, game: &mut G, player: Option<&str>, text: &str) -> Result<(), String> {
        if let Some(result) = game.result_text() {
            return Err(format!("the game is over ({result})"));
        }
        if game.is_chance() {
            let outcome = game.parse_action(text)?;
            game.apply(outcome);
            return Ok(());
        }
        let side = player.map_or(Ok(game.to_move()), parse_colour::<G>)?;
        if side != game.to_move() {
            let out_of_turn = || {
                format!(
                    "{} is to move, not {}",
                    G::COLOURS[game.to_move().index()],
                    G::COLOURS[side.index()]
                )
            };
            let hand_turn_to = self.go.as_ref().ok_or_else(out_of_turn)?.hand_turn_to;
            *game = hand_turn_to(game, side).map_err(|why| format!("{}: {why}", out_of_turn()))?;
        }
        // A whole move, or one decision of a move of several (as a result's `pv` lists them):
        // the same side then goes on with the rest.
        let actions = match game.parse_move(text) {
            Ok(actions) => actions,
            Err(why) => vec![game.parse_action(text).map_err(|_| why)?],
        };
        for action in actions {
            game.apply(action);
        }
        Ok(())
    }

    /// The query's `avoidMoves` and `allowMoves` for the position `game`.
    fn filter_for(
        &self,
        query: &Query,
        game: &G,
        options: &G::Options,
    ) -> Result<Option<MoveFilter>, Problem> {
        let start = G::new(options);
        let read = |field: &str, entry: &Restriction, allow_only: bool| {
            let problem = |why: String| Problem::new(Some(&query.id), Some(field), why);
            let side = parse_colour::<G>(&entry.player).map_err(problem)?;
            let actions = entry
                .moves
                .iter()
                .map(|text| {
                    game.parse_action(text)
                        .or_else(|_| start.parse_action(text))
                        .map_err(|why| {
                            problem(format!("`{text}` is not a move of {}: {why}", G::NAME))
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(MoveRestriction {
                side,
                actions,
                until_depth: entry.until_depth,
                allow_only,
            })
        };
        let restrictions = query
            .avoid_moves
            .iter()
            .map(|entry| read("avoidMoves", entry, false))
            .chain(
                query
                    .allow_moves
                    .iter()
                    .map(|entry| read("allowMoves", entry, true)),
            )
            .collect::<Result<Vec<_>, Problem>>()?;
        Ok((!restrictions.is_empty()).then_some(MoveFilter { restrictions }))
    }
}
