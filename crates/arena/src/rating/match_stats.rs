//! Head-to-head statistics for one match: score, Elo difference with a 95% interval, and the
//! likelihood of superiority.

use std::fmt;

use super::elo::{Z_95, elo_from_score, elo_per_score, normal_cdf};
use super::outcomes::Outcomes;
use super::sample::ScoreSample;

/// Summary of a match from the first player's point of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchStats {
    pub games: f64,
    /// Mean score per game in `[0, 1]`.
    pub score: f64,
    /// Elo difference; infinite for a 0% or 100% score.
    pub elo: f64,
    /// Lower end of the 95% interval on `elo`.
    pub elo_lower: f64,
    /// Upper end of the 95% interval on `elo`.
    pub elo_upper: f64,
    /// Likelihood of superiority: the probability the first player is the stronger.
    pub los: f64,
}

impl MatchStats {
    /// Computes the statistics under a normal approximation to the mean score.
    ///
    /// The interval is the delta method: `elo ± 1.96 · se(score) · d elo/d score`, using the
    /// trinomial (or pentanomial) variance, so it is symmetric in Elo. At a 0% or 100% score the
    /// derivative is infinite and the variance zero, so there the far side is infinite and the
    /// near side is the Wilson score bound for an all-wins binomial, `n / (n + z²)` (mirrored
    /// for all losses): finite, and tightening as games grow. With no games the interval is
    /// the whole line. A sample with no spread at all but an interior score (every game
    /// drawn, or every pair split) has zero variance and so a zero-width interval; read it as
    /// "too few games to tell" rather than certainty.
    ///
    /// LOS is `Φ((score − ½) / se(score))`, which for W/D/L is close to the textbook
    /// `Φ((W − L) / √(W + L))` and extends to game pairs unchanged.
    pub fn new(outcomes: &impl Outcomes) -> Self {
        let sample = ScoreSample::new(outcomes);
        let (elo_lower, elo_upper) = elo_interval(&sample);
        let excess = sample.mean - 0.5;
        let los = if excess == 0.0 {
            0.5
        } else {
            normal_cdf(excess / sample.std_error())
        };
        Self {
            games: sample.games,
            score: sample.mean,
            elo: elo_from_score(sample.mean),
            elo_lower,
            elo_upper,
            los,
        }
    }
}

fn elo_interval(sample: &ScoreSample) -> (f64, f64) {
    let wilson_bound = sample.games / (sample.games + Z_95 * Z_95);
    if sample.games == 0.0 {
        (f64::NEG_INFINITY, f64::INFINITY)
    } else if sample.mean == 1.0 {
        (elo_from_score(wilson_bound), f64::INFINITY)
    } else if sample.mean == 0.0 {
        (f64::NEG_INFINITY, elo_from_score(1.0 - wilson_bound))
    } else {
        let elo = elo_from_score(sample.mean);
        let half_width = Z_95 * sample.std_error() * elo_per_score(sample.mean);
        (elo - half_width, elo + half_width)
    }
}

impl fmt::Display for MatchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games, score {:.1}%, Elo {:+.1} [{:+.1}, {:+.1}], LOS {:.1}%",
            self.games,
            100.0 * self.score,
            self.elo,
            self.elo_lower,
            self.elo_upper,
            100.0 * self.los
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::outcomes::{Pentanomial, Wdl};

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() < tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    #[test]
    fn even_match_interval_by_hand() {
        // 30 W, 40 D, 30 L: score 0.5, Elo 0. Per-game variance (30·0.25 + 30·0.25) / 100 = 0.15,
        // se(score) = √(0.15 / 100) = 0.0387298. d elo/d score at ½ = 1600 / ln 10 = 694.871,
        // so se(elo) = 26.9122 and the half-width is 1.959964 · 26.9122 = 52.7470.
        let stats = MatchStats::new(&Wdl::new(30, 40, 30));
        close(stats.elo, 0.0, 1e-12);
        close(stats.elo_upper, 52.747_030, 1e-5);
        close(stats.elo_lower, -52.747_030, 1e-5);
        close(stats.los, 0.5, 1e-12);
    }

    #[test]
    fn uneven_match_interval_by_hand() {
        // 60 W, 20 D, 20 L: score 0.7, Elo 400·log10(7/3) = 147.1907. se(score) = √0.0016 = 0.04;
        // d elo/d score = 400 / (ln 10 · 0.21) = 827.228, se(elo) = 33.0891, half-width 64.8535.
        let stats = MatchStats::new(&Wdl::new(60, 20, 20));
        close(stats.score, 0.7, 1e-12);
        close(stats.elo, 147.190_714, 1e-5);
        close(stats.elo_upper - stats.elo, 64.853_451, 1e-5);
        close(stats.elo - stats.elo_lower, 64.853_451, 1e-5);
    }

    #[test]
    fn los_by_hand() {
        // 6 W, 2 D, 2 L: score 0.7, per-game variance 0.16, se = √0.016 = 0.126491;
        // z = 0.2 / 0.126491 = 1.581139 and Φ(1.581139) = 0.943077.
        close(MatchStats::new(&Wdl::new(6, 2, 2)).los, 0.943_077, 1e-6);
        close(
            MatchStats::new(&Wdl::new(2, 2, 6)).los,
            1.0 - 0.943_077,
            1e-6,
        );
    }

    #[test]
    fn perfect_score_uses_wilson_bound() {
        // 10 straight wins: lower score bound 10 / (10 + 1.959964²) = 10 / 13.841459 = 0.722467,
        // i.e. 400·log10(0.722467 / 0.277533) = +166.2015 Elo; upper and point estimate infinite.
        let stats = MatchStats::new(&Wdl::new(10, 0, 0));
        assert_eq!(stats.elo, f64::INFINITY);
        assert_eq!(stats.elo_upper, f64::INFINITY);
        close(stats.elo_lower, 166.201_527, 1e-5);
        assert_eq!(stats.los, 1.0);

        let lost = MatchStats::new(&Wdl::new(0, 0, 10));
        assert_eq!(lost.elo_lower, f64::NEG_INFINITY);
        close(lost.elo_upper, -166.201_527, 1e-5);
        assert_eq!(lost.los, 0.0);
    }

    #[test]
    fn no_games_is_unbounded() {
        let stats = MatchStats::new(&Wdl::default());
        assert_eq!(stats.elo, 0.0);
        assert_eq!(
            (stats.elo_lower, stats.elo_upper),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
    }

    #[test]
    fn interval_shrinks_with_more_games() {
        let width = |scale: u32| {
            let stats = MatchStats::new(&Wdl::new(6 * scale, 2 * scale, 2 * scale));
            stats.elo_upper - stats.elo_lower
        };
        // Same proportions, 100 times the games: a tenth of the width.
        close(width(100) * 10.0, width(1), 1e-9);
    }

    #[test]
    fn pairs_give_their_own_interval() {
        // 4 pairs scoring 0.25, 0.5, 0.5, 0.75 per game: score 0.5, var(mean) 0.0078125,
        // se 0.0883883, half-width 1.959964 · 0.0883883 · 694.871 = 120.3781.
        let stats = MatchStats::new(&Pentanomial {
            counts: [0, 1, 2, 1, 0],
        });
        assert_eq!(stats.games, 8.0);
        close(stats.elo_upper, 120.378_077, 1e-5);
    }

    #[test]
    fn displays_one_line_summary() {
        let text = MatchStats::new(&Wdl::new(60, 20, 20)).to_string();
        assert_eq!(
            text,
            "100 games, score 70.0%, Elo +147.2 [+82.3, +212.0], LOS 100.0%"
        );
    }
}
