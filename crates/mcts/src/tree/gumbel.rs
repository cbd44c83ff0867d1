//! Gumbel AlphaZero (Danihelka et al., "Policy improvement by planning with Gumbel", 2022):
//! sequential halving over Gumbel-sampled moves at the root, deterministic selection inside
//! the tree, and the improved policy built from completed Q-values. Written after the paper
//! and DeepMind's mctx; the constants follow mctx's defaults.

use super::{Tree, side_sign};
use crate::nodes::{NodeId, ROOT};
use game::Game;
use rand::Rng;

/// The root's Gumbel draw and its sequential-halving schedule, made when the root is
/// expanded.
#[derive(Clone, Debug, Default)]
pub(super) struct GumbelRoot {
    /// Per root edge, in the root's edge order: the Gumbel noise plus the prior's logit.
    scores: Vec<f32>,
    /// Indices into the node store's edges of the moves sequential halving considers.
    considered: Vec<usize>,
    /// For each simulation, the visit count a considered move must have to be visited next.
    schedule: Vec<u32>,
}

impl GumbelRoot {
    /// The most children an inner node of this search can get, once the root is expanded:
    /// a root move gets at most the schedule's largest count plus one visits, the first of
    /// which expands its node and each later one adds at most one child; a deeper node gets
    /// fewer visits than its parent. (At least one, so that an expanded node has an edge.)
    pub(super) fn inner_node_children(&self) -> usize {
        self.schedule.iter().copied().max().unwrap_or(0).max(1) as usize
    }
}

/// The visit count sequential halving asks of the move it visits next, for each of `sims`
/// simulations among `considered` moves (mctx's `get_sequence_of_considered_visits`): each
/// round visits every remaining move equally, then keeps the better half, so the budget is
/// spread over about log2(m) rounds.
pub(super) fn considered_visits(considered: usize, sims: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..sims as u32).collect();
    }
    let rounds = considered.next_power_of_two().trailing_zeros() as usize;
    let mut sequence = Vec::with_capacity(sims);
    let mut visits = vec![0u32; considered];
    let mut remaining = considered;
    while sequence.len() < sims {
        let extra = (sims / (rounds * remaining)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..remaining]);
            for count in &mut visits[..remaining] {
                *count += 1;
            }
        }
        remaining = (remaining / 2).max(2);
    }
    sequence.truncate(sims);
    sequence
}

/// The completed Q-values of one node, from its mover's view, as `sigma` turns them into
/// logit bonuses: a visited move's mean value, an unvisited one's the node's mixed value
/// (its own evaluation blended with the prior-weighted values of the visited moves),
/// rescaled to [0, 1] over the node and scaled by `(c_visit + max visits) * c_scale`.
struct Completion {
    mixed_value: f32,
    low: f32,
    /// `(c_visit + max visits) * c_scale / (high - low)`.
    scale: f32,
    /// The largest `sigma` can be: subtracted before exponentiating.
    max_sigma: f32,
}

impl Completion {
    fn sigma(&self, q: Option<f32>) -> f32 {
        (q.unwrap_or(self.mixed_value) - self.low) * self.scale
    }
}

/// The prior's logit; a zero prior becomes a very negative finite number.
fn logit(prior: f32) -> f32 {
    prior.max(1e-30).ln()
}

impl<G: Game> Tree<G> {
    /// Draws the root's Gumbel noise (none without root noise: then the search is
    /// deterministic), picks the `gumbel_actions` moves with the highest noise plus logit,
    /// and lays out the schedule for the root's budget.
    pub(super) fn start_gumbel_root(&mut self) {
        let range = self.nodes.edge_range(ROOT);
        let noisy = self.root_noise;
        let rng = &mut self.rng;
        let gumbel = &mut self.gumbel;
        gumbel.scores.clear();
        gumbel
            .scores
            .extend(self.nodes.edges[range.clone()].iter().map(|edge| {
                let noise = if noisy {
                    let uniform: f32 = rng.random_range(f32::EPSILON..1.0);
                    -(-uniform.ln()).ln()
                } else {
                    0.0
                };
                logit(edge.prior) + noise
            }));
        gumbel.considered.clear();
        gumbel.considered.extend(range.clone());
        let start = range.start;
        let scores = &gumbel.scores;
        let best_first = |&a: &usize, &b: &usize| {
            scores[b - start]
                .total_cmp(&scores[a - start])
                .then(a.cmp(&b))
        };
        let considered = (self.config.gumbel_actions as usize).min(range.len());
        if considered < range.len() {
            gumbel
                .considered
                .select_nth_unstable_by(considered, best_first);
            gumbel.considered.truncate(considered);
        }
        gumbel.considered.sort_unstable_by(best_first);
        let sims = self.budget.saturating_sub(1).max(1) as usize;
        gumbel.schedule = considered_visits(considered, sims);
    }

    /// The completion of `node`'s Q-values. At inner nodes children exist only on a prefix
    /// of the edges (see `promote_next`), so `prefix_only` stops at the first edge without
    /// one; the root's considered moves are visited out of order.
    fn completion(&self, node: NodeId, prefix_only: bool) -> Completion {
        let parent = self.nodes.node(node);
        let sign = side_sign(parent.to_move);
        let (mut visits_sum, mut prior_sum, mut weighted_q) = (0.0f32, 0.0f32, 0.0f32);
        let (mut low, mut high, mut max_visits) = (f32::INFINITY, f32::NEG_INFINITY, 0u32);
        let mut visited = 0;
        for edge in self.nodes.edges_of(node) {
            let Some(child) = edge.child() else {
                if prefix_only {
                    break;
                }
                continue;
            };
            let child = self.nodes.node(child);
            max_visits = max_visits.max(child.visits + child.in_flight);
            if child.visits == 0 {
                continue;
            }
            visited += 1;
            let q = sign * child.value_sum / child.visits as f32;
            visits_sum += child.visits as f32;
            prior_sum += edge.prior;
            weighted_q += edge.prior * q;
            low = low.min(q);
            high = high.max(q);
        }
        let mixed_value = if visited > 0 {
            let visited_mean = weighted_q / prior_sum.max(f32::MIN_POSITIVE);
            (parent.raw_value + visits_sum * visited_mean) / (1.0 + visits_sum)
        } else {
            parent.raw_value
        };
        if visited < parent.edge_count {
            low = low.min(mixed_value);
            high = high.max(mixed_value);
        }
        let max_sigma =
            (self.config.gumbel_c_visit + max_visits as f32) * self.config.gumbel_c_scale;
        Completion {
            mixed_value,
            low,
            scale: max_sigma / (high - low).max(1e-8),
            max_sigma,
        }
    }

    /// A child's mean value from `sign`'s view, if it has a real visit.
    fn q(&self, child: Option<NodeId>, sign: f32) -> Option<f32> {
        let child = self.nodes.node(child?);
        (child.visits > 0).then(|| sign * child.value_sum / child.visits as f32)
    }

    /// Sequential halving: the considered move with the visit count the schedule asks for
    /// now and the best noise + logit + sigma(Q).
    pub(super) fn select_gumbel_root(&self) -> usize {
        let root = self.nodes.node(ROOT);
        let sign = side_sign(root.to_move);
        let simulation = (root.visits + root.in_flight).saturating_sub(1) as usize;
        let schedule = &self.gumbel.schedule;
        let wanted = schedule[simulation.min(schedule.len() - 1)];
        let completion = self.completion(ROOT, false);
        let start = self.nodes.node(ROOT).first_edge as usize;
        let candidate = |edge_index: usize| {
            let edge = &self.nodes.edges[edge_index];
            let counted = edge.child().map_or(0, |c| {
                self.nodes.node(c).visits + self.nodes.node(c).in_flight
            });
            let score = self.gumbel.scores[edge_index - start]
                + completion.sigma(self.q(edge.child(), sign));
            (counted, score)
        };
        // Normally some considered move has exactly the wanted count; with several leaves in
        // flight or a budget raised mid-search, take the least visited instead.
        let mut best = None;
        for &edge_index in &self.gumbel.considered {
            let (counted, score) = candidate(edge_index);
            let key = (counted != wanted, counted, -score);
            if best.is_none_or(|(best_key, _)| key_less(key, best_key)) {
                best = Some((key, edge_index));
            }
        }
        best.expect("a root with legal moves considers one").1
    }

    /// Inner nodes: the move whose share of visits lags furthest behind its share of the
    /// improved policy, `pi'(a) - N(a) / (1 + sum N)`.
    pub(super) fn select_gumbel_interior(&self, node: NodeId) -> usize {
        let parent = self.nodes.node(node);
        let sign = side_sign(parent.to_move);
        let completion = self.completion(node, true);
        let weight = |sigma: f32| (sigma - completion.max_sigma).exp();
        // The improved policy's normaliser: visited moves with their own Q, all other moves
        // (whose priors sum to what the visited ones leave) with the mixed value.
        let (mut known_prior, mut normaliser, mut counted_sum) = (0.0f32, 0.0f32, 0.0f32);
        for edge in self.nodes.edges_of(node) {
            let Some(child) = edge.child() else { break };
            let child_node = self.nodes.node(child);
            counted_sum += (child_node.visits + child_node.in_flight) as f32;
            if let Some(q) = self.q(Some(child), sign) {
                known_prior += edge.prior;
                normaliser += edge.prior * weight(completion.sigma(Some(q)));
            }
        }
        normaliser += (1.0 - known_prior).max(0.0) * weight(completion.sigma(None));
        let normaliser = normaliser.max(f32::MIN_POSITIVE);
        self.argmax(self.nodes.edge_range(node), |edge| {
            let counted = edge.child().map_or(0.0, |c| {
                let c = self.nodes.node(c);
                (c.visits + c.in_flight) as f32
            });
            let improved =
                edge.prior * weight(completion.sigma(self.q(edge.child(), sign))) / normaliser;
            improved - counted / (1.0 + counted_sum)
        })
    }

    /// The move sequential halving ends on: among the considered moves with the most visits,
    /// the best noise + logit + sigma(Q).
    pub(super) fn gumbel_winner(&self) -> Option<usize> {
        let root = self.nodes.node(ROOT);
        let sign = side_sign(root.to_move);
        let completion = self.completion(ROOT, false);
        let start = root.first_edge as usize;
        let visits = |edge_index: usize| {
            self.nodes.edges[edge_index]
                .child()
                .map_or(0, |c| self.nodes.node(c).visits)
        };
        let most = self.gumbel.considered.iter().map(|&e| visits(e)).max()?;
        self.gumbel
            .considered
            .iter()
            .filter(|&&e| visits(e) == most)
            .map(|&e| {
                let edge = &self.nodes.edges[e];
                let score =
                    self.gumbel.scores[e - start] + completion.sigma(self.q(edge.child(), sign));
                (edge.action as usize, score)
            })
            .reduce(|best, next| if next.1 > best.1 { next } else { best })
            .map(|(action, _)| action)
    }

    /// The improved policy `softmax(logits + sigma(completed Q))` over the root's moves, as
    /// `(action, probability)`: Gumbel search's policy target.
    pub(super) fn improved_policy(&self) -> Vec<(usize, f32)> {
        let root = self.nodes.node(ROOT);
        let sign = side_sign(root.to_move);
        let completion = self.completion(ROOT, false);
        let mut policy: Vec<(usize, f32)> = self
            .nodes
            .edges_of(ROOT)
            .iter()
            .map(|edge| {
                let sigma = completion.sigma(self.q(edge.child(), sign));
                (edge.action as usize, logit(edge.prior) + sigma)
            })
            .collect();
        let top = policy
            .iter()
            .map(|&(_, l)| l)
            .fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0.0;
        for (_, value) in &mut policy {
            *value = (*value - top).exp();
            total += *value;
        }
        for (_, value) in &mut policy {
            *value /= total;
        }
        policy
    }
}

/// Lexicographic order on selection keys (mismatch, count, negated score), with the score
/// compared totally.
fn key_less(a: (bool, u32, f32), b: (bool, u32, f32)) -> bool {
    (a.0, a.1)
        .cmp(&(b.0, b.1))
        .then(a.2.total_cmp(&b.2))
        .is_lt()
}

#[cfg(test)]
mod tests {
    use super::considered_visits;

    #[test]
    fn the_schedule_halves_the_considered_moves_each_round() {
        // 4 moves, 8 simulations, 2 rounds: 4 moves once each, then 2 moves twice each.
        assert_eq!(considered_visits(4, 8), [0, 0, 0, 0, 1, 1, 2, 2]);
        // 16 moves and 64 simulations: rounds of 16x1, 8x2, 4x4 and 2x8 visits.
        let schedule = considered_visits(16, 64);
        assert_eq!(schedule.len(), 64);
        assert!(schedule[..16].iter().all(|&v| v == 0));
        assert_eq!(&schedule[16..20], [1, 1, 1, 1]);
        assert_eq!(*schedule.last().unwrap(), 14);
        // Fewer simulations than moves: the first moves get one visit each.
        assert_eq!(considered_visits(16, 5), [0, 0, 0, 0, 0]);
        assert_eq!(considered_visits(1, 3), [0, 1, 2]);
    }
}
