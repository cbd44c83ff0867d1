use crate::{Game, Side};
use serde::Serialize;

/// How a game shows itself on the web page: everything the page draws, worked out by the
/// rules, so that the page holds none. The page reads the game's name to pick its drawing
/// module. A capability, not an obligation: a game without one trains and rates, and
/// `ghast serve` says it has no page yet.
pub trait BoardView: Game {
    /// The board in the game's own terms (hexes and tiles, points and stones), with which
    /// places take a move now.
    type Board: Serialize;

    /// The page's drawing of this game: the source of an ES module, served as `/game.js`,
    /// that draws [`BoardView::Board`] and the game's own controls (the serve crate's
    /// `page.js` says what it exports). The game's crate ships it, so a new game brings its
    /// board with it.
    const PAGE_MODULE: &'static str;

    /// The board as `viewer` may see it (which matters only where something is hidden).
    fn board(&self, viewer: Side) -> Self::Board;

    /// The hex or point that `action` puts a piece on, if it puts one anywhere: the page's
    /// heat map sums the search's prior over it.
    fn target_name(&self, action: usize) -> Option<String>;

    /// What `action`, played in `before`, did to the board to give `after`.
    fn effect(before: &Self, action: usize, after: &Self) -> Effect;
}

/// The places a move changed: where a piece came from and landed, and whose pieces it took
/// away.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Effect {
    /// The square a piece moved from, in a game whose pieces move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The hex, point or square a piece landed on (placed, or moved to), if one did.
    pub placed: Option<String>,
    /// The hexes or points whose pieces the move removed.
    pub removed: Vec<String>,
}
