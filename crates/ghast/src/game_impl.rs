//! `game::Game` for [`Ghast`].

use crate::action::Action;
use crate::ghast::{Ghast, with_state};
use crate::options::GhastOptions;
use game::{BoardViewWork, Game, GtpWork, Outcome, Side};

impl Game for Ghast {
    type Options = GhastOptions;

    const NAME: &'static str = "ghast";

    const ABOUT: &'static str = "the hex game of tiles and couplers, with vetoes (RULES.md)";

    const OPTION_HELP: &'static [(&'static str, &'static str)] = &crate::options::RULES_HELP;

    const COLOURS: [&'static str; 2] = crate::diagram::COLOURS;

    /// UCT at 100,000 playouts still beats the small board's 30-minute bot (BENCHMARKS.md);
    /// 10,000 tells the two-hour bots apart.
    const STRONGEST_OPPONENTS: &'static [&'static str] = &["uct:10000", "uct:100000"];

    fn with_gtp<W: GtpWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn with_board_view<W: BoardViewWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn new(options: &GhastOptions) -> Self {
        Ghast::new(options)
    }

    fn options(&self) -> &GhastOptions {
        Ghast::options(self)
    }

    fn num_actions(&self) -> usize {
        6 * self.options().geometry().cells() + 3
    }

    fn to_move(&self) -> Side {
        with_state!(self, s => crate::state::side(s.to_move))
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        with_state!(self, s => s.legal_actions(out))
    }

    fn random_legal_action<R: rand::Rng + ?Sized>(&self, rng: &mut R, _: &mut Vec<usize>) -> usize {
        with_state!(self, s => s.random_legal_action(rng))
    }

    fn is_legal(&self, action: usize) -> bool {
        with_state!(self, s => s.is_legal(action))
    }

    fn apply(&mut self, action: usize) {
        with_state!(self, s => {
            debug_assert!(s.is_legal(action), "illegal action {action}");
            s.apply_index(action)
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result().map(|result| result.outcome)
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.result().map(|result| result.reason.name())
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn from_position_text(options: &GhastOptions, text: &str) -> Result<Self, String> {
        Ghast::from_position_str(options, text).map_err(|e| e.to_string())
    }

    fn result_text(&self) -> Option<String> {
        self.result().map(|result| result.to_string())
    }

    fn hash(&self) -> u64 {
        with_state!(self, s => s.hash())
    }

    fn score(&self, side: Side) -> f32 {
        with_state!(self, s => s.half_score(side.index()) as f32 / 2.0)
    }

    fn symmetry_count(&self) -> usize {
        crate::symmetry::symmetry_count(self.options())
    }

    fn transform_action(&self, sym: usize, action: usize) -> usize {
        crate::symmetry::transform_action(self.options(), sym, action)
    }

    fn action_to_string(&self, action: usize) -> String {
        let geometry = self.options().geometry();
        Action::from_index(action, geometry)
            .map_or_else(|| format!("action#{action}"), |a| a.to_text(geometry))
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        let action = self.parse_move(text).map_err(|error| error.to_string())?;
        Ok(action.index(self.options().geometry()))
    }
}
