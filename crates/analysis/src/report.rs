//! Results as KataGo writes them: `moveInfos` (one per move the search tried, best first),
//! `rootInfo`, and the network's `policy` on request; win rates, leads and utilities from the
//! view the query's [`crate::Perspective`] says.

use crate::settings::Asked;
use game::{Game, short_colour};
use mcts::Tree;
use serde_json::{Map, Value};

/// One finished or ongoing search, to report: its tree keeps the root's policy and the
/// ownership of what it evaluated, where the query asked for them.
pub(crate) struct Searched<'a, G: Game> {
    pub asked: &'a Asked,
    pub turn: usize,
    pub game: &'a G,
    pub tree: &'a Tree<G>,
}

/// The fields every result starts with.
pub(crate) fn header(id: &str, turn: usize, during_search: bool) -> Map<String, Value> {
    let mut line = Map::new();
    line.insert("id".to_owned(), Value::from(id));
    line.insert("turnNumber".to_owned(), Value::from(turn));
    line.insert("isDuringSearch".to_owned(), Value::from(during_search));
    line
}

/// The line of a turn that was not searched at all (terminated while queued, or before its
/// first visit): KataGo's `noResults`.
pub(crate) fn no_results(id: &str, turn: usize) -> String {
    let mut line = header(id, turn, false);
    line.insert("noResults".to_owned(), Value::from(true));
    Value::Object(line).to_string()
}

/// The figures of `rootInfo`, from the view the results are seen from.
struct RootFigures {
    winrate: f64,
    /// The win rate a few standard errors down (KataGo's `lcbStdevs`), from the same view.
    lcb: f64,
    lead: f64,
    utility: f64,
    visits: u32,
}

/// `rootInfo`: the position's figures, and its side to move named as a query's moves read
/// it back ([`short_colour`]).
fn root_info<G: Game>(game: &G, figures: RootFigures) -> Value {
    let RootFigures {
        winrate,
        lcb,
        lead,
        utility,
        visits,
    } = figures;
    let mut root = Map::new();
    root.insert("winrate".to_owned(), Value::from(winrate));
    root.insert("lcb".to_owned(), Value::from(lcb));
    root.insert("scoreLead".to_owned(), Value::from(lead));
    root.insert("utility".to_owned(), Value::from(utility));
    root.insert("visits".to_owned(), Value::from(visits));
    root.insert(
        "currentPlayer".to_owned(),
        Value::from(short_colour::<G>(game.to_move())),
    );
    root.insert(
        "thisHash".to_owned(),
        Value::from(format!("{:016X}", game.hash())),
    );
    Value::Object(root)
}

/// A search's result line.
pub(crate) fn result<G: Game>(searched: &Searched<'_, G>, during_search: bool) -> String {
    let Searched {
        asked,
        turn,
        game,
        tree,
    } = *searched;
    let settings = &asked.settings;
    let sign = settings.perspective.sign(game.to_move());
    let winrate = |value: f64| (sign * value + 1.0) / 2.0;
    let z = f64::from(settings.search.lcb_stdevs);
    let mut children: Vec<_> = tree.root_children().filter(|c| c.visits > 0).collect();
    children.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.value.unwrap_or(0.0).total_cmp(&a.value.unwrap_or(0.0)))
            .then(b.prior.total_cmp(&a.prior))
    });
    let searched_game = tree.searched_game();
    let move_infos: Vec<Value> = children
        .iter()
        .enumerate()
        .map(|(order, child)| {
            let game_value = f64::from(child.game_value.unwrap_or(0.0));
            let utility = f64::from(child.value.unwrap_or(0.0));
            let error = f64::from(child.value_error.unwrap_or(0.0));
            let lcb = win_rate_lcb(game_value, z * error, sign);
            // KataGo's `analysisPVLen` counts the moves after the first.
            let line = tree.principal_variation(child.action, settings.pv_len + 1);
            let mut position = searched_game.clone();
            let pv: Vec<Value> = line
                .iter()
                .map(|&(action, _)| {
                    let text = position.action_to_string(action);
                    position.apply(action);
                    Value::from(text)
                })
                .collect();
            let mut info = Map::new();
            info.insert(
                "move".to_owned(),
                Value::from(game.action_to_string(child.action)),
            );
            info.insert("visits".to_owned(), Value::from(child.visits));
            info.insert("winrate".to_owned(), Value::from(winrate(game_value)));
            let lead = sign * f64::from(child.lead.unwrap_or(0.0));
            info.insert("scoreLead".to_owned(), Value::from(lead));
            info.insert("scoreMean".to_owned(), Value::from(lead));
            info.insert("prior".to_owned(), Value::from(f64::from(child.prior)));
            info.insert("lcb".to_owned(), Value::from(lcb));
            info.insert("utility".to_owned(), Value::from(sign * utility));
            info.insert(
                "utilityLcb".to_owned(),
                Value::from(sign * (utility - z * error)),
            );
            info.insert("order".to_owned(), Value::from(order));
            info.insert("pv".to_owned(), Value::Array(pv));
            if asked.include_pv_visits {
                let visits = line
                    .iter()
                    .map(|&(_, visits)| Value::from(visits))
                    .collect();
                info.insert("pvVisits".to_owned(), Value::Array(visits));
            }
            if asked.include_moves_ownership
                && let Some(ownership) = tree.ownership_after(child.action)
            {
                info.insert("ownership".to_owned(), cells(&ownership, sign));
            }
            Value::Object(info)
        })
        .collect();
    let root_value = f64::from(tree.root_game_value());
    let root_error = f64::from(tree.root_value_error().unwrap_or(0.0));
    let root = root_info(
        game,
        RootFigures {
            winrate: winrate(root_value),
            lcb: win_rate_lcb(root_value, z * root_error, sign),
            lead: sign * f64::from(tree.root_lead()),
            utility: sign * f64::from(tree.root_value()),
            visits: tree.root_visit_count(),
        },
    );
    let mut line = header(&asked.id, turn, during_search);
    line.insert("moveInfos".to_owned(), Value::Array(move_infos));
    line.insert("rootInfo".to_owned(), root);
    if asked.include_policy
        && let Some(policy) = tree.root_policy()
    {
        line.insert("policy".to_owned(), policy_values(searched_game, policy));
    }
    if asked.include_ownership
        && let Some(ownership) = tree.ownership()
    {
        line.insert("ownership".to_owned(), cells(&ownership, sign));
    }
    Value::Object(line).to_string()
}

/// A lower bound on the win rate of the side to move whose game value is `game_value` (from
/// its view), `margin` game-value units down, in win-rate units from the view `sign` says:
/// seen from the other side it is that side's bound the other way.
fn win_rate_lcb(game_value: f64, margin: f64, sign: f64) -> f64 {
    let mover_lcb = (game_value - margin + 1.0) / 2.0;
    if sign > 0.0 {
        mover_lcb
    } else {
        1.0 - mover_lcb
    }
}

/// Ownership, one value a cell, from the view `sign` says (it is the side to move's).
fn cells(ownership: &[f32], sign: f64) -> Value {
    Value::Array(
        ownership
            .iter()
            .map(|&o| Value::from(sign * f64::from(o)))
            .collect(),
    )
}

/// The network's policy over every action: the legal ones' priors summing to one, -1 where
/// an action is illegal (for Go, KataGo's layout: the points row by row from the top left,
/// then pass).
fn policy_values<G: Game>(game: &G, policy: &[f32]) -> Value {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let total: f64 = legal
        .iter()
        .map(|&a| f64::from(policy.get(a).copied().unwrap_or(0.0)))
        .sum();
    let mut values = vec![-1.0; game.num_actions()];
    for &action in &legal {
        let p = f64::from(policy.get(action).copied().unwrap_or(0.0));
        values[action] = if total > 0.0 {
            p / total
        } else {
            1.0 / legal.len() as f64
        };
    }
    Value::from(values)
}

/// The result for a turn where the game is over: no move to search, the result exact.
pub(crate) fn game_over<G: Game>(asked: &Asked, turn: usize, game: &G) -> String {
    let mover = game.to_move();
    let sign = asked.settings.perspective.sign(mover);
    let value = game
        .outcome()
        .map_or(0.0, |outcome| f64::from(outcome.value_for(mover)));
    let winrate = (sign * value + 1.0) / 2.0;
    let root = root_info(
        game,
        RootFigures {
            winrate,
            lcb: winrate,
            lead: sign * f64::from(game.score_lead(mover)),
            utility: sign * value,
            visits: 0,
        },
    );
    let mut line = header(&asked.id, turn, false);
    line.insert("moveInfos".to_owned(), Value::Array(Vec::new()));
    line.insert("rootInfo".to_owned(), root);
    line.insert(
        "gameOver".to_owned(),
        Value::from(game.result_text().unwrap_or_default()),
    );
    Value::Object(line).to_string()
}
