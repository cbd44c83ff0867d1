//! Bradley-Terry ratings for many players by maximum likelihood, in Elo, with one player
//! anchored at 0.
//!
//! Model: player `i` scores `σ(θᵢ − θⱼ)` against `j` (σ the logistic function, θ in natural
//! log-odds, reported as Elo = θ · 400 / ln 10). A draw counts as half a win each way, the same
//! convention as the match score, so a two-player fit reproduces [`MatchStats`]' Elo; a
//! Davidson draw model would add a draw parameter without changing the ranking, and draws in
//! Ghast are rare enough that it is not worth it.
//!
//! Prior: every pair that has met gets `virtual_draws` extra drawn games (default 1). A player
//! with only wins then has a large but finite rating, and unlike a Gaussian prior centred on
//! the anchor it does not pull strong generations towards "random". It matters only while a
//! pairing has few games; set it to 0 for the plain maximum-likelihood estimate.
//!
//! Intervals: `rating ± 1.96 · se`, with `se` from the inverse of the observed information
//! (the negated Hessian of the log-likelihood with the anchor's row and column removed). They
//! are intervals on the difference from the anchor, which is why the anchor's is `[0, 0]`.
//!
//! [`MatchStats`]: super::MatchStats

use std::collections::VecDeque;

use thiserror::Error;

use super::elo::{ELO_PER_NAT, Z_95};
use super::linalg::Cholesky;
use super::result_table::ResultTable;

/// One row of a ratings table.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    pub name: String,
    /// Elo relative to the anchor.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
    /// Real games played (virtual draws excluded).
    pub games: u32,
}

/// Why a set of results could not be rated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RatingError {
    #[error("anchor player {0:?} is not in the results")]
    UnknownAnchor(String),
    #[error("player {0:?} has no chain of games to the anchor, so its rating is undetermined")]
    Disconnected(String),
    #[error(
        "the ratings diverge (a player won or lost every game with no virtual draws); \
         use a positive virtual_draws"
    )]
    Diverged,
}

/// Settings for the fit.
#[derive(Debug, Clone, PartialEq)]
pub struct BradleyTerry {
    /// Player whose rating is fixed at 0 Elo.
    pub anchor: String,
    /// Extra drawn games added to every pairing that has been played.
    pub virtual_draws: f64,
}

/// Maximum-likelihood ratings in natural units with the information matrix's factor.
pub(crate) struct Fit {
    /// θ for every player, the anchor's 0.
    pub(crate) theta: Vec<f64>,
    /// Variance of each θ (0 for the anchor).
    pub(crate) variance: Vec<f64>,
}

const MAX_NEWTON_STEPS: usize = 200;
const STEP_TOLERANCE: f64 = 1e-10;

impl BradleyTerry {
    pub const DEFAULT_VIRTUAL_DRAWS: f64 = 1.0;

    pub fn new(anchor: &str) -> Self {
        Self {
            anchor: anchor.to_owned(),
            virtual_draws: Self::DEFAULT_VIRTUAL_DRAWS,
        }
    }

    /// Rates every player in `table`, in the table's player order.
    pub fn fit(&self, table: &ResultTable) -> Result<Vec<Rating>, RatingError> {
        let fit = self.fit_natural(table)?;
        Ok(ratings(table, &fit.theta, &fit.variance))
    }

    /// Rates every player as [`BradleyTerry::fit`] does, but with the intervals of all but
    /// the `known` players (and the anchor) taken as if the known ones' ratings were exact:
    /// they say how well a player is placed among fixed reference players, as a rating list
    /// anchored on several players does, not how well the references are placed among
    /// themselves (which moves every other player alike). The known players keep their
    /// intervals from the whole fit; a name not in the table is ignored.
    pub fn fit_among_known(
        &self,
        table: &ResultTable,
        known: &[String],
    ) -> Result<Vec<Rating>, RatingError> {
        let fit = self.fit_natural(table)?;
        let mut held: Vec<usize> = known
            .iter()
            .filter_map(|name| table.player_index(name))
            .collect();
        held.extend(table.player_index(&self.anchor));
        let model = Model::new(table, &held, self.virtual_draws);
        let (_, information) = model.derivatives(&fit.theta);
        let chol = Cholesky::new(&information, model.free.len()).ok_or(RatingError::Diverged)?;
        let mut variance = fit.variance;
        for (&player, v) in model.free.iter().zip(chol.inverse_diagonal()) {
            variance[player] = v;
        }
        Ok(ratings(table, &fit.theta, &variance))
    }

    /// Newton's method on the concave log-likelihood, halving steps that fail to improve it.
    pub(crate) fn fit_natural(&self, table: &ResultTable) -> Result<Fit, RatingError> {
        let anchor = table
            .player_index(&self.anchor)
            .ok_or_else(|| RatingError::UnknownAnchor(self.anchor.clone()))?;
        check_connected(table, anchor)?;
        let model = Model::new(table, &[anchor], self.virtual_draws);
        let mut theta = vec![0.0; table.players().len()];
        for _ in 0..MAX_NEWTON_STEPS {
            let (gradient, information) = model.derivatives(&theta);
            let chol =
                Cholesky::new(&information, model.free.len()).ok_or(RatingError::Diverged)?;
            let step = chol.solve(&gradient);
            let current = model.log_likelihood(&theta);
            let mut scale = 1.0;
            let next = loop {
                let candidate = model.moved(&theta, &step, scale);
                if model.log_likelihood(&candidate) >= current || scale < 1e-6 {
                    break candidate;
                }
                scale /= 2.0;
            };
            theta = next;
            let largest = step.iter().fold(0.0_f64, |m, s| m.max(s.abs())) * scale;
            if largest < STEP_TOLERANCE {
                let (_, information) = model.derivatives(&theta);
                let chol =
                    Cholesky::new(&information, model.free.len()).ok_or(RatingError::Diverged)?;
                let mut variance = vec![0.0; theta.len()];
                for (&player, v) in model.free.iter().zip(chol.inverse_diagonal()) {
                    variance[player] = v;
                }
                return Ok(Fit { theta, variance });
            }
        }
        Err(RatingError::Diverged)
    }
}

/// The ratings table of `theta` and its `variance` (natural units), in player order.
fn ratings(table: &ResultTable, theta: &[f64], variance: &[f64]) -> Vec<Rating> {
    let games = table.games_per_player();
    table
        .players()
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let elo = theta[i] * ELO_PER_NAT;
            let half_width = Z_95 * variance[i].sqrt() * ELO_PER_NAT;
            Rating {
                name: name.clone(),
                elo,
                lower: elo - half_width,
                upper: elo + half_width,
                games: games[i],
            }
        })
        .collect()
}

/// Breadth-first search from the anchor over pairings with at least one game.
fn check_connected(table: &ResultTable, anchor: usize) -> Result<(), RatingError> {
    let n = table.players().len();
    let mut neighbours = vec![Vec::new(); n];
    for (i, j, wdl) in table.pairs() {
        if wdl.games() > 0 {
            neighbours[i].push(j);
            neighbours[j].push(i);
        }
    }
    let mut reached = vec![false; n];
    reached[anchor] = true;
    let mut queue = VecDeque::from([anchor]);
    while let Some(i) = queue.pop_front() {
        for &j in &neighbours[i] {
            if !reached[j] {
                reached[j] = true;
                queue.push_back(j);
            }
        }
    }
    match reached.iter().position(|&r| !r) {
        Some(i) => Err(RatingError::Disconnected(table.players()[i].clone())),
        None => Ok(()),
    }
}

/// One pairing's totals with the prior included: `points` is `i`'s score over `games`.
struct Pairing {
    i: usize,
    j: usize,
    points: f64,
    games: f64,
}

/// The log-likelihood over all pairings and its derivatives in the free players (all but
/// the held ones: the anchor, and in [`BradleyTerry::fit_among_known`] the known players).
struct Model {
    pairings: Vec<Pairing>,
    /// Player index of each free parameter.
    free: Vec<usize>,
    /// Parameter slot of each player; `None` for a held one.
    slot: Vec<Option<usize>>,
}

impl Model {
    fn new(table: &ResultTable, held: &[usize], virtual_draws: f64) -> Self {
        let pairings = table
            .pairs()
            .filter(|(_, _, wdl)| wdl.games() > 0)
            .map(|(i, j, wdl)| Pairing {
                i,
                j,
                points: wdl.points() + 0.5 * virtual_draws,
                games: f64::from(wdl.games()) + virtual_draws,
            })
            .collect();
        let free: Vec<usize> = (0..table.players().len())
            .filter(|p| !held.contains(p))
            .collect();
        let mut slot = vec![None; table.players().len()];
        for (k, &player) in free.iter().enumerate() {
            slot[player] = Some(k);
        }
        Self {
            pairings,
            free,
            slot,
        }
    }

    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        self.pairings
            .iter()
            .map(|p| {
                let d = theta[p.i] - theta[p.j];
                // ln σ(d) = −ln(1 + e^(−d)), written to stay finite for large |d|.
                let ln_sigmoid = |x: f64| -((-x).exp().ln_1p());
                p.points * ln_sigmoid(d) + (p.games - p.points) * ln_sigmoid(-d)
            })
            .sum()
    }

    /// Gradient and observed information (negated Hessian), both over the free players, the
    /// information row-major.
    fn derivatives(&self, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let n = self.free.len();
        let mut gradient = vec![0.0; n];
        let mut information = vec![0.0; n * n];
        for p in &self.pairings {
            let expected = 1.0 / (1.0 + (theta[p.j] - theta[p.i]).exp());
            let residual = p.points - p.games * expected;
            let curvature = p.games * expected * (1.0 - expected);
            let (a, b) = (self.slot[p.i], self.slot[p.j]);
            if let Some(a) = a {
                gradient[a] += residual;
                information[a * n + a] += curvature;
            }
            if let Some(b) = b {
                gradient[b] -= residual;
                information[b * n + b] += curvature;
            }
            if let (Some(a), Some(b)) = (a, b) {
                information[a * n + b] -= curvature;
                information[b * n + a] -= curvature;
            }
        }
        (gradient, information)
    }

    /// `theta` moved by `scale · step` in the free players.
    fn moved(&self, theta: &[f64], step: &[f64], scale: f64) -> Vec<f64> {
        let mut next = theta.to_vec();
        for (&player, s) in self.free.iter().zip(step) {
            next[player] += scale * s;
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::outcomes::Wdl;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() < tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    fn plain_mle(anchor: &str) -> BradleyTerry {
        BradleyTerry {
            anchor: anchor.into(),
            virtual_draws: 0.0,
        }
    }

    fn rating<'a>(ratings: &'a [Rating], name: &str) -> &'a Rating {
        ratings.iter().find(|r| r.name == name).unwrap()
    }

    #[test]
    fn known_players_leave_their_own_uncertainty_out_of_the_others_intervals() {
        // A and B far apart on few games; L plays only B, often.
        let mut table = ResultTable::new();
        table.record("A", "B", Wdl::new(1, 0, 9));
        table.record("L", "B", Wdl::new(30, 0, 30));
        let joint = BradleyTerry::new("A").fit(&table).unwrap();
        let known = BradleyTerry::new("A")
            .fit_among_known(&table, &["B".to_owned()])
            .unwrap();
        let (l_joint, l_known) = (rating(&joint, "L"), rating(&known, "L"));
        assert_eq!(l_joint.elo, l_known.elo, "the same fit");
        assert_eq!(rating(&joint, "B"), rating(&known, "B"));
        // With B exact, L's interval is that of its own 60 games against B.
        let width = |r: &Rating| r.upper - r.lower;
        let mut pair = ResultTable::new();
        pair.record("L", "B", Wdl::new(30, 0, 30));
        let two = BradleyTerry::new("B").fit(&pair).unwrap();
        close(width(l_known), width(rating(&two, "L")), 1e-6);
        assert!(
            width(l_joint) > 2.0 * width(l_known),
            "{l_joint:?} {l_known:?}"
        );
    }

    #[test]
    fn two_players_by_hand() {
        // A beats B 3 of 4: σ(Δ) = 3/4, Δ = 400·log10(3) = 190.8485 Elo. Information
        // n·p·(1 − p) = 4 · 0.75 · 0.25 = 0.75, so se = √(1/0.75) = 1.154701 nats
        // = 1.154701 · 173.7178 = 200.5920 Elo and the half-width is 1.959964 · 200.5920 = 393.153.
        let mut table = ResultTable::new();
        table.record("A", "B", Wdl::new(3, 0, 1));
        let ratings = plain_mle("B").fit(&table).unwrap();
        let a = rating(&ratings, "A");
        close(a.elo, 190.848_502, 1e-6);
        close(a.upper - a.elo, 393.153, 1e-3);
        close(a.elo - a.lower, 393.153, 1e-3);
        assert_eq!(a.games, 4);
        let b = rating(&ratings, "B");
        assert_eq!((b.elo, b.lower, b.upper), (0.0, 0.0, 0.0));
    }

    #[test]
    fn draws_count_half_each_way() {
        // 2 W 2 D 0 L is 3 points of 4, the same estimate as 3 W 1 L.
        let mut table = ResultTable::new();
        table.record("A", "B", Wdl::new(2, 2, 0));
        close(
            plain_mle("B").fit(&table).unwrap()[0].elo,
            190.848_502,
            1e-6,
        );
    }

    #[test]
    fn three_players_by_hand() {
        // A–B 3:1 (odds 3), B–C 3:1 (odds 3), A–C 9:1 (odds 9 = 3·3). Every pairing's score
        // equals σ(θᵢ − θⱼ) for θ_C = 0, θ_B = ln 3, θ_A = ln 9, so the gradient vanishes there:
        // B = 400·log10(3) = 190.8485 and A = 400·log10(9) = 381.6970 Elo.
        let mut table = ResultTable::new();
        table.record("A", "B", Wdl::new(3, 0, 1));
        table.record("B", "C", Wdl::new(3, 0, 1));
        table.record("C", "A", Wdl::new(1, 0, 9));
        let ratings = plain_mle("C").fit(&table).unwrap();
        close(rating(&ratings, "A").elo, 381.697_004, 1e-6);
        close(rating(&ratings, "B").elo, 190.848_502, 1e-6);
        assert_eq!(rating(&ratings, "C").elo, 0.0);
    }

    #[test]
    fn anchor_stays_at_zero_wherever_it_is_listed() {
        let mut table = ResultTable::new();
        table.record("gen-1", "gen-2", Wdl::new(10, 5, 25));
        table.record("gen-2", "random", Wdl::new(40, 0, 0));
        table.record("gen-1", "random", Wdl::new(30, 2, 8));
        let ratings = BradleyTerry::new("random").fit(&table).unwrap();
        let random = rating(&ratings, "random");
        assert_eq!((random.elo, random.lower, random.upper), (0.0, 0.0, 0.0));
        assert!(rating(&ratings, "gen-2").elo > rating(&ratings, "gen-1").elo);
        assert!(rating(&ratings, "gen-1").elo > 0.0);
    }

    #[test]
    fn intervals_shrink_as_games_grow() {
        // Without a prior the information scales with the games: four times the games, half
        // the width, same centre.
        let fit = |scale: u32| {
            let mut table = ResultTable::new();
            table.record("A", "B", Wdl::new(3 * scale, scale, 2 * scale));
            table.record("B", "C", Wdl::new(4 * scale, 0, scale));
            table.record("A", "C", Wdl::new(5 * scale, 0, scale));
            plain_mle("C").fit(&table).unwrap()
        };
        let (small, large) = (fit(1), fit(4));
        for (s, l) in small.iter().zip(&large) {
            close(l.elo, s.elo, 1e-6);
            close(2.0 * (l.upper - l.lower), s.upper - s.lower, 1e-6);
        }
    }

    #[test]
    fn virtual_draw_keeps_a_perfect_record_finite() {
        // 10 wins plus one virtual draw: 10.5 of 11, odds 21, 400·log10(21) = 528.8877 Elo.
        let mut table = ResultTable::new();
        table.record("gen-9", "random", Wdl::new(10, 0, 0));
        let ratings = BradleyTerry::new("random").fit(&table).unwrap();
        close(rating(&ratings, "gen-9").elo, 528.887_718, 1e-6);
        assert!(rating(&ratings, "gen-9").lower.is_finite());
    }

    #[test]
    fn perfect_record_without_prior_diverges() {
        let mut table = ResultTable::new();
        table.record("gen-9", "random", Wdl::new(10, 0, 0));
        assert_eq!(plain_mle("random").fit(&table), Err(RatingError::Diverged));
    }

    #[test]
    fn unrated_structure_is_an_error() {
        let mut table = ResultTable::new();
        table.record("A", "B", Wdl::new(1, 0, 1));
        table.record("C", "D", Wdl::new(1, 0, 1));
        let bt = BradleyTerry::new("A");
        assert_eq!(bt.fit(&table), Err(RatingError::Disconnected("C".into())));
        assert_eq!(
            BradleyTerry::new("random").fit(&table),
            Err(RatingError::UnknownAnchor("random".into()))
        );
    }
}
