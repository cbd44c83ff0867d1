//! What an analysis keeps of the evaluations beyond what search needs: the root's policy as
//! the evaluator gave it, and each evaluated node's ownership, so that the ownership reported
//! is the search's (KataGo averages it over the tree) rather than the network's guess at the
//! root. Off unless asked for ([`Tree::keep_evaluations`]): self-play keeps nothing.

use super::Tree;
use crate::nodes::{NodeId, ROOT};
use game::{Evaluation, Game};

/// What to keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keep {
    pub root_policy: bool,
    pub ownership: bool,
}

/// The kept evaluations of one root's search.
#[derive(Clone, Debug, Default)]
pub(super) struct Kept {
    pub keep: Keep,
    /// The root's policy over all actions, once the root is evaluated.
    pub root_policy: Option<Vec<f32>>,
    /// Each node's ownership, from its side to move's view: `at[node]` is its first cell in
    /// `cells`, or [`NONE`].
    at: Vec<u32>,
    cells: Vec<f32>,
    /// Values a node's ownership has (all nodes' are the same grid).
    per_node: usize,
}

const NONE: u32 = u32::MAX;

impl Kept {
    /// Forgets everything kept (a new root, or node ids renumbered).
    pub fn clear(&mut self) {
        self.root_policy = None;
        self.at.clear();
        self.cells.clear();
    }

    /// Keeps what is asked of `node`'s evaluation.
    pub fn store(&mut self, node: NodeId, evaluation: &Evaluation) {
        if self.keep.root_policy && node == ROOT {
            self.root_policy = Some(evaluation.policy.clone());
        }
        if !self.keep.ownership || evaluation.ownership.is_empty() {
            return;
        }
        self.per_node = evaluation.ownership.len();
        let index = node as usize;
        if self.at.len() <= index {
            self.at.resize(index + 1, NONE);
        }
        self.at[index] = self.cells.len() as u32;
        self.cells.extend_from_slice(&evaluation.ownership);
    }

    fn of(&self, node: NodeId) -> Option<&[f32]> {
        let start = *self.at.get(node as usize)?;
        (start != NONE).then(|| &self.cells[start as usize..][..self.per_node])
    }
}

impl<G: Game> Tree<G> {
    /// Keeps, from the next root on, the root's policy and each evaluated node's ownership
    /// (where the evaluator gives one, [`game::Evaluator::want_ownership`]).
    pub fn keep_evaluations(&mut self, keep: Keep) {
        self.kept.keep = keep;
        self.kept.clear();
    }

    /// The root's policy over all actions, as the evaluator gave it (before any noise), if
    /// it is kept and the root was evaluated.
    pub fn root_policy(&self) -> Option<&[f32]> {
        self.kept.root_policy.as_deref()
    }

    /// The ownership the search found below the root, from the root's side to move's view:
    /// the mean, over every node it evaluated, of that evaluation's ownership (each node
    /// once, seen from the root's side to move). With one visit it is the network's at the
    /// root. `None` where no ownership was kept.
    pub fn ownership(&self) -> Option<Vec<f32>> {
        self.subtree_ownership(ROOT)
    }

    /// The same below the root's move `action` (KataGo's `includeMovesOwnership`), still
    /// from the root's side to move's view; `None` for a move not searched.
    pub fn ownership_after(&self, action: usize) -> Option<Vec<f32>> {
        let child = self
            .nodes
            .edges_of(ROOT)
            .iter()
            .find(|edge| edge.action as usize == action)?
            .child()?;
        self.subtree_ownership(child)
    }

    fn subtree_ownership(&self, top: NodeId) -> Option<Vec<f32>> {
        let root_mover = self.nodes.node(ROOT).to_move;
        let mut sum = vec![0.0f64; self.kept.per_node];
        let mut count = 0u32;
        let mut stack = vec![top];
        while let Some(node) = stack.pop() {
            if let Some(cells) = self.kept.of(node) {
                let sign = if self.nodes.node(node).to_move == root_mover {
                    1.0
                } else {
                    -1.0
                };
                for (total, &cell) in sum.iter_mut().zip(cells) {
                    *total += sign * f64::from(cell);
                }
                count += 1;
            }
            stack.extend(
                self.nodes
                    .edges_of(node)
                    .iter()
                    .filter_map(|edge| edge.child()),
            );
        }
        (count > 0).then(|| {
            sum.iter()
                .map(|&total| (total / f64::from(count)) as f32)
                .collect()
        })
    }
}
