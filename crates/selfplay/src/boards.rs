//! The boards self-play plays on: the run's own, and in a run that mixes board sizes
//! (KataGo's `bSizes`) others, each with its share of the games. One network learns them all:
//! what a small board teaches cheaply carries to the large one.

use rand::Rng;

/// Game options with their shares of the games; the first are the run's own.
#[derive(Clone, Debug, PartialEq)]
pub struct Boards<O> {
    options: Vec<O>,
    /// Running totals of the shares, the last 1.
    cumulative: Vec<f64>,
}

impl<O> Boards<O> {
    /// Every game on `options`.
    pub fn one(options: O) -> Self {
        Boards {
            options: vec![options],
            cumulative: vec![1.0],
        }
    }

    /// Boards with weights of their share of the games (any positive numbers; they are
    /// normalised); the first are the run's own. An empty list, or a weight that is not a
    /// positive number, is an error that says which.
    pub fn mix(boards: Vec<(O, f64)>) -> Result<Self, String> {
        if boards.is_empty() {
            return Err("no board to play on".to_owned());
        }
        if let Some(index) = boards
            .iter()
            .position(|(_, share)| !(share.is_finite() && *share > 0.0))
        {
            return Err(format!(
                "board {}'s share {} is not a positive number",
                index + 1,
                boards[index].1
            ));
        }
        let total: f64 = boards.iter().map(|(_, share)| share).sum();
        let mut running = 0.0;
        let mut cumulative = Vec::with_capacity(boards.len());
        let mut options = Vec::with_capacity(boards.len());
        for (board, share) in boards {
            running += share / total;
            cumulative.push(running);
            options.push(board);
        }
        *cumulative.last_mut().expect("not empty") = 1.0;
        Ok(Boards {
            options,
            cumulative,
        })
    }

    /// How many boards there are.
    pub fn len(&self) -> usize {
        self.options.len()
    }

    pub fn is_empty(&self) -> bool {
        self.options.is_empty()
    }

    /// The options of board `index` (0: the run's own).
    pub fn options(&self, index: usize) -> &O {
        &self.options[index]
    }

    /// Every board's options, the run's own first.
    pub fn all(&self) -> &[O] {
        &self.options
    }

    /// The board of a new game, drawn by the shares; with one board, 0 and no draw, so that a
    /// run of one board plays the games it played before boards could be mixed.
    pub(crate) fn draw(&self, rng: &mut impl Rng) -> usize {
        if self.options.len() == 1 {
            return 0;
        }
        let pick: f64 = rng.random();
        self.cumulative
            .iter()
            .position(|&end| pick < end)
            .unwrap_or(self.options.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn games_are_drawn_by_the_shares() {
        let boards = Boards::mix(vec![("large", 3.0), ("small", 1.0)]).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let small = (0..4000).filter(|_| boards.draw(&mut rng) == 1).count();
        assert!((850..1150).contains(&small), "about a quarter: {small}");
        assert_eq!(boards.all(), ["large", "small"]);
        assert_eq!(*boards.options(1), "small");
    }

    #[test]
    fn one_board_draws_nothing() {
        let boards = Boards::one("only");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let mut untouched = rng.clone();
        assert_eq!(boards.draw(&mut rng), 0);
        assert_eq!(rng.random::<u64>(), untouched.random::<u64>());
    }

    #[test]
    fn shares_that_are_not_positive_are_refused_by_board() {
        assert_eq!(
            Boards::mix(vec![("a", 1.0), ("b", 0.0)]).unwrap_err(),
            "board 2's share 0 is not a positive number"
        );
        assert!(Boards::<&str>::mix(Vec::new()).is_err());
    }
}
