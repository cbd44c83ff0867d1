//! `game::Game` for [`Fakerghast`]: one action per decision (real tile, fake tile, `single`,
//! `pass`).

use super::moves::{Decision, Move};
use super::options::FakerghastOptions;
use super::{Fakerghast, with_hidden};
use crate::action::MoveError;
use crate::state::side;
use crate::symmetry;
use game::{BoardViewWork, Game, GtpWork, Outcome, Side};

impl Game for Fakerghast {
    type Options = FakerghastOptions;

    const NAME: &'static str = "fakerghast";

    const HIDDEN_INFORMATION: bool = true;

    const ABOUT: &'static str = "Ghast with face-down tiles: every placement a pair, one real, one fake (RULES.md section 9)";

    const OPTION_HELP: &'static [(&'static str, &'static str)] = &super::options::RULES_HELP;

    const COLOURS: [&'static str; 2] = crate::diagram::COLOURS;

    fn with_gtp<W: GtpWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn with_board_view<W: BoardViewWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn new(options: &FakerghastOptions) -> Self {
        Fakerghast::new(options)
    }

    fn sample_hidden(&mut self, seed: u64) {
        with_hidden!(self, s => s.sample_hidden(seed))
    }

    fn options(&self) -> &FakerghastOptions {
        Fakerghast::options(self)
    }

    fn num_actions(&self) -> usize {
        6 * self.options().ghast().geometry().cells() + 2
    }

    fn to_move(&self) -> Side {
        with_hidden!(self, s => side(s.to_move))
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        with_hidden!(self, s => s.legal_actions(out))
    }

    fn random_legal_action<R: rand::Rng + ?Sized>(&self, rng: &mut R, _: &mut Vec<usize>) -> usize {
        with_hidden!(self, s => s.random_legal_action(rng))
    }

    fn is_legal(&self, action: usize) -> bool {
        with_hidden!(self, s => s.is_legal(action))
    }

    fn apply(&mut self, action: usize) {
        with_hidden!(self, s => {
            let decision = Decision::from_index(action, s.tables.geometry)
                .unwrap_or_else(|| panic!("action {action} does not exist on this board"));
            s.decide(decision)
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result().map(|result| result.outcome)
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.result().map(|result| result.reason.name())
    }

    fn position_text(&self) -> String {
        self.full_text()
    }

    fn position_seen_by(&self, viewer: Side) -> String {
        self.view_text(viewer)
    }

    fn result_text(&self) -> Option<String> {
        self.result().map(|result| result.to_string())
    }

    fn hash(&self) -> u64 {
        with_hidden!(self, s => s.hash())
    }

    fn score(&self, side: Side) -> f32 {
        with_hidden!(self, s => s.half_score(side.index()) as f32 / 2.0)
    }

    fn symmetry_count(&self) -> usize {
        symmetry::symmetry_count(self.options().ghast())
    }

    fn transform_action(&self, sym: usize, action: usize) -> usize {
        symmetry::transform_action(self.options().ghast(), sym, action)
    }

    fn action_to_string(&self, action: usize) -> String {
        let geometry = self.options().ghast().geometry();
        Decision::from_index(action, geometry).map_or_else(
            || format!("action#{action}"),
            |decision| decision.to_text(geometry, self.pending().is_some()),
        )
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        let geometry = self.options().ghast().geometry();
        let decision = Decision::parse(text, geometry).map_err(|error| error.to_string())?;
        with_hidden!(self, s => s.check(decision)).map_err(|reason| {
            MoveError {
                text: text.to_string(),
                reason,
            }
            .to_string()
        })?;
        Ok(decision.index(geometry))
    }

    fn parse_move(&self, text: &str) -> Result<Vec<usize>, String> {
        let played = Fakerghast::parse_move(self, text).map_err(|error| error.to_string())?;
        Ok(self.decisions(played))
    }

    fn mid_move(&self) -> bool {
        self.pending().is_some()
    }

    /// In full to its mover (`f6:3+g7:1`), in public form to the other side
    /// (`f6:3,g7:1/c2`).
    fn told_move(before: &Self, actions: &[usize], after: &Self, viewer: Side) -> String {
        let geometry = after.options().ghast().geometry();
        match after.last_move() {
            Some(played) if viewer == before.to_move() => played.to_text(geometry),
            Some(_) => after.last_move_public().unwrap_or_default(),
            None => actions
                .iter()
                .map(|&action| before.action_to_string(action))
                .collect(),
        }
    }

    /// The full form of a move of the side to move, or the public form of a move told to the
    /// other side: a pair whose real tile it does not know gets one assumed until its reveal
    /// (`/hex`) says which.
    fn play_told(&mut self, text: &str) -> Result<Vec<usize>, String> {
        if !text.contains([',', '/']) {
            let actions = Game::parse_move(self, text)?;
            actions.iter().for_each(|&action| self.apply(action));
            return Ok(actions);
        }
        let geometry = self.options().ghast().geometry();
        let refused = |reason| {
            MoveError {
                text: text.to_string(),
                reason,
            }
            .to_string()
        };
        let (played, reveals) =
            Move::parse_public(text, geometry).map_err(|error| error.to_string())?;
        with_hidden!(self, s => s.check_move(played)).map_err(refused)?;
        let mut next = self.clone();
        for cell in reveals {
            with_hidden!(&mut next, s => s.learn_reveal(cell)).map_err(refused)?;
        }
        let actions = next.decisions(played);
        next.apply_move(played);
        *self = next;
        Ok(actions)
    }
}
