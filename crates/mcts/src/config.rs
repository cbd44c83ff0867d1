use serde::{Deserialize, Serialize};

/// How a node scores its children when descending.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formula {
    /// AlphaZero's PUCT: the exploration term follows the evaluator's priors, and unvisited
    /// children start at the parent's value less the first-play-urgency reduction.
    #[default]
    Puct,
    /// Classic UCB1 (Kocsis and Szepesvari), for the rollout baseline: every child is tried
    /// once (in random order) before any is tried twice, and priors are ignored.
    Ucb1,
}

/// Search settings, stored in run configurations and bot bundles.
///
/// `Default` is the self-play setting (root noise on, one leaf per tree per step: many games
/// in flight already fill the batch, and virtual loss would only blur the policy target);
/// [`SearchConfig::play`] is the setting for matches and analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchConfig {
    pub formula: Formula,
    /// Weight of the exploration term (for UCB1 on values in [-1, 1], about 2 is classic).
    pub c_puct: f32,
    /// An unvisited child is valued at its parent's value minus this: it makes the search
    /// stay with moves it has already checked unless the prior insists.
    pub fpu_reduction: f32,
    /// Mix Dirichlet noise into the root priors, so self-play explores moves the network
    /// dislikes.
    pub root_noise: bool,
    /// Total Dirichlet concentration, spread evenly over the legal moves (KataGo): the noise
    /// looks alike whether a position has 20 legal moves or 700.
    pub dirichlet_total_alpha: f32,
    /// Share of the noise in the noisy root priors.
    pub noise_fraction: f32,
    /// How many lost visits an in-flight leaf counts for, steering the other leaves a tree
    /// collects in the same step elsewhere; 0 turns virtual loss off.
    pub virtual_loss: u32,
    /// Leaves one tree may contribute to one batch. More leaves fill the batch when few games
    /// are in flight (play mode), at the cost of searching slightly less sharply.
    pub leaves_per_tree: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            formula: Formula::Puct,
            c_puct: 1.1,
            fpu_reduction: 0.2,
            root_noise: true,
            dirichlet_total_alpha: 10.83,
            noise_fraction: 0.25,
            virtual_loss: 1,
            leaves_per_tree: 1,
        }
    }
}

impl SearchConfig {
    /// Matches and analysis: no noise, and several leaves per step because a single game has
    /// to fill the batch on its own.
    pub fn play() -> Self {
        Self {
            root_noise: false,
            virtual_loss: 3,
            leaves_per_tree: 16,
            ..Self::default()
        }
    }
}
