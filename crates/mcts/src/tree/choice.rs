//! Reading the root: its children's statistics and the move to play.

use super::{Tree, side_sign};
use crate::arena::ROOT;
use game::Game;
use rand::Rng;

/// One legal move at the root.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChildStats {
    pub action: usize,
    pub visits: u32,
    /// The prior the search used (noise included).
    pub prior: f32,
    /// Mean value after this move, from the view of the side to move at the root; `None`
    /// while unvisited.
    pub value: Option<f32>,
}

impl<G: Game> Tree<G> {
    /// Every legal move at the root (none before the root is evaluated), in the tree's order.
    pub fn root_children(&self) -> impl Iterator<Item = ChildStats> + '_ {
        let sign = side_sign(self.arena.node(ROOT).to_move);
        self.arena.edges_of(ROOT).iter().map(move |edge| {
            let child = edge.child().map(|id| self.arena.node(id));
            let visits = child.map_or(0, |c| c.visits);
            ChildStats {
                action: edge.action as usize,
                visits,
                prior: edge.prior,
                value: child
                    .filter(|_| visits > 0)
                    .map(|c| sign * c.value_sum / visits as f32),
            }
        })
    }

    /// The sparse policy target: `(action, visits)` for every visited root move.
    pub fn root_visits(&self) -> Vec<(usize, u32)> {
        self.root_children()
            .filter(|child| child.visits > 0)
            .map(|child| (child.action, child.visits))
            .collect()
    }

    /// The most visited move, ties going to the better value, then to the tree's order. With
    /// no visited move yet, the move with the highest prior.
    ///
    /// # Panics
    /// If the root has not been evaluated (no budget spent yet) or the game is over.
    pub fn best_action(&self) -> usize {
        let key = |child: &ChildStats| {
            (
                child.visits,
                child.value.unwrap_or(f32::NEG_INFINITY),
                child.prior,
            )
        };
        self.root_children()
            .reduce(|best, child| {
                if key(&child) > key(&best) {
                    child
                } else {
                    best
                }
            })
            .expect("search the root before choosing a move")
            .action
    }

    /// A move drawn with probability proportional to `visits^(1 / temperature)`; at
    /// temperature 0 (or with nothing visited yet) [`Tree::best_action`].
    pub fn choose_action(&mut self, temperature: f32) -> usize {
        let max_visits = self.root_children().map(|c| c.visits).max().unwrap_or(0);
        if temperature <= 0.0 || max_visits == 0 {
            return self.best_action();
        }
        // Relative to the most visited move so that small temperatures cannot overflow.
        let weight =
            |child: ChildStats| (child.visits as f32 / max_visits as f32).powf(1.0 / temperature);
        let total: f32 = self.root_children().map(weight).sum();
        let mut draw = self.rng.random::<f32>() * total;
        let mut last_visited = None;
        for child in self.root_children().filter(|c| c.visits > 0) {
            draw -= weight(child);
            if draw < 0.0 {
                return child.action;
            }
            last_visited = Some(child.action);
        }
        last_visited.expect("some move is visited")
    }
}
