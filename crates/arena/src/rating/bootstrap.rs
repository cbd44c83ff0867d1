//! Bootstrap intervals for Bradley-Terry ratings: refit on tables whose games are resampled
//! within each pairing, and take percentiles. Slower than the Hessian intervals, but it does
//! not lean on the likelihood being quadratic, which matters for lopsided pairings.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bradley_terry::{BradleyTerry, Rating, RatingError};
use super::elo::ELO_PER_NAT;
use super::outcomes::Wdl;
use super::result_table::ResultTable;

impl BradleyTerry {
    /// Ratings whose `lower`/`upper` are the 2.5th and 97.5th percentiles over `resamples`
    /// refits (the point estimates stay those of [`BradleyTerry::fit`]). Each refit draws every
    /// pairing's games again, as many as were played, from that pairing's observed W/D/L
    /// frequencies. Seeded, so a report can be reproduced.
    pub fn bootstrap(
        &self,
        table: &ResultTable,
        resamples: usize,
        seed: u64,
    ) -> Result<Vec<Rating>, RatingError> {
        let mut ratings = self.fit(table)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut samples = vec![Vec::with_capacity(resamples); ratings.len()];
        for _ in 0..resamples {
            let resampled = table.map_results(|wdl| resample(wdl, &mut rng));
            let fit = self.fit_natural(&resampled)?;
            for (player, theta) in fit.theta.iter().enumerate() {
                samples[player].push(theta * ELO_PER_NAT);
            }
        }
        for (rating, mut elos) in ratings.iter_mut().zip(samples) {
            elos.sort_by(f64::total_cmp);
            rating.lower = percentile(&elos, 0.025);
            rating.upper = percentile(&elos, 0.975);
        }
        Ok(ratings)
    }
}

/// As many games as `wdl` holds, each a win, draw or loss with the observed frequencies.
fn resample(wdl: Wdl, rng: &mut impl Rng) -> Wdl {
    let games = wdl.games();
    let mut drawn = Wdl::default();
    for _ in 0..games {
        let pick = rng.random_range(0..games);
        drawn += if pick < wdl.wins {
            Wdl::new(1, 0, 0)
        } else if pick < wdl.wins + wdl.draws {
            Wdl::new(0, 1, 0)
        } else {
            Wdl::new(0, 0, 1)
        };
    }
    drawn
}

/// Linearly interpolated percentile of sorted, non-empty data (`q` in `[0, 1]`).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let fraction = position - below as f64;
    sorted[below] + fraction * (sorted[above] - sorted[below])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder(scale: u32) -> ResultTable {
        let mut table = ResultTable::new();
        table.record(
            "gen-1",
            "random",
            Wdl::new(30 * scale, 4 * scale, 6 * scale),
        );
        table.record(
            "gen-2",
            "gen-1",
            Wdl::new(24 * scale, 6 * scale, 10 * scale),
        );
        table.record(
            "gen-2",
            "random",
            Wdl::new(36 * scale, 2 * scale, 2 * scale),
        );
        table
    }

    #[test]
    fn percentile_interpolates() {
        // Position 0.25 · 4 = 1 → 20; 0.1 · 4 = 0.4 → 10 + 0.4 · (20 − 10) = 14.
        let data = [10.0, 20.0, 30.0, 40.0, 50.0];
        assert_eq!(percentile(&data, 0.25), 20.0);
        assert!((percentile(&data, 0.1) - 14.0).abs() < 1e-12);
        assert_eq!(percentile(&data, 1.0), 50.0);
    }

    #[test]
    fn resampling_keeps_the_game_count_and_impossible_outcomes_out() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let drawn = resample(Wdl::new(5, 0, 3), &mut rng);
        assert_eq!(drawn.games(), 8);
        assert_eq!(drawn.draws, 0);
    }

    #[test]
    fn bootstrap_agrees_with_hessian_and_shrinks() {
        let bt = BradleyTerry::new("random");
        let hessian = bt.fit(&ladder(1)).unwrap();
        let boot = bt.bootstrap(&ladder(1), 400, 11).unwrap();
        let boot_large = bt.bootstrap(&ladder(16), 400, 11).unwrap();
        for ((h, b), big) in hessian.iter().zip(&boot).zip(&boot_large) {
            assert_eq!(h.elo, b.elo);
            if h.name == "random" {
                assert_eq!((b.lower, b.upper), (0.0, 0.0));
                continue;
            }
            assert!(b.lower < b.elo && b.elo < b.upper, "{b:?}");
            // Two estimates of one spread: within a factor of 1.5 of each other.
            let ratio = (b.upper - b.lower) / (h.upper - h.lower);
            assert!(
                (1.0 / 1.5..1.5).contains(&ratio),
                "{} ratio {ratio}",
                h.name
            );
            // 16 times the games: about a quarter of the width.
            let shrink = (big.upper - big.lower) / (b.upper - b.lower);
            assert!((0.15..0.35).contains(&shrink), "{} shrink {shrink}", h.name);
        }
    }
}
