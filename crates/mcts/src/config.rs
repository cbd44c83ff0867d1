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
    /// Gumbel AlphaZero (Danihelka et al., 2022): the root samples `gumbel_actions` moves
    /// without replacement from the prior (Gumbel-top-k, when `root_noise` is on) and shares
    /// the budget among them by sequential halving; inner nodes choose deterministically so
    /// that visits follow the improved policy `softmax(logits + sigma(completed Q))`, which is
    /// also the policy target. It improves the policy even with a handful of visits, where
    /// PUCT's visit counts say little.
    Gumbel,
}

/// How the move to play is read off a finished search (for play and matches; self-play
/// samples by temperature or, under Gumbel, plays the sequential-halving winner). Either way,
/// and in a draw by temperature, a move found to end the game lost for its mover is played
/// only when nothing else is legal.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveChoice {
    /// The most visited move.
    #[default]
    MostVisits,
    /// KataGo's lower confidence bound: among moves with at least a sixth of the top visits,
    /// the one whose value is best even `lcb_stdevs` standard errors down, so a move that
    /// looks best on few visits does not beat a well-checked one by luck.
    Lcb,
}

/// How a chance node (a roll of the dice) picks the outcome a descent follows.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChanceChoice {
    /// The outcome whose visits lag furthest behind its probability's share, so that visits
    /// follow the probabilities as closely as whole visits can: with outcomes of equal
    /// probability, every one is visited once before any is visited twice, and the node's
    /// value averages the outcomes with their exact weights instead of a sample's.
    #[default]
    Stratified,
    /// An outcome drawn at random with its probability at every descent (as a rollout
    /// would): the classical sampled chance node, kept to measure what stratification gains.
    Sampled,
}

/// Where the score lead in a leaf's utility comes from ([`SearchConfig::score_utility`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadSource {
    /// The network's prediction of the lead (KataGo's score utility).
    #[default]
    Network,
    /// The leaf position's own score lead now ([`game::Game::score`]): a static count, for a
    /// game whose score is material changing hands all game (Ghost Chess), where a young
    /// network's lead says nothing yet of what a capture wins, and a side whose value is flat
    /// (every game lost between equals) gets no other reason to take material.
    Position,
}

/// Search settings, stored in run configurations and bot bundles.
///
/// `Default` is the self-play setting (root noise on, one leaf per tree per step: many games
/// in flight already fill the batch, and virtual loss would only blur the policy target);
/// [`SearchConfig::play`] is the setting for matches and analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    pub formula: Formula,
    /// Weight of the exploration term (for UCB1 on values in [-1, 1], about 2 is classic).
    pub c_puct: f32,
    /// KataGo's growth of the exploration weight with the parent's visits: the weight is
    /// `c_puct + c_puct_log * ln((visits + 500) / 500)`, so that a long search goes on
    /// checking moves that a short one rightly leaves alone. 0 keeps the weight constant
    /// (KataGo plays with 0.45 beside `c_puct = 1`).
    pub c_puct_log: f32,
    /// KataGo's variance-scaled exploration: the weight is multiplied by
    /// `1 + c_puct_stdev_scale * (stdev / 0.4 - 1)`, where stdev is the spread of the
    /// utilities backed up through the parent (a prior spread of 0.4 counting as two
    /// visits), so the search explores where its outcomes disagree and narrows where they
    /// agree. 0 turns it off (KataGo plays with 0.85).
    pub c_puct_stdev_scale: f32,
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
    /// Gumbel: moves considered at the root (m in the paper).
    pub gumbel_actions: u32,
    /// Gumbel: the completed Q-values, rescaled to [0, 1] at each node, enter the logits as
    /// `(gumbel_c_visit + max visits) * gumbel_c_scale * q` (mctx's defaults: 50 and 0.1).
    pub gumbel_c_visit: f32,
    pub gumbel_c_scale: f32,
    /// KataGo's forced playouts (PUCT with root noise only): every root move gets at least
    /// `sqrt(forced_playouts * prior * total visits)` visits, so noise-boosted moves are
    /// really checked; the policy target then prunes the visits that were only forced.
    /// 0 turns it off (KataGo uses 2).
    pub forced_playouts: f32,
    /// Weight of the score lead in the value the search maximises (KataGo's score utility):
    /// utility = value + `score_utility` * (2 / pi) * atan(lead / `score_scale`). It breaks
    /// the ties between moves that all win (or all lose) in favour of bigger margins.
    /// 0 turns it off.
    pub score_utility: f32,
    /// Score units at which the score term is half its maximum.
    pub score_scale: f32,
    /// Where a leaf's lead comes from: the network's prediction or the position's score.
    pub lead_source: LeadSource,
    pub move_choice: MoveChoice,
    /// Standard errors below the mean at which [`MoveChoice::Lcb`] compares moves.
    pub lcb_stdevs: f32,
    /// In a game with hidden information, samples of what the side to move cannot know that
    /// one search in play ([`crate::Search`]) runs on: the visits are split among them and
    /// their root visits summed, and the most visited move is played. Self-play searches
    /// one sample per move.
    pub hidden_samples: u32,
    /// How chance nodes choose the outcome each descent follows.
    pub chance: ChanceChoice,
    /// In play ([`crate::Search`]), the share of the opponent's decisions (the side not
    /// deciding at the root) that the search expects to be uniformly random blunders
    /// ([`crate::Tree::expect_erratic`]): 0, the default, expects its best play. Above 0 the
    /// bot takes risks that only pay against a weaker opponent, as chess engines' contempt
    /// does; where one side loses every game between equals (Ghost Chess's Black), that is
    /// its only way to play for a win. Self-play ignores it: its handicap games set the
    /// expectation from the handicap itself.
    pub opponent_random_decisions: f32,
    /// Leave out the actions the game calls futile ([`game::Game::is_futile`]: in Go,
    /// filling one's own true eye) wherever another action remains, as Go programs do. A bot
    /// that is behind after its opponent passes then passes and loses on the board, instead
    /// of filling its own eyes until every stone is captured. Off by default, so that the
    /// `uct:` baseline and older bundles search as they did.
    pub skip_futile: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            formula: Formula::Puct,
            c_puct: 1.1,
            c_puct_log: 0.0,
            c_puct_stdev_scale: 0.0,
            fpu_reduction: 0.2,
            root_noise: true,
            dirichlet_total_alpha: 10.83,
            noise_fraction: 0.25,
            virtual_loss: 1,
            leaves_per_tree: 1,
            gumbel_actions: 16,
            gumbel_c_visit: 50.0,
            gumbel_c_scale: 0.1,
            forced_playouts: 0.0,
            score_utility: 0.0,
            score_scale: 5.0,
            lead_source: LeadSource::Network,
            move_choice: MoveChoice::MostVisits,
            lcb_stdevs: 3.0,
            hidden_samples: 1,
            chance: ChanceChoice::Stratified,
            opponent_random_decisions: 0.0,
            skip_futile: false,
        }
    }
}

impl SearchConfig {
    /// Matches and analysis with the default search ([`SearchConfig::for_play`]).
    pub fn play() -> Self {
        Self::default().for_play()
    }

    /// This search as play runs it: the same formula, exploration, Gumbel settings and score
    /// utility, without root noise (nothing to explore for a target), and with several leaves
    /// per step under virtual loss, because a single game has to fill the batch on its own.
    pub fn for_play(&self) -> Self {
        Self {
            root_noise: false,
            virtual_loss: 3,
            leaves_per_tree: 16,
            ..self.clone()
        }
    }

    /// Checks the bounds a configuration file's values must meet; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        bounds::non_negative("c_puct", self.c_puct)?;
        bounds::non_negative("c_puct_log", self.c_puct_log)?;
        bounds::non_negative("c_puct_stdev_scale", self.c_puct_stdev_scale)?;
        bounds::non_negative("fpu_reduction", self.fpu_reduction)?;
        bounds::non_negative("dirichlet_total_alpha", self.dirichlet_total_alpha)?;
        bounds::fraction("noise_fraction", self.noise_fraction)?;
        bounds::at_least_one("leaves_per_tree", self.leaves_per_tree)?;
        bounds::at_least_one("gumbel_actions", self.gumbel_actions)?;
        bounds::non_negative("gumbel_c_visit", self.gumbel_c_visit)?;
        bounds::non_negative("gumbel_c_scale", self.gumbel_c_scale)?;
        bounds::non_negative("forced_playouts", self.forced_playouts)?;
        bounds::non_negative("score_utility", self.score_utility)?;
        bounds::positive("score_scale", self.score_scale)?;
        bounds::non_negative("lcb_stdevs", self.lcb_stdevs)?;
        bounds::at_least_one("hidden_samples", self.hidden_samples)?;
        bounds::fraction("opponent_random_decisions", self.opponent_random_decisions)
    }

    /// [`SearchConfig::validate`], for a search that a network guides (self-play, a bot):
    /// UCB1 ignores the network's policy, so it is refused here and left to the `uct:`
    /// baseline, which builds its own search.
    pub fn validate_guided(&self) -> Result<(), String> {
        self.validate()?;
        if self.formula == Formula::Ucb1 {
            return Err(
                "formula = \"ucb1\" ignores the network's policy: a search guided by a \
                 network uses \"puct\" or \"gumbel\""
                    .to_string(),
            );
        }
        Ok(())
    }
}
