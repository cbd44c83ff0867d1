//! Sequential probability ratio test between two logistic Elo hypotheses, as fishtest and
//! cutechess run it: the generalised SPRT with the log-likelihood ratio of a normal
//! approximation to the mean score, so W/D/L and game-pair data share one formula.

use std::str::FromStr;

use thiserror::Error;

use super::elo::score_from_elo;
use super::outcomes::Outcomes;
use super::sample::ScoreSample;

/// Pseudo-count added to every outcome cell before computing the LLR (a Jeffreys prior).
///
/// The plug-in variance is unreliable over the first few games, and the test is checked after
/// every game: with fishtest's 1e-3 on empty cells only, a single opening win gives a variance
/// near zero and an LLR past any bound, and a simulation at the H0 Elo accepted H1 about a third
/// of the time. Half a unit per cell brings both error rates back to about alpha and beta, keeps
/// an all-wins run decidable, and is negligible after a few hundred games.
const PSEUDO_COUNT: f64 = 0.5;

/// Hypotheses H0: Elo = `elo0` against H1: Elo = `elo1`, with error rates `alpha` (accepting
/// H1 when H0 holds) and `beta` (accepting H0 when H1 holds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtParams {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says after the games so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    AcceptH0,
    AcceptH1,
}

/// The decision with the statistic and the bounds it was compared against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtStatus {
    pub decision: SprtDecision,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
}

/// Why an SPRT specification was rejected.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SprtParamsError {
    #[error("expected elo0,elo1 or elo0,elo1,alpha,beta but found {0} comma-separated fields")]
    FieldCount(usize),
    #[error("{field} must be a finite number, got {value:?}")]
    NotANumber { field: &'static str, value: String },
    #[error("elo0 ({elo0}) must be below elo1 ({elo1})")]
    HypothesesOutOfOrder { elo0: f64, elo1: f64 },
    #[error("{field} must lie strictly between 0 and 1, got {value}")]
    ProbabilityOutOfRange { field: &'static str, value: f64 },
    #[error("alpha + beta must be below 1, got {alpha} + {beta}")]
    ErrorRatesTooLarge { alpha: f64, beta: f64 },
}

impl SprtParams {
    pub const DEFAULT_ALPHA: f64 = 0.05;
    pub const DEFAULT_BETA: f64 = 0.05;

    /// Validates the hypotheses and error rates; the bounds are only ordered when
    /// `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, SprtParamsError> {
        if elo0 >= elo1 {
            return Err(SprtParamsError::HypothesesOutOfOrder { elo0, elo1 });
        }
        for (field, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtParamsError::ProbabilityOutOfRange { field, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtParamsError::ErrorRatesTooLarge { alpha, beta });
        }
        Ok(Self {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's bounds `(ln(β / (1 − α)), ln((1 − β) / α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 over H0. With the mean score `x̄` approximately normal with
    /// variance `v` (estimated from the data) and `sᵢ` the expected score at `eloᵢ`,
    /// `ln N(x̄; s1, v) − ln N(x̄; s0, v) = (s1 − s0)(2x̄ − s0 − s1) / (2v)`.
    pub fn llr(&self, outcomes: &impl Outcomes) -> f64 {
        let sample = ScoreSample::regularised(outcomes, PSEUDO_COUNT);
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        (s1 - s0) * (2.0 * sample.mean - s0 - s1) / (2.0 * sample.var_of_mean)
    }

    pub fn status(&self, outcomes: &impl Outcomes) -> SprtStatus {
        let llr = self.llr(outcomes);
        let (lower_bound, upper_bound) = self.bounds();
        let decision = if llr >= upper_bound {
            SprtDecision::AcceptH1
        } else if llr <= lower_bound {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            decision,
            llr,
            lower_bound,
            upper_bound,
        }
    }
}

impl FromStr for SprtParams {
    type Err = SprtParamsError;

    /// Parses `elo0,elo1` or `elo0,elo1,alpha,beta` (as given to `--sprt`); alpha and beta
    /// default to 0.05.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = text.split(',').map(str::trim).collect();
        let names = ["elo0", "elo1", "alpha", "beta"];
        if fields.len() != 2 && fields.len() != 4 {
            return Err(SprtParamsError::FieldCount(fields.len()));
        }
        let mut values = [0.0, 0.0, Self::DEFAULT_ALPHA, Self::DEFAULT_BETA];
        for ((value, field), name) in values.iter_mut().zip(&fields).zip(names) {
            *value = field
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| SprtParamsError::NotANumber {
                    field: name,
                    value: (*field).to_owned(),
                })?;
        }
        let [elo0, elo1, alpha, beta] = values;
        Self::new(elo0, elo1, alpha, beta)
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::rating::outcomes::Wdl;

    fn params(text: &str) -> SprtParams {
        text.parse().unwrap()
    }

    /// Plays games at `true_elo` with the given draw rate, one at a time, until the test decides
    /// or `max_games` have been played; returns the last status and the results.
    fn run_stream(
        sprt: &SprtParams,
        true_elo: f64,
        draw_rate: f64,
        rng: &mut ChaCha8Rng,
        max_games: u32,
    ) -> (SprtStatus, Wdl) {
        let win_rate = score_from_elo(true_elo) - draw_rate / 2.0;
        let mut wdl = Wdl::default();
        for _ in 0..max_games {
            let u: f64 = rng.random();
            wdl += if u < win_rate {
                Wdl::new(1, 0, 0)
            } else if u < win_rate + draw_rate {
                Wdl::new(0, 1, 0)
            } else {
                Wdl::new(0, 0, 1)
            };
            let status = sprt.status(&wdl);
            if status.decision != SprtDecision::Continue {
                return (status, wdl);
            }
        }
        (sprt.status(&wdl), wdl)
    }

    #[test]
    fn parses_with_and_without_error_rates() {
        assert_eq!(
            params("0,10"),
            SprtParams::new(0.0, 10.0, 0.05, 0.05).unwrap()
        );
        assert_eq!(
            params(" -5 , 5 ,0.01,0.1"),
            SprtParams::new(-5.0, 5.0, 0.01, 0.1).unwrap()
        );
    }

    #[test]
    fn rejects_bad_specifications() {
        let parse = |text: &str| text.parse::<SprtParams>().unwrap_err();
        assert_eq!(parse("0,10,0.05"), SprtParamsError::FieldCount(3));
        assert_eq!(parse("0"), SprtParamsError::FieldCount(1));
        assert_eq!(
            parse("0,ten"),
            SprtParamsError::NotANumber {
                field: "elo1",
                value: "ten".into()
            }
        );
        assert_eq!(
            parse("0,inf"),
            SprtParamsError::NotANumber {
                field: "elo1",
                value: "inf".into()
            }
        );
        assert_eq!(
            parse("10,0"),
            SprtParamsError::HypothesesOutOfOrder {
                elo0: 10.0,
                elo1: 0.0
            }
        );
        assert_eq!(
            parse("0,10,0,0.05"),
            SprtParamsError::ProbabilityOutOfRange {
                field: "alpha",
                value: 0.0
            }
        );
        assert_eq!(
            parse("0,10,0.6,0.5"),
            SprtParamsError::ErrorRatesTooLarge {
                alpha: 0.6,
                beta: 0.5
            }
        );
        assert_eq!(
            parse("0,10,0.05,x").to_string(),
            "beta must be a finite number, got \"x\""
        );
    }

    #[test]
    fn default_bounds_are_ln_19() {
        // ln(0.05 / 0.95) = −ln 19 = −2.944439 and ln(0.95 / 0.05) = ln 19.
        let (lower, upper) = params("0,10").bounds();
        assert!((lower + 19f64.ln()).abs() < 1e-12);
        assert!((upper - 19f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn llr_by_hand() {
        // 60 W, 20 D, 20 L plus half a game per cell: 60.5 / 20.5 / 20.5 of 101.5.
        // x̄ = 70.75 / 101.5 = 0.697044; per-game variance
        // (60.5·0.302956² + 20.5·0.197044² + 20.5·0.697044²) / 101.5 = 16.3091 / 101.5 = 0.160681,
        // v = 0.160681 / 101.5 = 0.00158306. s0 = 0.5, s1 = 1 / (1 + 10^(−1/40)) = 0.5143872.
        // LLR = 0.0143872 · (1.394089 − 1.0143872) / 0.00316613 = 1.725400: inside ±2.944.
        let status = params("0,10").status(&Wdl::new(60, 20, 20));
        assert!((status.llr - 1.725_400).abs() < 1e-5);
        assert_eq!(status.decision, SprtDecision::Continue);
    }

    #[test]
    fn strong_stream_accepts_h1() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (status, _) = run_stream(&params("0,10"), 50.0, 0.3, &mut rng, 100_000);
        assert_eq!(status.decision, SprtDecision::AcceptH1);
    }

    #[test]
    fn even_stream_accepts_h0() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let (status, _) = run_stream(&params("0,20"), 0.0, 0.3, &mut rng, 100_000);
        assert_eq!(status.decision, SprtDecision::AcceptH0);
    }

    #[test]
    fn perfect_stream_accepts_h1_after_fifteen_wins() {
        // Only wins: the pseudo-counts keep the variance positive, so the test still decides.
        // 15 wins → 15.5 / 0.5 / 0.5 of 16.5: x̄ = 15.75 / 16.5 = 0.954545, per-game variance
        // 0.0358127, v = 0.00217046, LLR = 0.0143872 · (1.909091 − 1.0143872) / 0.00434093
        // = 2.96532 ≥ 2.944; the same working for 14 wins gives 2.60934, still inside.
        let sprt = params("0,10");
        assert_eq!(
            sprt.status(&Wdl::new(14, 0, 0)).decision,
            SprtDecision::Continue
        );
        let status = sprt.status(&Wdl::new(15, 0, 0));
        assert_eq!(status.decision, SprtDecision::AcceptH1);
        assert!((status.llr - 2.965_325).abs() < 1e-5);
    }

    #[test]
    fn balanced_results_stay_at_zero_between_symmetric_hypotheses() {
        // With H0 = −10 and H1 = +10, s0 + s1 = 1, so x̄ = ½ makes the LLR exactly 0 however
        // many games are played.
        let sprt = params("-10,10");
        for n in [1, 10, 1_000, 100_000] {
            let status = sprt.status(&Wdl::new(n, n, n));
            assert!(status.llr.abs() < 1e-9);
            assert_eq!(status.decision, SprtDecision::Continue);
        }
    }

    #[test]
    fn false_acceptance_rate_is_near_alpha() {
        // At the H0 Elo, H1 should be accepted about alpha = 5% of the time; 200 runs expect 10,
        // and 25 is more than four standard deviations (√(200·0.05·0.95) = 3.1) above that.
        let sprt = params("0,20");
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let false_accepts = (0..200)
            .filter(|_| {
                run_stream(&sprt, 0.0, 0.3, &mut rng, 100_000).0.decision == SprtDecision::AcceptH1
            })
            .count();
        assert!(false_accepts < 25, "{false_accepts} false acceptances");
    }
}
