//! The three phases of a step inside one tree: collect leaves (selection with virtual loss),
//! then, once the batch is evaluated, expand them and back their values up.

use super::{Leaf, Tree, side_sign};
use crate::config::{ChanceChoice, Formula, LeadSource};
use crate::nodes::{Backup, Edge, NodeId, NodeState, ROOT};
use crate::noise::dirichlet;
use game::Evaluation;
use game::Game;
use rand::Rng;
use rand::seq::SliceRandom;
use std::ops::Range;

/// How one descent from the root ended.
enum Descent {
    /// At a new node, now waiting for evaluation.
    Leaf,
    /// At a finished game: already backed up with its exact value.
    Terminal,
    /// At a node already waiting in this batch: nothing to do until it is evaluated.
    Collision,
}

impl<G: Game> Tree<G> {
    /// Walks down to new leaves, up to `leaves_per_tree` of them and no more than the budget
    /// allows, and returns how many wait for evaluation (their positions are
    /// [`Tree::pending_states`]).
    pub(crate) fn collect(&mut self) -> usize {
        debug_assert!(self.leaves.is_empty(), "collect after finish");
        self.noise_root();
        let max_leaves = self.config.leaves_per_tree.max(1) as usize;
        while self.leaves.len() < max_leaves && !self.budget_reached() {
            if let Descent::Collision = self.descend() {
                break;
            }
        }
        self.leaves.len()
    }

    pub(crate) fn pending_states(&self) -> &[G] {
        &self.leaf_states[..self.leaves.len()]
    }

    pub(crate) fn pending_count(&self) -> usize {
        self.leaves.len()
    }

    /// Expands the pending leaves with their evaluations (in `pending_states` order) and backs
    /// the values up.
    pub(crate) fn finish(&mut self, evaluations: &[Evaluation]) {
        debug_assert_eq!(evaluations.len(), self.leaves.len());
        for (slot, evaluation) in evaluations.iter().enumerate() {
            let Leaf { node, path } = self.leaves[slot].clone();
            let lead = match self.config.lead_source {
                LeadSource::Network => evaluation.lead,
                LeadSource::Position => {
                    let state = &self.leaf_states[slot];
                    state.score_lead(state.to_move())
                }
            };
            let backup = self.backup_of(evaluation.value, lead);
            self.nodes.node_mut(node).raw_value = backup.utility;
            self.kept.store(node, evaluation);
            // The root is depth 0; the leaf is the path's last node.
            let depth = (path.len() - 1) as u32;
            self.expand(node, slot, depth, &evaluation.policy);
            let sign = side_sign(self.nodes.node(node).to_move);
            let first_side_view = Backup {
                utility: sign * backup.utility,
                game_value: sign * backup.game_value,
                lead: sign * backup.lead,
            };
            self.backup(path, first_side_view, true);
        }
        self.leaves.clear();
        self.path.clear();
    }

    fn budget_reached(&self) -> bool {
        let root = self.nodes.node(ROOT);
        matches!(root.state, NodeState::Terminal(_)) || root.visits + root.in_flight >= self.budget
    }

    fn descend(&mut self) -> Descent {
        let slot = self.leaves.len();
        match self.leaf_states.get_mut(slot) {
            Some(state) => state.clone_from(&self.root_state),
            None => self.leaf_states.push(self.root_state.clone()),
        }
        let start = self.path.len();
        let mut node = ROOT;
        loop {
            self.path.push(node);
            match self.nodes.node(node).state {
                NodeState::Fresh => {
                    self.nodes.node_mut(node).state = NodeState::Pending;
                    for &id in &self.path[start..] {
                        self.nodes.node_mut(id).in_flight += 1;
                    }
                    let path = start..self.path.len();
                    self.leaves.push(Leaf { node, path });
                    return Descent::Leaf;
                }
                NodeState::Pending => {
                    self.path.truncate(start);
                    return Descent::Collision;
                }
                NodeState::Terminal(backup) => {
                    self.backup(start..self.path.len(), backup, false);
                    self.path.truncate(start);
                    return Descent::Terminal;
                }
                NodeState::Expanded | NodeState::Chance => {
                    let chance = self.nodes.node(node).state == NodeState::Chance;
                    let edge = if chance {
                        self.select_chance(node)
                    } else if self.erratic_here(node) {
                        self.random_edge(node)
                    } else {
                        self.select(node)
                    };
                    let state = &mut self.leaf_states[slot];
                    state.apply(self.nodes.edges[edge].action as usize);
                    node = match self.nodes.edges[edge].child() {
                        Some(child) => child,
                        None => {
                            let state = &self.leaf_states[slot];
                            let child_state = self.node_state(state);
                            let to_move = state.to_move();
                            let child = self.nodes.add_child(edge, to_move, child_state);
                            match child_state {
                                NodeState::Terminal(backup) => {
                                    self.nodes.node_mut(child).raw_value =
                                        side_sign(to_move) * backup.utility;
                                }
                                NodeState::Chance => self.add_chance_edges(child, Some(slot)),
                                _ => {}
                            }
                            if self.keeps_prior_order(node) {
                                let range = self.nodes.edge_range(node);
                                promote_next(&mut self.nodes.edges[range]);
                            }
                            child
                        }
                    };
                }
            }
        }
    }

    /// The outcome to descend into at the chance node `node`, as [`ChanceChoice`] says.
    fn select_chance(&mut self, node: NodeId) -> usize {
        match self.config.chance {
            ChanceChoice::Stratified => self.most_lagging_outcome(node),
            ChanceChoice::Sampled => self.sampled_outcome(node),
        }
    }

    /// The outcome whose share of the node's visits lags its probability most,
    /// `p * (N + 1) - n` with visits in flight counted, ties to the edges' order (shuffled
    /// once per node). Visits so follow the probabilities without sampling noise
    /// (stratified): after `N` descents every outcome has `p * N` of them, give or take one.
    fn most_lagging_outcome(&self, node: NodeId) -> usize {
        let parent = self.nodes.node(node);
        let next = (parent.visits + parent.in_flight + 1) as f32;
        let range = self.nodes.edge_range(node);
        let mut best = range.start;
        let mut best_lag = f32::NEG_INFINITY;
        for edge_index in range {
            let edge = &self.nodes.edges[edge_index];
            let counted = edge.child().map_or(0, |child| {
                let child = self.nodes.node(child);
                child.visits + child.in_flight
            });
            let lag = edge.prior * next - counted as f32;
            if lag > best_lag {
                best = edge_index;
                best_lag = lag;
            }
        }
        best
    }

    /// Whether this descent plays a random action at `node`: a decision below the root of the
    /// side [`Tree::expect_erratic`] names, with its probability.
    fn erratic_here(&mut self, node: NodeId) -> bool {
        match self.erratic {
            Some((side, rate)) if node != ROOT && self.nodes.node(node).to_move == side => {
                self.rng.random::<f32>() < rate
            }
            _ => false,
        }
    }

    /// A uniformly random edge of the decision node `node` (which keeps every legal action,
    /// see [`Tree::edges_to_keep`]). A new child takes the first childless place, so the
    /// edges with a child stay first ([`promote_next`]).
    fn random_edge(&mut self, node: NodeId) -> usize {
        let range = self.nodes.edge_range(node);
        let pick = self.rng.random_range(range.clone());
        if !self.keeps_prior_order(node) || self.nodes.edges[pick].child().is_some() {
            return pick;
        }
        let first_childless = range.start
            + self.nodes.edges[range]
                .iter()
                .position(|edge| edge.child().is_none())
                .expect("the pick has no child");
        self.nodes.edges.swap(pick, first_childless);
        first_childless
    }

    /// An outcome drawn with its probability (the edges' priors).
    fn sampled_outcome(&mut self, node: NodeId) -> usize {
        let range = self.nodes.edge_range(node);
        let mut left: f32 = self.rng.random();
        for edge_index in range.clone() {
            left -= self.nodes.edges[edge_index].prior;
            if left < 0.0 {
                return edge_index;
            }
        }
        range.end - 1
    }

    /// The index (into the node store's edges) of the child to descend into at the decision node
    /// `node`.
    fn select(&self, node: NodeId) -> usize {
        match self.config.formula {
            Formula::Gumbel if node == ROOT => return self.select_gumbel_root(),
            Formula::Gumbel => return self.select_gumbel_interior(node),
            Formula::Puct | Formula::Ucb1 => {}
        }
        let parent = self.nodes.node(node);
        let sign = side_sign(parent.to_move);
        let virtual_loss = self.config.virtual_loss as f32;
        let parent_visits = parent.visits as f32 + virtual_loss * parent.in_flight as f32;
        let c = self.config.c_puct;
        let range = self.nodes.edge_range(node);
        debug_assert!(!range.is_empty(), "an unfinished game has legal actions");
        // The child's value and (virtual) visit count from the parent's mover's view; `None`
        // while it has neither.
        let child_stats = |edge: &Edge| {
            let child = self.nodes.node(edge.child()?);
            let in_flight = virtual_loss * child.in_flight as f32;
            let visits = child.visits as f32 + in_flight;
            (visits > 0.0).then(|| ((sign * child.value_sum - in_flight) / visits, visits))
        };
        match self.config.formula {
            Formula::Puct => {
                let parent_value = sign * parent.value_sum / parent.visits.max(1) as f32;
                let fpu = parent_value - self.config.fpu_reduction;
                let explore = self.exploration(node, parent_visits);
                // Forced playouts: only where noise made the priors worth checking.
                let forced = (node == ROOT && self.root_noised)
                    .then_some(self.config.forced_playouts)
                    .filter(|&k| k > 0.0)
                    .map(|k| (k, parent_visits));
                self.argmax(range, |edge| {
                    let (value, visits) = child_stats(edge).unwrap_or((fpu, 0.0));
                    if let Some((k, total)) = forced
                        && visits < forced_visits(k, edge.prior, total)
                    {
                        // Above every PUCT score; among forced moves, the higher prior.
                        return FORCED_SCORE + edge.prior;
                    }
                    value + explore * edge.prior / (1.0 + visits)
                })
            }
            Formula::Ucb1 => {
                let log_visits = parent_visits.max(1.0).ln();
                self.argmax(range, |edge| match child_stats(edge) {
                    Some((value, visits)) => value + c * (log_visits / visits).sqrt(),
                    None => f32::INFINITY,
                })
            }
            Formula::Gumbel => unreachable!("handled above"),
        }
    }

    /// PUCT's exploration factor at `node` after `visits` (virtual ones included): the
    /// weight `c_puct`, grown with the visits ([`crate::SearchConfig::c_puct_log`]) and
    /// scaled by the spread of the node's utilities
    /// ([`crate::SearchConfig::c_puct_stdev_scale`]), times the square root of the visits.
    /// Selection and the pruning of forced playouts read the same.
    pub(super) fn exploration(&self, node: NodeId, visits: f32) -> f32 {
        let config = &self.config;
        let mut weight = config.c_puct;
        if config.c_puct_log > 0.0 {
            weight += config.c_puct_log * ((visits + C_PUCT_LOG_BASE) / C_PUCT_LOG_BASE).ln();
        }
        if config.c_puct_stdev_scale > 0.0 {
            let prior = UTILITY_STDEV_PRIOR * UTILITY_STDEV_PRIOR;
            let node = self.nodes.node(node);
            let stdev = node
                .utility_variance(prior, UTILITY_STDEV_PRIOR_WEIGHT)
                .sqrt();
            let scale = 1.0 + config.c_puct_stdev_scale * (stdev / UTILITY_STDEV_PRIOR - 1.0);
            weight *= scale.max(0.0);
        }
        weight * visits.max(1.0).sqrt()
    }

    /// The first edge in `range` with the highest score: ties go to edge order, so equal
    /// seeds give equal trees.
    ///
    /// Edges are kept in [`promote_next`] order, so the scan stops at the first edge without a
    /// child: every later one also lacks a child and has a prior no higher, hence a score no
    /// higher. A mid-game Ghast node has hundreds of moves and the search tries few of them;
    /// without the early stop this loop is most of the search time.
    pub(super) fn argmax(&self, range: Range<usize>, score: impl Fn(&Edge) -> f32) -> usize {
        let mut best = range.start;
        let mut best_score = f32::NEG_INFINITY;
        for edge_index in range {
            let edge = &self.nodes.edges[edge_index];
            let score = score(edge);
            if score > best_score {
                best = edge_index;
                best_score = score;
            }
            if edge.child().is_none() {
                break;
            }
        }
        best
    }

    fn expand(&mut self, node: NodeId, slot: usize, depth: u32, policy: &[f32]) {
        let state = &self.leaf_states[slot];
        state.legal_actions(&mut self.legal);
        if self.config.skip_futile {
            self.legal.retain(|&a| !state.is_futile(a));
            if self.legal.is_empty() {
                // Nothing but futile moves: they are all there is to search.
                state.legal_actions(&mut self.legal);
            }
        }
        if let Some(filter) = &self.filter {
            let mover = state.to_move();
            self.legal.retain(|&a| filter.permits(mover, a, depth));
            if self.legal.is_empty() {
                state.legal_actions(&mut self.legal);
            }
        }
        // Renormalised over the legal actions, so a network may spread mass over all actions.
        let total: f32 = self
            .legal
            .iter()
            .map(|&a| policy.get(a).copied().unwrap_or(0.0))
            .sum();
        let uniform = 1.0 / self.legal.len().max(1) as f32;
        let scale = if total > 0.0 { total.recip() } else { 0.0 };
        // The edges are made in a scratch buffer that stays in cache and only those the node
        // keeps are copied into the node store: writing a few hundred edges per evaluation to
        // node-store memory last touched a whole search ago was a tenth of self-play's time.
        self.candidates.clear();
        self.candidates.extend(self.legal.iter().map(|&action| {
            let prior = match policy.get(action) {
                Some(&p) if total > 0.0 => p * scale,
                _ => uniform,
            };
            Edge::new(action, prior)
        }));
        let keep = self.edges_to_keep(node).min(self.candidates.len());
        let edges = &mut self.candidates;
        match self.config.formula {
            Formula::Puct | Formula::Gumbel => {
                if keep < edges.len() {
                    edges.select_nth_unstable_by(keep.saturating_sub(1), prior_order);
                }
                promote_next(&mut edges[..keep]);
            }
            Formula::Ucb1 => edges.shuffle(&mut self.rng),
        }
        let first_edge = self.nodes.edges.len();
        self.nodes.edges.extend_from_slice(&self.candidates[..keep]);
        let expanded = self.nodes.node_mut(node);
        expanded.first_edge = u32::try_from(first_edge).expect("fewer than 2^32 edges");
        expanded.edge_count = keep as u32;
        expanded.state = NodeState::Expanded;
        if node == ROOT && self.config.formula == Formula::Gumbel {
            self.start_gumbel_root();
        }
        self.noise_root();
    }

    /// How many of its moves, by prior, `node` keeps as edges. All of them, but at the inner
    /// nodes of a Gumbel search (other than an erratic side's) no more than sequential
    /// halving's schedule lets it have children (`GumbelRoot::inner_node_children`): its
    /// children come in prior order (see [`promote_next`]), so the moves past that count
    /// could never be tried. On size 4 that is 18 of about 200 moves for a 64-visit search
    /// and 1 for a 16-visit one; making and ranking the rest was a twentieth of self-play's
    /// time. Gumbel search starts a fresh tree at every move, so an inner node never becomes
    /// a root that would need them; a later search of the same position with a larger
    /// budget keeps working, with those inner nodes limited to their first moves.
    fn edges_to_keep(&self, node: NodeId) -> usize {
        let erratic = self.erratic.map(|(side, _)| side) == Some(self.nodes.node(node).to_move);
        match self.config.formula {
            // An erratic side's random actions may be any of its moves.
            Formula::Gumbel if node != ROOT && !erratic => self.gumbel.inner_node_children(),
            _ => usize::MAX,
        }
    }

    /// Whether `node`'s edges follow the [`promote_next`] order: not under UCB1 (its order is
    /// random), nor at a Gumbel root (sequential halving visits its moves in any order), nor
    /// at a chance node (its outcomes keep the game's order).
    fn keeps_prior_order(&self, node: NodeId) -> bool {
        if self.nodes.node(node).state == NodeState::Chance {
            return false;
        }
        match self.config.formula {
            Formula::Puct => true,
            Formula::Gumbel => node != ROOT,
            Formula::Ucb1 => false,
        }
    }

    /// Adds `backup` (first side's view) to every node on `path`; `in_flight` says whether
    /// the descent had taken virtual loss that must now be released.
    fn backup(&mut self, path: Range<usize>, backup: Backup, in_flight: bool) {
        let value = backup.utility;
        for &id in &self.path[path] {
            let node = self.nodes.node_mut(id);
            node.visits += 1;
            node.value_sum += value;
            node.game_value_sum += backup.game_value;
            node.value_square_sum += value * value;
            node.lead_sum += backup.lead;
            node.in_flight -= u32::from(in_flight);
        }
    }

    /// Mixes Dirichlet noise into the root priors once per root, as soon as the root is
    /// expanded (a fresh root) or at the first step after [`Tree::advance`] (a kept one).
    ///
    /// Gumbel search takes its root noise from the Gumbel draw instead.
    fn noise_root(&mut self) {
        if !self.root_noise
            || self.root_noised
            || self.config.formula == Formula::Gumbel
            || self.nodes.node(ROOT).state != NodeState::Expanded
        {
            return;
        }
        self.root_noised = true;
        let range = self.nodes.edge_range(ROOT);
        self.raw_root_priors.clear();
        self.raw_root_priors.extend(
            self.nodes.edges[range.clone()]
                .iter()
                .map(|edge| (edge.action, edge.prior)),
        );
        self.noise.resize(range.len(), 0.0);
        let alpha = self.config.dirichlet_total_alpha / range.len() as f32;
        if dirichlet(alpha, &mut self.noise, &mut self.rng) {
            let fraction = self.config.noise_fraction;
            let edges = &mut self.nodes.edges[range];
            for (edge, &eta) in edges.iter_mut().zip(&self.noise) {
                edge.prior = (1.0 - fraction) * edge.prior + fraction * eta;
            }
            promote_next(edges);
        }
    }
}

/// The visits at which [`crate::SearchConfig::c_puct_log`] has added `c_puct_log * ln 2` to
/// the weight (KataGo's `cpuctExplorationBase`).
const C_PUCT_LOG_BASE: f32 = 500.0;
/// The utility spread at which variance scaling leaves the exploration weight as it is, and
/// the visits this prior spread counts for (KataGo's `cpuctUtilityStdevPrior` and its weight).
const UTILITY_STDEV_PRIOR: f32 = 0.4;
const UTILITY_STDEV_PRIOR_WEIGHT: f32 = 2.0;

/// Selection score of a move that has not had its forced playouts yet.
const FORCED_SCORE: f32 = 1e9;

/// KataGo's forced playouts of a root move: `sqrt(k * prior * total visits)`.
pub(super) fn forced_visits(k: f32, prior: f32, total_visits: f32) -> f32 {
    (k * prior * total_visits).sqrt()
}

/// Higher prior first, ties to the lower action (so equal seeds give equal trees): the order
/// in which a node's moves get their children.
#[inline]
fn prior_order(a: &Edge, b: &Edge) -> std::cmp::Ordering {
    b.prior.total_cmp(&a.prior).then(a.action.cmp(&b.action))
}

/// Keeps the order that lets selection stop at the first edge without a child: the edges
/// with a child come first, and the edge right after them has the highest prior of the rest
/// (ties to the lower action, so equal seeds give equal trees). Selection keeps the children
/// first, because among the edges without a child it only ever takes that one (the same
/// first-play value and the highest prior), after which this is called again.
///
/// One scan per new child, where sorting every expanded node's few hundred edges cost a
/// tenth of self-play's time, for nodes that were mostly never selected from again.
fn promote_next(edges: &mut [Edge]) {
    let Some(next) = edges.iter().position(|edge| edge.child().is_none()) else {
        return;
    };
    let best = (next..edges.len())
        .reduce(|best, index| {
            if prior_order(&edges[index], &edges[best]).is_lt() {
                index
            } else {
                best
            }
        })
        .expect("a childless edge exists");
    edges.swap(next, best);
}
