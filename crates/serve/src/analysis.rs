//! What the search thinks of a position: the network's prior per hex or point for the heat
//! map, the visits the search spent, and the win probability from the root value.

use game::{BoardView, Side, colour_name};
use serde::Serialize;
use std::collections::BTreeMap;

/// How many moves the list of best moves shows.
const TOP_MOVES: usize = 8;

#[derive(Debug, Serialize)]
pub struct Analysis {
    pub to_move: &'static str,
    pub visits: u32,
    /// Root value in [-1, 1] from the view of the side to move.
    pub value: f32,
    /// `(1 + value) / 2` seen from the first and the second side: the search's win chance
    /// (draws count half).
    pub win_probability: [f32; 2],
    /// Every hex or point some legal move goes to.
    pub targets: Vec<TargetAnalysis>,
    /// The most visited moves (then the likeliest by prior), best first.
    pub moves: Vec<MoveAnalysis>,
}

/// The policy summed over the moves to one hex (a Ghast hex takes six orientations) or point.
#[derive(Debug, Serialize)]
pub struct TargetAnalysis {
    pub name: String,
    pub prior: f32,
    pub visits: u32,
    /// The move with the highest prior here.
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
    pub fn of<G: BoardView>(game: &G, search: &play::Analysis) -> Analysis {
        let to_move = game.to_move();
        let win = |value: f32| (1.0 + value) / 2.0;
        let mut targets: BTreeMap<String, (TargetAnalysis, f32)> = BTreeMap::new();
        for stats in &search.moves {
            let Some(name) = game.target_name(stats.action) else {
                continue;
            };
            let (target, best_prior) = targets.entry(name.clone()).or_insert_with(|| {
                let empty = TargetAnalysis {
                    name,
                    prior: 0.0,
                    visits: 0,
                    best: String::new(),
                };
                (empty, f32::NEG_INFINITY)
            });
            target.prior += stats.prior;
            target.visits += stats.visits;
            if stats.prior > *best_prior {
                *best_prior = stats.prior;
                target.best = stats.text.clone();
            }
        }
        // play::Analysis lists the most visited moves first, then the likeliest by prior.
        let moves = search
            .moves
            .iter()
            .take(TOP_MOVES)
            .map(|stats| MoveAnalysis {
                text: stats.text.clone(),
                prior: stats.prior,
                visits: stats.visits,
                win_probability: stats.value.map(win),
            })
            .collect();
        let value = search.value;
        Analysis {
            to_move: colour_name::<G>(to_move),
            visits: search.total_visits,
            value,
            win_probability: Side::BOTH
                .map(|side| win(if side == to_move { value } else { -value })),
            targets: targets.into_values().map(|(target, _)| target).collect(),
            moves,
        }
    }
}
