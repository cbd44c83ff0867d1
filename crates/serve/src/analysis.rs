//! What the search thinks of a position: the network's prior per hex for the heat map, the
//! visits the search spent, and the win probability from the root value.

use crate::colour::{Colour, PerColour};
use game::Game;
use ghast::{Action, Ghast};
use mcts::{ChildStats, SearchResult};
use serde::Serialize;
use std::collections::BTreeMap;

/// How many moves the list of best moves shows.
const TOP_MOVES: usize = 8;

#[derive(Debug, Serialize)]
pub struct Analysis {
    pub to_move: Colour,
    pub visits: u32,
    /// Root value in [-1, 1] from the view of the side to move.
    pub value: f32,
    /// `(1 + value) / 2` seen from each side: the search's win chance (draws count half).
    pub win_probability: PerColour<f32>,
    /// Every hex some legal placement goes to.
    pub hexes: Vec<HexAnalysis>,
    /// The most visited moves (then the likeliest by prior), best first.
    pub moves: Vec<MoveAnalysis>,
}

/// The policy summed over the six orientations of one hex.
#[derive(Debug, Serialize)]
pub struct HexAnalysis {
    pub name: String,
    pub prior: f32,
    pub visits: u32,
    /// The orientation with the highest prior here.
    pub best: String,
}

#[derive(Debug, Serialize)]
pub struct MoveAnalysis {
    #[serde(rename = "move")]
    pub text: String,
    pub prior: f32,
    pub visits: u32,
    /// The side to move's win chance after this move; `None` while unvisited.
    pub win_probability: Option<f32>,
}

impl Analysis {
    pub fn of(game: &Ghast, result: &SearchResult, children: &[ChildStats]) -> Analysis {
        let geometry = game.options().geometry();
        let to_move = game.to_move();
        let win = |value: f32| (1.0 + value) / 2.0;
        let mut hexes: BTreeMap<usize, (HexAnalysis, f32)> = BTreeMap::new();
        for child in children {
            if let Some(Action::Place { cell, .. }) = Action::from_index(child.action, geometry) {
                let (hex, best_prior) = hexes.entry(cell).or_insert_with(|| {
                    let empty = HexAnalysis {
                        name: geometry.hex_name(cell),
                        prior: 0.0,
                        visits: 0,
                        best: String::new(),
                    };
                    (empty, f32::NEG_INFINITY)
                });
                hex.prior += child.prior;
                hex.visits += child.visits;
                if child.prior > *best_prior {
                    *best_prior = child.prior;
                    hex.best = game.action_to_string(child.action);
                }
            }
        }
        let mut ranked: Vec<&ChildStats> = children.iter().collect();
        ranked.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
        let moves = ranked
            .into_iter()
            .take(TOP_MOVES)
            .map(|child| MoveAnalysis {
                text: game.action_to_string(child.action),
                prior: child.prior,
                visits: child.visits,
                win_probability: child.value.map(win),
            })
            .collect();
        let value = result.value;
        Analysis {
            to_move: to_move.into(),
            visits: result.total_visits,
            value,
            win_probability: PerColour::from_fn(|side| {
                win(if side == to_move { value } else { -value })
            }),
            hexes: hexes.into_values().map(|(hex, _)| hex).collect(),
            moves,
        }
    }
}
