//! Conversions between expected score and logistic Elo, and the normal distribution helpers the
//! interval and LOS calculations need.

use std::f64::consts::{LN_10, SQRT_2};

/// Two-sided 95% quantile of the standard normal distribution, Φ⁻¹(0.975).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Elo difference whose logistic expected score is `score`: `-400·log10(1/score - 1)`.
///
/// Returns `+∞` for a score of 1 and `-∞` for 0: a perfect record has no finite estimate, and
/// callers decide how to present that rather than receiving an arbitrary clamp.
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Logistic expected score for an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo per natural-log-odds unit: ratings are fitted as log-odds and reported in Elo.
pub const ELO_PER_NAT: f64 = 400.0 / LN_10;

/// Derivative of [`elo_from_score`], `400 / (ln 10 · p · (1 - p))`: the delta-method factor that
/// turns a standard error on the score into one on the Elo difference.
pub fn elo_per_score(score: f64) -> f64 {
    ELO_PER_NAT / (score * (1.0 - score))
}

/// Standard normal cumulative distribution Φ(x).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

/// Complementary error function, Chebyshev fit from Numerical Recipes (`erfcc`), fractional
/// error below 1.2e-7 everywhere: ample for LOS, and std has no `erf`.
fn erfc(x: f64) -> f64 {
    const COEFFS: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = COEFFS.iter().rev().fold(0.0, |acc, c| c + t * acc);
    let tail = t * (-z * z + poly).exp();
    if x >= 0.0 { tail } else { 2.0 - tail }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_to_one_score_is_400_log10_3() {
        // 0.75 / 0.25 = 3, so Δ = 400·log10(3) = 400 · 0.477121 = 190.8485.
        assert!((elo_from_score(0.75) - 190.848_501_887_865).abs() < 1e-9);
        assert!((elo_from_score(0.25) + 190.848_501_887_865).abs() < 1e-9);
        assert_eq!(elo_from_score(0.5), 0.0);
    }

    #[test]
    fn score_and_elo_round_trip() {
        // 400 Elo is odds of 10:1, so a score of 10/11.
        assert!((score_from_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
        for elo in [-800.0, -35.5, 0.0, 12.0, 600.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
    }

    #[test]
    fn perfect_scores_are_infinite() {
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn elo_per_score_at_even_is_1600_over_ln10() {
        // p(1-p) = 1/4 at p = 1/2, so 400 / (ln 10 / 4) = 1600 / 2.302585 = 694.871.
        assert!((elo_per_score(0.5) - 1600.0 / LN_10).abs() < 1e-9);
    }

    #[test]
    fn normal_cdf_matches_tables() {
        // Φ(0) = 0.5, Φ(1.959964) = 0.975, Φ(-1) = 0.158655 (standard normal tables).
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(Z_95) - 0.975).abs() < 1e-7);
        assert!((normal_cdf(-1.0) - 0.158_655_253_9).abs() < 1e-7);
    }
}
