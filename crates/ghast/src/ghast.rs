//! The public game state: a [`State`] over `u128` for sizes up to 6 (the fast path), over
//! [`U256`] for size 7.

use crate::action::{Action, MoveError, MoveProblem};
use crate::options::GhastOptions;
use crate::position::{Position, PositionError, PositionProblem};
use crate::result::GameResult;
use crate::state::State;
use game::Side;
use hexgrid::U256;
use std::fmt;

/// Largest size whose (2R+1)^2 square fits a `u128`.
const MAX_NARROW_SIZE: u8 = 6;

/// A game of Ghast in progress: the board, whose move it is, vetoes, the pending placement,
/// the run of passes, the repetition history and the result once it ends.
#[derive(Debug)]
pub struct Ghast(pub(crate) Inner);

impl Clone for Ghast {
    fn clone(&self) -> Self {
        Ghast(self.0.clone())
    }

    /// Reuses the repetition history's buffer (see [`Inner::clone_from`]).
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

#[derive(Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "the narrow state is the hot one: boxing it would cost an allocation per clone"
)]
pub(crate) enum Inner {
    Narrow(State<u128>),
    /// Boxed so that the common, narrow state stays small to clone.
    Wide(Box<State<U256>>),
}

impl Clone for Inner {
    fn clone(&self) -> Self {
        match self {
            Inner::Narrow(state) => Inner::Narrow(state.clone()),
            Inner::Wide(state) => Inner::Wide(state.clone()),
        }
    }

    /// Copies into the existing state when both have the same width, so that neither the
    /// history buffer nor a wide state's box is allocated again.
    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Inner::Narrow(state), Inner::Narrow(from)) => state.clone_from(from),
            (Inner::Wide(state), Inner::Wide(from)) => state.clone_from(from),
            (this, source) => *this = source.clone(),
        }
    }
}

/// Runs `$body` with `$state` bound to the inner state of `$ghast` (a `&Ghast` or a
/// `&mut Ghast`), whichever width it has.
macro_rules! with_state {
    ($ghast:expr, $state:ident => $body:expr) => {
        match $ghast {
            $crate::ghast::Ghast($crate::ghast::Inner::Narrow($state)) => $body,
            $crate::ghast::Ghast($crate::ghast::Inner::Wide($state)) => $body,
        }
    };
}
pub(crate) use with_state;

impl Ghast {
    /// The start position for `options`.
    pub fn new(options: &GhastOptions) -> Self {
        Self::from_position(options, &Position::empty(options.geometry()))
    }

    /// A game from `position`: the options' vetoes, no pending placement, no passes yet, and
    /// `position` as the first occurrence for the repetition rule.
    pub fn from_position(options: &GhastOptions, position: &Position) -> Self {
        if options.size() <= MAX_NARROW_SIZE {
            Ghast(Inner::Narrow(State::from_position(options, position)))
        } else {
            Ghast(Inner::Wide(Box::new(State::from_position(
                options, position,
            ))))
        }
    }

    /// Parses a position string and starts a game from it; its board must be the options' size.
    pub fn from_position_str(options: &GhastOptions, text: &str) -> Result<Self, PositionError> {
        let position: Position = text.parse()?;
        let got = position.geometry.size();
        if got != options.size() {
            let reason = PositionProblem::Size {
                got,
                expected: options.size(),
            };
            return Err(PositionError {
                text: text.to_string(),
                reason,
            });
        }
        Ok(Self::from_position(options, &position))
    }

    pub fn options(&self) -> &GhastOptions {
        with_state!(self, s => s.options())
    }

    pub fn position(&self) -> Position {
        with_state!(self, s => s.position())
    }

    pub fn result(&self) -> Option<GameResult> {
        with_state!(self, s => s.result())
    }

    /// Tiles of `side` on the board.
    pub fn tile_count(&self, side: Side) -> u32 {
        with_state!(self, s => s.count(side.index()))
    }

    /// Vetoes left to Orange and to Blue.
    pub fn vetoes_left(&self) -> [u8; 2] {
        with_state!(self, s => s.vetoes)
    }

    /// The placement awaiting an accept or veto, if any.
    pub fn pending(&self) -> Option<Action> {
        with_state!(self, s => s.pending.map(|(cell, orientation)| Action::Place {
            cell: usize::from(cell),
            orientation: usize::from(orientation),
        }))
    }

    /// The move in text notation, checked for legality here.
    pub fn parse_move(&self, text: &str) -> Result<Action, MoveError> {
        let action = Action::parse(text, self.options().geometry())?;
        self.check(action).map_err(|reason| MoveError {
            text: text.to_string(),
            reason,
        })?;
        Ok(action)
    }

    /// Why `action` is not legal now, if it is not.
    pub fn check(&self, action: Action) -> Result<(), MoveProblem> {
        with_state!(self, s => s.check(action))
    }

    /// Plays a legal action (checked in debug builds only).
    pub fn apply_action(&mut self, action: Action) {
        with_state!(self, s => s.apply(action))
    }

    /// Parses, checks and plays a move given in text notation.
    pub fn play(&mut self, text: &str) -> Result<Action, MoveError> {
        let action = self.parse_move(text)?;
        self.apply_action(action);
        Ok(action)
    }
}

impl fmt::Display for Ghast {
    /// The position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.position().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::RawOptions;
    use game::Game;

    /// A game a few random-looking moves in, on a board of `size`.
    fn played(size: i64, moves: usize) -> Ghast {
        let raw = RawOptions {
            size,
            ..RawOptions::default()
        };
        let mut game = Ghast::new(&raw.validate().expect("valid options"));
        let mut legal = Vec::new();
        for i in 0..moves {
            game.legal_actions(&mut legal);
            game.apply(legal[(i * 7919) % legal.len()]);
        }
        game
    }

    #[test]
    fn clone_from_matches_clone_across_widths() {
        for source in [played(6, 30), played(7, 30)] {
            for mut target in [played(6, 5), played(7, 5)] {
                target.clone_from(&source);
                let cloned = source.clone();
                assert_eq!(target.to_string(), cloned.to_string());
                assert_eq!(target.hash(), cloned.hash());
                assert_eq!(target.result(), cloned.result());
            }
        }
    }
}
