use crate::{GtpGame, Side};

/// How a game is written in SGF (FF[4]), the record format of Go tools, where SGF has a
/// number for it (`GM`): the board's properties and its points. The `sgf` crate writes and
/// reads whole records through it; a game implements it and says so in [`crate::Game::with_sgf`].
/// Moves are SGF's `B` and `W` whatever the game calls its sides, as in every SGF game.
pub trait SgfGame: GtpGame {
    /// SGF's number of the game, its `GM` property: 1 for Go.
    const SGF_GAME: u32;

    /// The root's properties that set up a game under `options` (Go: `SZ`, `KM`, `RU`).
    fn sgf_setup(options: &Self::Options) -> Vec<(&'static str, String)>;

    /// The options a record's root sets up; `property` gives the first value of a root
    /// property. A value out of range is an error that names the property.
    fn sgf_options(property: &dyn Fn(&str) -> Option<String>) -> Result<Self::Options, String>;

    /// The SGF point of a placement (Go: `cd`); `None` for an action that places nothing (a
    /// pass, which SGF writes as an empty value, `B[]`).
    fn sgf_point(options: &Self::Options, action: usize) -> Option<String>;

    /// The action an SGF move or stone value names under `options`; not checked for
    /// legality, which the position decides.
    fn sgf_action(options: &Self::Options, value: &str) -> Result<usize, String>;

    /// The stones on the board, each as its placement's action: a record of a game that does
    /// not start empty writes them as `AB` and `AW`.
    fn stones(&self) -> Vec<(Side, usize)>;
}
