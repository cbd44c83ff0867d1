//! Moves a search is told not to explore near the root: KataGo's `avoidMoves` and
//! `allowMoves`, for analysis that asks "and apart from this move?".

use game::Side;

/// One side's moves, avoided (or the only ones allowed) at its decisions less than
/// `until_depth` moves below the root (the root is depth 0).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRestriction {
    pub side: Side,
    pub actions: Vec<usize>,
    pub until_depth: u32,
    /// `true`: only these moves may be explored; `false`: these may not.
    pub allow_only: bool,
}

/// The restrictions of one search ([`crate::Tree::set_move_filter`]). A node where they would
/// leave no move keeps all its moves: a search must have something to explore.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveFilter {
    pub restrictions: Vec<MoveRestriction>,
}

impl MoveFilter {
    /// Whether `side` may explore `action` at a node `depth` moves below the root.
    pub fn permits(&self, side: Side, action: usize, depth: u32) -> bool {
        self.restrictions
            .iter()
            .filter(|r| r.side == side && depth < r.until_depth)
            .all(|r| r.actions.contains(&action) == r.allow_only)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restrictions_apply_to_their_side_above_their_depth() {
        let filter = MoveFilter {
            restrictions: vec![
                MoveRestriction {
                    side: Side::First,
                    actions: vec![3],
                    until_depth: 2,
                    allow_only: false,
                },
                MoveRestriction {
                    side: Side::Second,
                    actions: vec![1, 2],
                    until_depth: 1,
                    allow_only: true,
                },
            ],
        };
        assert!(!filter.permits(Side::First, 3, 0));
        assert!(!filter.permits(Side::First, 3, 1));
        assert!(filter.permits(Side::First, 3, 2), "deep enough");
        assert!(filter.permits(Side::First, 4, 0));
        assert!(
            filter.permits(Side::Second, 3, 1),
            "the avoidance is First's"
        );
        assert!(filter.permits(Side::Second, 2, 0));
        assert!(
            !filter.permits(Side::Second, 5, 0),
            "not in the allowed list"
        );
        assert!(filter.permits(Side::Second, 5, 1), "deep enough");
    }
}
