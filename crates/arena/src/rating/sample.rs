//! The mean score of a match and the variance of that mean, from outcome counts. Both the
//! confidence intervals and the SPRT rest on this normal approximation.

use super::outcomes::{Cell, Outcomes};

/// Mean score per game and the sampling variance of that mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreSample {
    /// Games behind the sample (may be fractional when counts are regularised).
    pub games: f64,
    /// Mean score per game in `[0, 1]`.
    pub mean: f64,
    /// Variance of `mean`: the per-unit variance over the number of units. Infinite with no
    /// data, so every interval built on it is unbounded and every LLR zero.
    pub var_of_mean: f64,
}

impl ScoreSample {
    pub fn new(outcomes: &impl Outcomes) -> Self {
        Self::from_cells(&outcomes.cells(), outcomes.games_per_unit())
    }

    /// Like [`ScoreSample::new`], with `pseudo_count` units added to every cell: a sample that
    /// has seen only wins then still has a positive variance, and a handful of games cannot
    /// produce a tiny variance by chance.
    pub fn regularised(outcomes: &impl Outcomes, pseudo_count: f64) -> Self {
        let cells: Vec<Cell> = outcomes
            .cells()
            .into_iter()
            .map(|cell| Cell {
                count: cell.count + pseudo_count,
                ..cell
            })
            .collect();
        Self::from_cells(&cells, outcomes.games_per_unit())
    }

    fn from_cells(cells: &[Cell], games_per_unit: f64) -> Self {
        let units: f64 = cells.iter().map(|c| c.count).sum();
        if units == 0.0 {
            return Self {
                games: 0.0,
                mean: 0.5,
                var_of_mean: f64::INFINITY,
            };
        }
        let mean = cells.iter().map(|c| c.count * c.score).sum::<f64>() / units;
        let var_per_unit = cells
            .iter()
            .map(|c| c.count * (c.score - mean).powi(2))
            .sum::<f64>()
            / units;
        Self {
            games: units * games_per_unit,
            mean,
            var_of_mean: var_per_unit / units,
        }
    }

    /// Standard error of the mean score.
    pub fn std_error(&self) -> f64 {
        self.var_of_mean.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::outcomes::{Pentanomial, Wdl};

    #[test]
    fn trinomial_variance_by_hand() {
        // 60 W, 20 D, 20 L: mean 0.7; per-game variance
        // (60·0.3² + 20·0.2² + 20·0.7²) / 100 = (5.4 + 0.8 + 9.8) / 100 = 0.16; over 100 games 0.0016.
        let sample = ScoreSample::new(&Wdl::new(60, 20, 20));
        assert_eq!(sample.games, 100.0);
        assert!((sample.mean - 0.7).abs() < 1e-12);
        assert!((sample.var_of_mean - 0.0016).abs() < 1e-12);
    }

    #[test]
    fn pentanomial_variance_by_hand() {
        // Pair scores per game 0.25, 0.5, 0.5, 0.75: mean 0.5 over 8 games; per-pair variance
        // (0.0625 + 0 + 0 + 0.0625) / 4 = 0.03125; over 4 pairs 0.0078125.
        let sample = ScoreSample::new(&Pentanomial {
            counts: [0, 1, 2, 1, 0],
        });
        assert_eq!(sample.games, 8.0);
        assert!((sample.mean - 0.5).abs() < 1e-12);
        assert!((sample.var_of_mean - 0.007_812_5).abs() < 1e-12);
    }

    #[test]
    fn pairs_that_cancel_have_less_variance_than_the_same_games_unpaired() {
        // Four pairs each won once and lost once are 4 W, 0 D, 4 L; paired there is no spread.
        let paired = ScoreSample::new(&Pentanomial {
            counts: [0, 0, 4, 0, 0],
        });
        let unpaired = ScoreSample::new(&Wdl::new(4, 0, 4));
        assert_eq!(paired.var_of_mean, 0.0);
        assert!(unpaired.var_of_mean > 0.0);
    }

    #[test]
    fn empty_sample_is_uninformative() {
        let sample = ScoreSample::new(&Wdl::default());
        assert_eq!(sample.mean, 0.5);
        assert_eq!(sample.var_of_mean, f64::INFINITY);
    }

    #[test]
    fn regularisation_adds_to_every_cell() {
        // 10.5 W, 0.5 D, 0.5 L: mean (10.5 + 0.25) / 11.5 = 0.934783.
        let sample = ScoreSample::regularised(&Wdl::new(10, 0, 0), 0.5);
        assert_eq!(sample.games, 11.5);
        assert!((sample.mean - 10.75 / 11.5).abs() < 1e-12);
        assert!(sample.var_of_mean > 0.0);
    }
}
