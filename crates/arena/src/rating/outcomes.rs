//! Match results as counts of outcomes: per game (win/draw/loss) or per colour-swapped game pair
//! (pentanomial). Pairs matter because a pair played from the same opening with colours swapped
//! is correlated; scoring the pair as one unit gives an honest, usually smaller, variance.

/// Wins, draws and losses of one side against another.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Self {
        Self {
            wins,
            draws,
            losses,
        }
    }

    pub const fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored, counting a draw as half a win.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// The same results seen from the other side.
    pub const fn reversed(&self) -> Self {
        Self::new(self.losses, self.draws, self.wins)
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Self) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// Counts of game pairs by the pair's total score in half points: `counts[k]` pairs scored
/// `k / 2` points out of 2 (index 0: lost both, 2: one win and one loss or two draws, 4: won both).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Records one pair from the two games' scores (each 0, 0.5 or 1 points, as half points
    /// 0, 1 or 2).
    ///
    /// # Panics
    /// If either score is above 2 half points: a caller bug, not a game result.
    pub fn record(&mut self, first_half_points: u8, second_half_points: u8) {
        assert!(
            first_half_points <= 2 && second_half_points <= 2,
            "a game scores 0, 1 or 2 half points"
        );
        self.counts[usize::from(first_half_points + second_half_points)] += 1;
    }
}

/// One kind of outcome: how often it happened and the per-game score it stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub count: f64,
    pub score: f64,
}

/// A distribution of outcomes over units (games or game pairs), so the same statistics serve
/// both trinomial and pentanomial data.
pub trait Outcomes {
    /// Every outcome with its count and its mean score per game.
    fn cells(&self) -> Vec<Cell>;

    /// Games in one unit: 1 for single games, 2 for pairs.
    fn games_per_unit(&self) -> f64;
}

impl Outcomes for Wdl {
    fn cells(&self) -> Vec<Cell> {
        [(self.losses, 0.0), (self.draws, 0.5), (self.wins, 1.0)]
            .into_iter()
            .map(|(count, score)| Cell {
                count: f64::from(count),
                score,
            })
            .collect()
    }

    fn games_per_unit(&self) -> f64 {
        1.0
    }
}

impl Outcomes for Pentanomial {
    fn cells(&self) -> Vec<Cell> {
        self.counts
            .iter()
            .zip([0.0, 0.25, 0.5, 0.75, 1.0])
            .map(|(&count, score)| Cell {
                count: f64::from(count),
                score,
            })
            .collect()
    }

    fn games_per_unit(&self) -> f64 {
        2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_points_and_reversal() {
        let wdl = Wdl::new(6, 3, 1);
        assert_eq!(wdl.games(), 10);
        assert_eq!(wdl.points(), 7.5);
        assert_eq!(wdl.reversed(), Wdl::new(1, 3, 6));
    }

    #[test]
    fn pentanomial_buckets_by_pair_total() {
        let mut pairs = Pentanomial::default();
        pairs.record(2, 0);
        pairs.record(1, 1);
        pairs.record(2, 1);
        pairs.record(0, 0);
        assert_eq!(pairs.counts, [1, 0, 2, 1, 0]);
    }
}
