//! `game::Game` for [`GhostChess`]: one action per decision of section 10 (a square or one
//! of five globals); a move is a whole turn, its token.

use crate::notation::{action_text, parse_action, parse_turn, turn_token};
use crate::options::GhostChessOptions;
use crate::rules::{ACTIONS, COLOUR_NAMES, Decision, Ending, GhostChess, colour_name};
use game::{BoardViewWork, Game, GtpWork, Outcome, Side};

impl Game for GhostChess {
    type Options = GhostChessOptions;

    const NAME: &'static str = "ghostchess";

    const TITLE: &'static str = "Ghost Chess";

    const ABOUT: &'static str = "one black queen, the Ghost, against White's army without king \
         and queen, with special moves on both sides (GHOST-CHESS.md)";

    const OPTION_HELP: &'static [(&'static str, &'static str)] = &[(
        "max_moves",
        "turns (both players' counted) after which White wins, 1..=100000",
    )];

    const COLOURS: [&'static str; 2] = COLOUR_NAMES;

    fn with_gtp<W: GtpWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn with_board_view<W: BoardViewWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn new(options: &GhostChessOptions) -> Self {
        GhostChess::new(options)
    }

    fn options(&self) -> &GhostChessOptions {
        GhostChess::options(self)
    }

    fn num_actions(&self) -> usize {
        ACTIONS
    }

    /// The decider, who is not always the player whose turn it is.
    fn to_move(&self) -> Side {
        self.decider()
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        self.legal(out);
    }

    fn is_legal(&self, action: usize) -> bool {
        GhostChess::is_legal(self, action)
    }

    fn apply(&mut self, action: usize) {
        debug_assert!(
            GhostChess::is_legal(self, action),
            "illegal action {action}"
        );
        GhostChess::apply(self, action);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ending().map(|(winner, _)| Outcome::Win(winner))
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.ending().map(|(_, ending)| Ending::name(ending))
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn from_position_text(options: &GhostChessOptions, text: &str) -> Result<Self, String> {
        GhostChess::from_position(options, text).map_err(|e| e.to_string())
    }

    fn result_text(&self) -> Option<String> {
        let (winner, ending) = self.ending()?;
        Some(format!("{} {}", colour_name(winner), ending.name()))
    }

    fn hash(&self) -> u64 {
        GhostChess::hash(self)
    }

    /// Material ([`GhostChess::material`]: the Ghost worth White's whole army). Only
    /// material, so that the lead is a dense signal for Black, who wins by taking everything
    /// (the ends themselves are the value's).
    fn score(&self, side: Side) -> f32 {
        self.material(side)
    }

    /// None: the mirror turns dark squares light, and the sides play different games
    /// (section 12).
    fn symmetry_count(&self) -> usize {
        1
    }

    fn transform_action(&self, _sym: usize, action: usize) -> usize {
        action
    }

    fn action_to_string(&self, action: usize) -> String {
        action_text(self, action)
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        parse_action(self, text)
    }

    fn parse_move(&self, text: &str) -> Result<Vec<usize>, String> {
        parse_turn(self, text)
    }

    /// A turn goes on until its last decision; the decider may change within it.
    fn mid_move(&self) -> bool {
        !matches!(self.decision(), Decision::From | Decision::Over)
    }

    fn told_move(before: &Self, actions: &[usize], _after: &Self, _viewer: Side) -> String {
        turn_token(before, actions)
    }
}
