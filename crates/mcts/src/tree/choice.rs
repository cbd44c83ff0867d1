//! Reading the root: its children's statistics and the move to play.

use super::descent::forced_visits;
use super::{Tree, side_sign};
use crate::config::{Formula, MoveChoice};
use crate::nodes::{Edge, Node, NodeState, ROOT};
use game::Game;
use rand::Rng;

/// [`MoveChoice::Lcb`] only weighs moves with at least this share of the top move's visits
/// (KataGo's `minVisitPropForLCB`).
const LCB_MIN_VISIT_SHARE: f32 = 0.15;
/// The spread a move's value is assumed to have before its visits say otherwise, and how many
/// visits that assumption weighs: one lucky visit must not look certain.
const LCB_PRIOR_VARIANCE: f32 = 0.25;
const LCB_PRIOR_WEIGHT: f32 = 2.0;

/// One legal move at the root.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChildStats {
    pub action: usize,
    pub visits: u32,
    /// The prior the search used (noise included).
    pub prior: f32,
    /// Mean value after this move (the search's utility, score term included), from the
    /// view of the side to move at the root; `None` while unvisited.
    pub value: Option<f32>,
    /// Mean game value after this move (win minus loss probability, no score term), from
    /// the same view; `None` while unvisited.
    pub game_value: Option<f32>,
    /// Mean score lead after this move, from the same view; `None` while unvisited.
    pub lead: Option<f32>,
    /// The standard error of [`ChildStats::value`]: the spread of the values backed up
    /// through this move (with a prior spread, so that one visit is not certain) over the
    /// root of its visits. A lower confidence bound is `value - z * value_error`.
    pub value_error: Option<f32>,
}

impl<G: Game> Tree<G> {
    /// Every legal move at the root (none before the root is evaluated), in the tree's order.
    pub fn root_children(&self) -> impl Iterator<Item = ChildStats> + '_ {
        let sign = side_sign(self.nodes.node(ROOT).to_move);
        self.nodes.edges_of(ROOT).iter().map(move |edge| {
            let child = edge.child().map(|id| self.nodes.node(id));
            let visits = child.map_or(0, |c| c.visits);
            ChildStats {
                action: edge.action as usize,
                visits,
                prior: edge.prior,
                value: child
                    .filter(|_| visits > 0)
                    .map(|c| sign * c.value_sum / visits as f32),
                game_value: child
                    .filter(|_| visits > 0)
                    .map(|c| sign * c.game_value_sum / visits as f32),
                lead: child
                    .filter(|_| visits > 0)
                    .map(|c| sign * c.lead_sum / visits as f32),
                value_error: child.filter(|_| visits > 0).map(standard_error),
            }
        })
    }

    /// The root's mean score lead from the view of its side to move (0 before any visit).
    pub fn root_lead(&self) -> f32 {
        let root = self.nodes.node(ROOT);
        if root.visits == 0 {
            return 0.0;
        }
        side_sign(root.to_move) * root.lead_sum / root.visits as f32
    }

    /// The standard error of the root's value (as [`ChildStats::value_error`] is a move's):
    /// what a lower confidence bound of the position takes off; `None` before any visit.
    pub fn root_value_error(&self) -> Option<f32> {
        let root = self.nodes.node(ROOT);
        (root.visits > 0).then(|| standard_error(root))
    }

    /// The principal variation that starts with the root move `action`: that move, then at
    /// each node the most visited move (the first of equals), while the nodes have been
    /// visited, at most `len` moves in all; each with its visits. Chance's outcomes are
    /// moves like any other here: the most visited roll stands for the dice.
    pub fn principal_variation(&self, action: usize, len: usize) -> Vec<(usize, u32)> {
        let mut line = Vec::new();
        let mut next = self
            .nodes
            .edges_of(ROOT)
            .iter()
            .find(|edge| edge.action as usize == action)
            .and_then(|edge| edge.child().map(|child| (edge.action as usize, child)));
        while let Some((action, id)) = next {
            let node = self.nodes.node(id);
            if line.len() >= len || node.visits == 0 {
                break;
            }
            line.push((action, node.visits));
            next = self
                .nodes
                .edges_of(id)
                .iter()
                .filter_map(|edge| {
                    let child = edge.child()?;
                    Some((edge.action as usize, child, self.nodes.node(child).visits))
                })
                .filter(|&(_, _, visits)| visits > 0)
                .reduce(|best, next| if next.2 > best.2 { next } else { best })
                .map(|(action, child, _)| (action, child));
        }
        line
    }

    /// The sparse policy target: `(action, visits)` for every visited root move.
    pub fn root_visits(&self) -> Vec<(usize, u32)> {
        self.root_children()
            .filter(|child| child.visits > 0)
            .map(|child| (child.action, child.visits))
            .collect()
    }

    /// The policy target of the finished search as `(action, probability)` over root moves:
    /// under Gumbel search the improved policy, otherwise the visit distribution, minus the
    /// visits that forced playouts added without the move earning them (KataGo's policy
    /// target pruning).
    pub fn policy_target(&self) -> Vec<(usize, f32)> {
        let mut target = match self.config.formula {
            Formula::Gumbel => self.improved_policy(),
            Formula::Puct | Formula::Ucb1 => self.pruned_visits(),
        };
        let total: f32 = target.iter().map(|&(_, p)| p).sum();
        target.retain(|&(_, p)| p > 0.0);
        for (_, p) in &mut target {
            *p /= total.max(f32::MIN_POSITIVE);
        }
        target
    }

    /// How much `target` taught the network: its KL divergence from the root's priors as the
    /// evaluator gave them (before any noise), in nats. The trainer shows surprising
    /// positions more often (KataGo's policy surprise weighting).
    pub fn policy_surprise(&self, target: &[(usize, f32)]) -> f32 {
        let raw: Vec<(u32, f32)> = if self.root_noised {
            self.raw_root_priors.clone()
        } else {
            self.nodes
                .edges_of(ROOT)
                .iter()
                .map(|edge| (edge.action, edge.prior))
                .collect()
        };
        target
            .iter()
            .filter(|&&(_, p)| p > 0.0)
            .map(|&(action, p)| {
                let prior = raw
                    .iter()
                    .find(|&&(a, _)| a as usize == action)
                    .map_or(0.0, |&(_, prior)| prior);
                p * (p / prior.max(1e-6)).ln()
            })
            .sum::<f32>()
            .max(0.0)
    }

    /// Root visit counts as weights, with forced playouts taken back where they were used:
    /// each move other than the most visited loses as many of its forced visits as it can
    /// while its PUCT score stays below the best move's, and a move left with one visit or
    /// none is dropped.
    fn pruned_visits(&self) -> Vec<(usize, f32)> {
        let mut target: Vec<(usize, f32)> = self
            .root_visits()
            .into_iter()
            .map(|(action, visits)| (action, visits as f32))
            .collect();
        let k = self.config.forced_playouts;
        if !(self.root_noised && k > 0.0 && self.config.formula == Formula::Puct) {
            return target;
        }
        let children: Vec<ChildStats> = self.root_children().filter(|c| c.visits > 0).collect();
        let Some(best) = children.iter().max_by_key(|c| c.visits) else {
            return target;
        };
        let total: f32 = children.iter().map(|c| c.visits as f32).sum();
        let explore = self.exploration(ROOT, total);
        let puct = |c: &ChildStats, visits: f32| {
            c.value.unwrap_or(0.0) + explore * c.prior / (1.0 + visits)
        };
        let best_score = puct(best, best.visits as f32);
        for (entry, child) in target.iter_mut().zip(&children) {
            debug_assert_eq!(entry.0, child.action);
            if child.action == best.action {
                continue;
            }
            let visits = child.visits as f32;
            let gap = best_score - child.value.unwrap_or(0.0);
            // The fewest visits at which the move's PUCT score is still no higher than the
            // best move's.
            let needed = if gap > 0.0 {
                (explore * child.prior / gap - 1.0).ceil().max(0.0)
            } else {
                visits
            };
            let forced = forced_visits(k, child.prior, total).floor();
            let kept = (visits - forced).max(needed).min(visits);
            entry.1 = if kept <= 1.0 { 0.0 } else { kept };
        }
        target
    }

    /// The root's moves that a choice (by visits, by LCB or drawn) may play: all but those that
    /// end the game lost for the side to move, unless nothing else is legal. A known loss is
    /// never better than a move still in doubt, but visits alone can prefer it: at low visits,
    /// the leaves in flight of one batch spread by prior, and a terminal child is backed up at
    /// once, so a losing pass with a high prior gathered 3 of 32 visits where each good move had
    /// 2 (the Go bot at 32 visits passed into a lost count in 2 of 20 games against `random`).
    fn choosable_children(&self) -> impl Iterator<Item = ChildStats> + '_ {
        let any_choosable = self.some_move_does_not_lose_at_once();
        self.nodes
            .edges_of(ROOT)
            .iter()
            .zip(self.root_children())
            .filter(move |(edge, _)| !any_choosable || !self.loses_at_once(edge))
            .map(|(_, child)| child)
    }

    fn some_move_does_not_lose_at_once(&self) -> bool {
        self.nodes
            .edges_of(ROOT)
            .iter()
            .any(|edge| !self.loses_at_once(edge))
    }

    /// Whether the root move on `edge` has been found to end the game lost for the side to
    /// move at the root.
    fn loses_at_once(&self, edge: &Edge) -> bool {
        let sign = side_sign(self.nodes.node(ROOT).to_move);
        edge.child().is_some_and(|child| {
            matches!(self.nodes.node(child).state,
                NodeState::Terminal(exact) if sign * exact.game_value < 0.0)
        })
    }

    /// The move to play: the sequential-halving winner under Gumbel search, otherwise by the
    /// config's [`MoveChoice`].
    ///
    /// # Panics
    /// If the root has not been evaluated (no budget spent yet) or the game is over.
    pub fn best_action(&self) -> usize {
        if self.config.formula == Formula::Gumbel
            && let Some(action) = self.gumbel_winner()
        {
            return action;
        }
        match self.config.move_choice {
            MoveChoice::MostVisits => self.most_visited(),
            MoveChoice::Lcb => self.lcb_action().unwrap_or_else(|| self.most_visited()),
        }
    }

    /// The most visited move, ties going to the better value, then to the tree's order. With
    /// no visited move yet, the move with the highest prior. Never a move that loses at once
    /// while another is legal ([`Tree::choosable_children`]).
    fn most_visited(&self) -> usize {
        let key = |child: &ChildStats| {
            (
                child.visits,
                child.value.unwrap_or(f32::NEG_INFINITY),
                child.prior,
            )
        };
        self.choosable_children()
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

    /// The move with the best lower confidence bound on its value among well-visited moves.
    fn lcb_action(&self) -> Option<usize> {
        let most = self.root_children().map(|c| c.visits).max()?;
        let floor = (LCB_MIN_VISIT_SHARE * most as f32).max(1.0);
        let z = self.config.lcb_stdevs;
        self.choosable_children()
            .filter(|child| child.visits as f32 >= floor)
            .filter_map(|child| {
                let bound = child.value? - z * child.value_error?;
                Some((child.action, bound, child.visits))
            })
            .reduce(|best, next| {
                if (next.1, next.2) > (best.1, best.2) {
                    next
                } else {
                    best
                }
            })
            .map(|(action, _, _)| action)
    }

    /// A move drawn with probability proportional to `visits^(1 / temperature)`; at
    /// temperature 0 (or with nothing visited yet) [`Tree::best_action`]. Gumbel search
    /// ignores the temperature: its root noise already made the draw.
    pub fn choose_action(&mut self, temperature: f32) -> usize {
        if self.config.formula == Formula::Gumbel {
            return self.best_action();
        }
        let choosable: Vec<ChildStats> = self.choosable_children().collect();
        let max_visits = choosable.iter().map(|c| c.visits).max().unwrap_or(0);
        if temperature <= 0.0 || max_visits == 0 {
            return self.best_action();
        }
        // Relative to the most visited move so that small temperatures cannot overflow.
        let weight =
            |child: &ChildStats| (child.visits as f32 / max_visits as f32).powf(1.0 / temperature);
        let total: f32 = choosable.iter().map(weight).sum();
        let mut draw = self.rng.random::<f32>() * total;
        let mut last_visited = None;
        for child in choosable.iter().filter(|c| c.visits > 0) {
            draw -= weight(child);
            if draw < 0.0 {
                return child.action;
            }
            last_visited = Some(child.action);
        }
        last_visited.expect("some move is visited")
    }
}

/// The standard error of a visited node's mean value: the spread of its backed-up values,
/// with [`LCB_PRIOR_VARIANCE`] weighing [`LCB_PRIOR_WEIGHT`] visits, over the root of its
/// visits.
fn standard_error(node: &Node) -> f32 {
    let variance = node.utility_variance(LCB_PRIOR_VARIANCE, LCB_PRIOR_WEIGHT);
    (variance / node.visits as f32).sqrt()
}
