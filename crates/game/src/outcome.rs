use crate::Side;
use serde::{Deserialize, Serialize};

/// How a finished game ended, independent of why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    Win(Side),
    Draw,
}

impl Outcome {
    /// +1 for a win of `side`, -1 for a loss, 0 for a draw: the value scale search uses.
    pub fn value_for(self, side: Side) -> f32 {
        match self {
            Outcome::Win(winner) if winner == side => 1.0,
            Outcome::Win(_) => -1.0,
            Outcome::Draw => 0.0,
        }
    }

    /// Index into a win/draw/loss triple from `side`'s point of view.
    pub fn wdl_index_for(self, side: Side) -> usize {
        match self {
            Outcome::Win(winner) if winner == side => 0,
            Outcome::Draw => 1,
            Outcome::Win(_) => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_zero_sum() {
        for outcome in [
            Outcome::Win(Side::First),
            Outcome::Win(Side::Second),
            Outcome::Draw,
        ] {
            let sum = outcome.value_for(Side::First) + outcome.value_for(Side::Second);
            assert_eq!(sum, 0.0, "{outcome:?}");
        }
        assert_eq!(Outcome::Win(Side::Second).wdl_index_for(Side::First), 2);
        assert_eq!(Outcome::Win(Side::Second).wdl_index_for(Side::Second), 0);
        assert_eq!(Outcome::Draw.wdl_index_for(Side::First), 1);
    }
}
