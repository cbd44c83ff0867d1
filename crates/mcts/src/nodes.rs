//! Node storage: two flat vectors indexed by `u32`, so a tree is a few large allocations that
//! survive from move to move, and a node is 40 bytes with no pointers to chase or free.

use game::Side;

/// Index of a node in its store.
pub(crate) type NodeId = u32;

/// The root is always the first node.
pub(crate) const ROOT: NodeId = 0;

/// Marks an edge whose child has not been created yet.
const NO_CHILD: NodeId = NodeId::MAX;

#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum NodeState {
    /// Created on the way down; becomes `Pending` or is never seen again.
    Fresh,
    /// Waiting in the current batch for its evaluation.
    Pending,
    Expanded,
    /// Chance decides here: the edges are its outcomes with their probabilities as priors,
    /// made when the node is created, since no evaluation is needed.
    Chance,
    /// The game is over here; its exact values, from the first side's view.
    Terminal(Backup),
}

/// What one visit adds to the nodes on its path, from the first side's view: the utility the
/// search maximises (the game value plus any score term) and the game value alone (win minus
/// loss probability), which resignation and the win rates shown to people read: with a score
/// term a lost game can look better than -1, and a won one past +1. The score lead rides
/// along for analysis, which reports each move's expected lead.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Backup {
    pub utility: f32,
    pub game_value: f32,
    pub lead: f32,
}

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub visits: u32,
    /// Descents through this node whose leaf waits for evaluation.
    pub in_flight: u32,
    /// Sum of backed-up values from the first side's view: one fixed point of view means no
    /// assumption about who moves next, so a side may move twice in a row (Ghast vetoes).
    pub value_sum: f32,
    /// Sum of the backed-up game values ([`Backup::game_value`]), first side's view.
    pub game_value_sum: f32,
    /// Sum of the squares of the backed-up values, for the spread that
    /// [`crate::MoveChoice::Lcb`] reads.
    pub value_square_sum: f32,
    /// Sum of the backed-up score leads ([`Backup::lead`]), first side's view.
    pub lead_sum: f32,
    /// The evaluator's value of this node itself, from the view of its side to move (the
    /// exact value at a terminal node): Gumbel search completes unvisited moves' values with it.
    pub raw_value: f32,
    pub first_edge: u32,
    pub edge_count: u32,
    pub to_move: Side,
    pub state: NodeState,
}

impl Node {
    fn new(to_move: Side, state: NodeState) -> Self {
        Self {
            visits: 0,
            in_flight: 0,
            value_sum: 0.0,
            game_value_sum: 0.0,
            value_square_sum: 0.0,
            lead_sum: 0.0,
            raw_value: 0.0,
            first_edge: 0,
            edge_count: 0,
            to_move,
            state,
        }
    }

    /// The variance of the utilities backed up through this node, with `prior_variance`
    /// counting as `prior_weight` visits, so that a few visits that happen to agree do not
    /// look certain (an unvisited node has the prior's).
    pub fn utility_variance(&self, prior_variance: f32, prior_weight: f32) -> f32 {
        let n = self.visits as f32;
        let mean = if self.visits > 0 {
            self.value_sum / n
        } else {
            0.0
        };
        let spread = (self.value_square_sum - n * mean * mean).max(0.0);
        (spread + prior_variance * prior_weight) / (n + prior_weight)
    }
}

/// A move out of a node. Children are created only when first selected, so the many moves
/// that are never tried cost 12 bytes each instead of a node.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Edge {
    pub action: u32,
    pub prior: f32,
    child: NodeId,
}

impl Edge {
    #[inline]
    pub fn new(action: usize, prior: f32) -> Self {
        Self {
            action: u32::try_from(action).expect("action index fits in u32"),
            prior,
            child: NO_CHILD,
        }
    }

    #[inline]
    pub fn child(&self) -> Option<NodeId> {
        (self.child != NO_CHILD).then_some(self.child)
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct NodeStore {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

impl NodeStore {
    /// Empties the store and adds a root, keeping the allocations.
    pub fn reset(&mut self, to_move: Side, state: NodeState) {
        self.nodes.clear();
        self.edges.clear();
        self.nodes.push(Node::new(to_move, state));
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    #[inline]
    pub fn edge_range(&self, id: NodeId) -> std::ops::Range<usize> {
        let node = self.node(id);
        let start = node.first_edge as usize;
        start..start + node.edge_count as usize
    }

    #[inline]
    pub fn edges_of(&self, id: NodeId) -> &[Edge] {
        &self.edges[self.edge_range(id)]
    }

    /// Creates the child behind edge `edge` (an index into `edges`).
    pub fn add_child(&mut self, edge: usize, to_move: Side, state: NodeState) -> NodeId {
        let id = NodeId::try_from(self.nodes.len()).expect("tree has fewer than 2^32 nodes");
        self.nodes.push(Node::new(to_move, state));
        self.edges[edge].child = id;
        id
    }

    /// Copies the subtree under `root` into `into` (cleared first), with `root` becoming its
    /// node 0. Breadth-first with `queue` as scratch, so nothing is allocated once the
    /// buffers have grown.
    pub fn copy_subtree(
        &self,
        root: NodeId,
        into: &mut NodeStore,
        queue: &mut Vec<(NodeId, NodeId)>,
    ) {
        into.nodes.clear();
        into.edges.clear();
        queue.clear();
        into.nodes.push(self.node(root).clone());
        queue.push((root, ROOT));
        let mut head = 0;
        while let Some(&(old, new)) = queue.get(head) {
            head += 1;
            let first_edge = u32::try_from(into.edges.len()).expect("fewer than 2^32 edges");
            into.node_mut(new).first_edge = first_edge;
            for edge in self.edges_of(old) {
                let mut copy = *edge;
                if let Some(child) = edge.child() {
                    copy.child = NodeId::try_from(into.nodes.len()).expect("fewer than 2^32 nodes");
                    into.nodes.push(self.node(child).clone());
                    queue.push((child, copy.child));
                }
                into.edges.push(copy);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WON: Backup = Backup {
        utility: 1.0,
        game_value: 1.0,
        lead: 3.0,
    };

    #[test]
    fn copy_subtree_keeps_only_the_subtree_and_its_statistics() {
        let mut store = NodeStore::default();
        store.reset(Side::First, NodeState::Expanded);
        let expand = |store: &mut NodeStore, id: NodeId, actions: &[usize]| {
            let start = store.edges.len();
            store
                .edges
                .extend(actions.iter().map(|&a| Edge::new(a, 0.5)));
            let node = store.node_mut(id);
            node.first_edge = start as u32;
            node.edge_count = actions.len() as u32;
            node.state = NodeState::Expanded;
        };
        expand(&mut store, ROOT, &[3, 7]);
        let a = store.add_child(0, Side::Second, NodeState::Fresh);
        let b = store.add_child(1, Side::Second, NodeState::Fresh);
        expand(&mut store, b, &[1, 2]);
        let leaf = store.add_child(
            store.edge_range(b).start + 1,
            Side::Second,
            NodeState::Terminal(WON),
        );
        store.node_mut(b).visits = 5;
        store.node_mut(leaf).visits = 2;
        assert_ne!(a, b);

        let mut copy = NodeStore::default();
        store.copy_subtree(b, &mut copy, &mut Vec::new());

        assert_eq!(copy.nodes.len(), 2);
        assert_eq!(copy.node(ROOT).visits, 5);
        let actions: Vec<u32> = copy.edges_of(ROOT).iter().map(|e| e.action).collect();
        assert_eq!(actions, [1, 2]);
        assert_eq!(copy.edges_of(ROOT)[0].child(), None);
        let child = copy.edges_of(ROOT)[1]
            .child()
            .expect("the visited child is kept");
        assert_eq!(copy.node(child).visits, 2);
        assert_eq!(copy.node(child).state, NodeState::Terminal(WON));
    }
}
