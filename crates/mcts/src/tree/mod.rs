//! One game's search tree: the position at the root, the node store, and the leaves it has
//! handed to the batch being evaluated.

mod choice;
mod descent;
mod gumbel;
mod kept;
#[cfg(test)]
mod tests;

pub use choice::ChildStats;
pub use kept::Keep;

use crate::config::{Formula, SearchConfig};
use crate::filter::MoveFilter;
use crate::nodes::{Backup, Edge, NodeId, NodeState, NodeStore, ROOT};
use game::{Game, Side};
use gumbel::GumbelRoot;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::Range;

/// A leaf waiting for its evaluation: the node and its descent path in `Tree::path`.
#[derive(Clone, Debug)]
struct Leaf {
    node: NodeId,
    path: Range<usize>,
}

/// The search tree of one game in flight.
///
/// Driven from outside in steps (see [`crate::Batch::step`]): each step adds visits until the
/// tree has its budget ([`Tree::is_done`]); then the driver picks a move
/// ([`Tree::choose_action`]), reads the root statistics as a training target, and plays the
/// move with [`Tree::advance`], which keeps the subtree below it.
#[derive(Clone, Debug)]
pub struct Tree<G: Game> {
    config: SearchConfig,
    /// The position searched: the game itself, or, in a game with hidden information, the
    /// game with what the side to move cannot know replaced by a sample
    /// ([`Game::sample_hidden`]), drawn afresh whenever the root changes.
    root_state: G,
    /// In a game with hidden information, the true position, which no descent ever starts
    /// from: moves are played on it, and the root is sampled from it again.
    truth: Option<G>,
    nodes: NodeStore,
    /// The store `advance` copies the kept subtree into; swapped with `nodes` afterwards.
    spare: NodeStore,
    copy_queue: Vec<(NodeId, NodeId)>,
    rng: ChaCha8Rng,
    budget: u32,
    root_noise: bool,
    root_noised: bool,
    leaves: Vec<Leaf>,
    /// The positions of `leaves`, in order; slots past `leaves.len()` are kept for reuse.
    leaf_states: Vec<G>,
    path: Vec<NodeId>,
    legal: Vec<usize>,
    /// Scratch space where a node's edges are made before it keeps some of them.
    candidates: Vec<Edge>,
    /// Scratch space for a chance node's outcomes.
    chance_outcomes: Vec<(usize, f64)>,
    noise: Vec<f32>,
    /// The root's priors as the evaluator gave them, `(action, prior)`, saved before noise is
    /// mixed in: the policy target's surprise is measured against them.
    raw_root_priors: Vec<(u32, f32)>,
    gumbel: GumbelRoot,
    /// A side that the search expects to play a uniformly random legal action, with this
    /// probability, at each of its decisions below the root ([`Tree::expect_erratic`]).
    erratic: Option<(Side, f32)>,
    /// Moves the search may not explore near the root ([`Tree::set_move_filter`]).
    filter: Option<MoveFilter>,
    /// What analysis keeps of the evaluations ([`Tree::keep_evaluations`]).
    kept: kept::Kept,
}

impl<G: Game> Tree<G> {
    /// A tree for `game` with a budget of zero visits: set one with [`Tree::set_budget`].
    pub fn new(game: G, config: SearchConfig, seed: u64) -> Self {
        let root_noise = config.root_noise;
        let mut tree = Self {
            config,
            truth: G::HIDDEN_INFORMATION.then(|| game.clone()),
            root_state: game,
            nodes: NodeStore::default(),
            spare: NodeStore::default(),
            copy_queue: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            budget: 0,
            root_noise,
            root_noised: false,
            leaves: Vec::new(),
            leaf_states: Vec::new(),
            path: Vec::new(),
            legal: Vec::new(),
            candidates: Vec::new(),
            chance_outcomes: Vec::new(),
            noise: Vec::new(),
            raw_root_priors: Vec::new(),
            gumbel: GumbelRoot::default(),
            erratic: None,
            filter: None,
            kept: kept::Kept::default(),
        };
        tree.sample_root();
        tree.reset_root();
        tree
    }

    /// Makes the search expect `side` to play, at each of its decisions below the root, a
    /// uniformly random legal action with probability `rate` and its best one otherwise:
    /// at such a node a descent follows a random edge with that probability, so the node's
    /// value becomes the mixture's, and the other side learns what a blunder-prone
    /// opponent lets it do (a handicapped side in self-play, an opponent assumed weaker in
    /// play, as chess engines' contempt assumes). `None`, the default, expects every side's
    /// best. Set it before searching: a tree built under another expectation keeps that
    /// one's statistics.
    pub fn expect_erratic(&mut self, erratic: Option<(Side, f32)>) {
        self.erratic = erratic.filter(|&(_, rate)| rate > 0.0);
    }

    /// Keeps the search from exploring the moves `filter` rules out near the root (analysis'
    /// "avoid these moves"); `None`, the default, explores every legal move. Set it before
    /// searching: nodes already expanded keep their moves.
    pub fn set_move_filter(&mut self, filter: Option<MoveFilter>) {
        self.filter = filter.filter(|f| !f.restrictions.is_empty());
    }

    /// Starts over from `game`, keeping the allocations.
    pub fn reset(&mut self, game: &G) {
        if let Some(truth) = &mut self.truth {
            truth.clone_from(game);
        }
        self.root_state.clone_from(game);
        self.sample_root();
        self.reset_root();
    }

    /// In a game with hidden information, replaces the root's hidden part by a new sample
    /// from the tree's own generator, so that the search depends on the seed and on what the
    /// side to move knows, never on the truth.
    fn sample_root(&mut self) {
        if self.truth.is_some() {
            self.root_state.sample_hidden(self.rng.random());
        }
    }

    /// Plays `action` at the root. The subtree below it, statistics included, becomes the new
    /// tree; an action the search never tried starts a fresh tree, and so does every action
    /// under Gumbel search, whose sequential halving schedules a root's visits from zero.
    /// In a game with hidden information the tree always starts afresh, from a new sample of
    /// the true position after `action`: its nodes hold positions of the old sample.
    pub fn advance(&mut self, action: usize) {
        debug_assert!(self.leaves.is_empty(), "advance between steps only");
        if let Some(truth) = &mut self.truth {
            truth.apply(action);
            self.root_state.clone_from(truth);
            self.sample_root();
            self.reset_root();
            return;
        }
        let child = self
            .nodes
            .edges_of(ROOT)
            .iter()
            .find(|edge| edge.action as usize == action)
            .and_then(|edge| edge.child());
        self.root_state.apply(action);
        let child = child.filter(|_| self.config.formula != Formula::Gumbel);
        match child {
            Some(child) => {
                self.nodes
                    .copy_subtree(child, &mut self.spare, &mut self.copy_queue);
                std::mem::swap(&mut self.nodes, &mut self.spare);
                self.root_noised = false;
                // The kept subtree's nodes are numbered anew.
                self.kept.clear();
            }
            None => self.reset_root(),
        }
    }

    /// The position at the root: the true one, whatever sample the search runs on.
    pub fn game(&self) -> &G {
        self.truth.as_ref().unwrap_or(&self.root_state)
    }

    /// The position the search runs on: [`Tree::game`] itself, or in a game with hidden
    /// information, its sample.
    pub fn searched_game(&self) -> &G {
        &self.root_state
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Sets the total number of root visits wanted (visits kept from earlier moves count),
    /// so each move may have its own budget (playout cap randomisation).
    pub fn set_budget(&mut self, visits: u32) {
        self.budget = visits;
    }

    /// Turns root noise on or off for the searches that follow, e.g. off for the cheap
    /// searches of playout cap randomisation. Noise already mixed into this root stays.
    pub fn set_root_noise(&mut self, enabled: bool) {
        self.root_noise = enabled;
    }

    /// True once the root has its budget of visits, or when the game is over.
    pub fn is_done(&self) -> bool {
        let root = self.nodes.node(ROOT);
        matches!(root.state, NodeState::Terminal(_)) || root.visits >= self.budget
    }

    pub fn root_visit_count(&self) -> u32 {
        self.nodes.node(ROOT).visits
    }

    /// The root's mean value (the search's utility: the game value plus any score term) from
    /// the view of the side to move there (0 before any visit).
    pub fn root_value(&self) -> f32 {
        let root = self.nodes.node(ROOT);
        if root.visits == 0 {
            return 0.0;
        }
        side_sign(root.to_move) * root.value_sum / root.visits as f32
    }

    /// The root's mean game value, win minus loss probability without any score term, from
    /// the view of the side to move there (0 before any visit): what resignation reads.
    pub fn root_game_value(&self) -> f32 {
        let root = self.nodes.node(ROOT);
        if root.visits == 0 {
            return 0.0;
        }
        side_sign(root.to_move) * root.game_value_sum / root.visits as f32
    }

    /// Nodes in the store, for memory and reuse statistics.
    pub fn node_count(&self) -> usize {
        self.nodes.nodes.len()
    }

    fn reset_root(&mut self) {
        let state = self.node_state(&self.root_state);
        self.nodes.reset(self.root_state.to_move(), state);
        if state == NodeState::Chance {
            self.add_chance_edges(ROOT, None);
        }
        self.root_noised = false;
        self.kept.clear();
    }

    /// A new node's state: terminal with its exact utility (first side's view) when the game
    /// is over there, chance's when chance decides there (its edges still to be added with
    /// [`Tree::add_chance_edges`]), fresh otherwise.
    fn node_state(&self, game: &G) -> NodeState {
        match game.outcome() {
            Some(outcome) => {
                let lead = game.score(Side::First) - game.score(Side::Second);
                NodeState::Terminal(self.backup_of(outcome.value_for(Side::First), lead))
            }
            None if game.is_chance() => NodeState::Chance,
            None => NodeState::Fresh,
        }
    }

    /// Gives the chance node `node` one edge per outcome, with its probability as the prior:
    /// the outcomes of `leaf_slot`'s position, or of the root's without one. The edges come
    /// in an order drawn afresh: descent takes the outcome whose visits lag its probability
    /// most and the first of equal ones, so with many equally likely outcomes (Qast's 243
    /// rolls) and few visits, a fixed order would always visit the same few (the lowest
    /// rolls), where a shuffled one draws them without replacement.
    fn add_chance_edges(&mut self, node: NodeId, leaf_slot: Option<usize>) {
        let game = leaf_slot.map_or(&self.root_state, |slot| &self.leaf_states[slot]);
        game.chance_outcomes(&mut self.chance_outcomes);
        self.chance_outcomes.shuffle(&mut self.rng);
        let first_edge = self.nodes.edges.len();
        self.nodes.edges.extend(
            self.chance_outcomes
                .iter()
                .map(|&(action, probability)| Edge::new(action, probability as f32)),
        );
        let chance = self.nodes.node_mut(node);
        chance.first_edge = u32::try_from(first_edge).expect("fewer than 2^32 edges");
        chance.edge_count = u32::try_from(self.chance_outcomes.len()).expect("few outcomes");
    }

    /// What a visit backs up for a game value and a score lead from one side's view: the
    /// utility the search maximises beside the game value.
    fn backup_of(&self, game_value: f32, lead: f32) -> Backup {
        let utility = if self.config.score_utility == 0.0 {
            game_value
        } else {
            let score = std::f32::consts::FRAC_2_PI * (lead / self.config.score_scale).atan();
            game_value + self.config.score_utility * score
        };
        Backup {
            utility,
            game_value,
            lead,
        }
    }
}

/// +1 for the first side, -1 for the second: turns a first-side value into a side's value and
/// back.
#[inline]
pub(crate) fn side_sign(side: Side) -> f32 {
    match side {
        Side::First => 1.0,
        Side::Second => -1.0,
    }
}
