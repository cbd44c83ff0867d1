//! Fakerghast, Ghast's hidden-information variant (RULES.md section 9): every placement (or,
//! under `fakes`, a few) is a pair of face-down tiles, one real and one fake, revealed some
//! turns later.
//!
//! It lives beside Ghast because it is Ghast's board and removal with face-down tiles on it.
//! For search and the network a pair is two decisions of its owner, the real tile and then the
//! fake, so the policy stays hex x orientation. What a side may not know, which tile of each
//! opponent pair is real, is kept out of its planes and replaced by a sample before search
//! ([`game::Game::sample_hidden`]).

mod game_impl;
mod moves;
mod options;
mod planes;
mod show;
mod state;

pub use moves::{Decision, Move, Placement};
pub use options::{FakerghastOptions, Hiding, RawFakerghastOptions};
pub use planes::CHANNELS;
pub use show::{Board, Cell, FaceDown, PendingReal};

use crate::action::MoveError;
use crate::position::{tile_letter, to_move_letter, write_rows};
use crate::result::GameResult;
use crate::state::side;
use game::Side;
use hexgrid::{Bits, U256};
use state::HiddenState;
use std::fmt::Write;

/// Largest size whose (2R+1)^2 square fits a `u128`.
const MAX_NARROW_SIZE: u8 = 6;

/// A game of Fakerghast in progress, with the whole truth: which tile of every pair is real.
/// A player's program sees it through [`Fakerghast::view_text`], the public form of moves and
/// its planes; search sees it only after [`game::Game::sample_hidden`].
#[derive(Clone)]
pub struct Fakerghast(Inner);

#[derive(Clone)]
#[expect(
    clippy::large_enum_variant,
    reason = "the narrow state is the hot one: boxing it would cost an allocation per clone"
)]
enum Inner {
    Narrow(HiddenState<u128>),
    /// Boxed so that the common, narrow state stays small to clone.
    Wide(Box<HiddenState<U256>>),
}

/// Runs `$body` with `$state` bound to the inner state of `$game` (a `&Fakerghast` or a
/// `&mut Fakerghast`), whichever width it has.
macro_rules! with_hidden {
    ($game:expr, $state:ident => $body:expr) => {
        match $game {
            $crate::fakerghast::Fakerghast($crate::fakerghast::Inner::Narrow($state)) => $body,
            $crate::fakerghast::Fakerghast($crate::fakerghast::Inner::Wide($state)) => $body,
        }
    };
}
pub(crate) use with_hidden;

impl Fakerghast {
    /// The start position for `options`.
    pub fn new(options: &FakerghastOptions) -> Self {
        if options.ghast().size() <= MAX_NARROW_SIZE {
            Fakerghast(Inner::Narrow(HiddenState::new(options)))
        } else {
            Fakerghast(Inner::Wide(Box::new(HiddenState::new(options))))
        }
    }

    pub fn options(&self) -> &FakerghastOptions {
        with_hidden!(self, s => s.options)
    }

    pub fn result(&self) -> Option<GameResult> {
        with_hidden!(self, s => s.result())
    }

    /// Pairs each side may still place under `fakes` (0 under `fakerghast`).
    pub fn fakes_left(&self) -> [u8; 2] {
        with_hidden!(self, s => s.fakes_left)
    }

    /// The real tile chosen this turn, awaiting its fake (or `single`).
    pub fn pending(&self) -> Option<Placement> {
        with_hidden!(self, s => s.pending)
    }

    /// The move in full form, checked for legality here; an error names the tile at fault.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let geometry = self.options().ghast().geometry();
        let played = Move::parse(text, geometry)?;
        with_hidden!(self, s => s.check_move(played)).map_err(|reason| MoveError {
            text: text.to_string(),
            reason,
        })?;
        Ok(played)
    }

    /// The decisions (dense action indices) that play the legal move `played` from here.
    pub fn decisions(&self, played: Move) -> Vec<usize> {
        let geometry = self.options().ghast().geometry();
        let pairs_possible = with_hidden!(self, s => s.starts_pair());
        played
            .decisions(pairs_possible)
            .into_iter()
            .map(|decision| decision.index(geometry))
            .collect()
    }

    /// Plays a legal move (checked in debug builds only).
    pub fn apply_move(&mut self, played: Move) {
        for decision in self.decisions(played) {
            game::Game::apply(self, decision);
        }
    }

    /// Parses, checks and plays a move given in full form.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let played = self.parse_move(text)?;
        self.apply_move(played);
        Ok(played)
    }

    /// The last turn's move in full form, `None` before the first.
    pub fn last_move(&self) -> Option<Move> {
        with_hidden!(self, s => s.last.map(|last| last.played))
    }

    /// The last turn's move as its opponent receives it (RULES.md 9.4): the tiles in board
    /// order, then `/` and the real hex of each pair the turn revealed.
    pub fn last_move_public(&self) -> Option<String> {
        let geometry = self.options().ghast().geometry();
        with_hidden!(self, s => s.last.map(|last| {
            let mut text = last.played.public_text(geometry);
            for cell in last.revealed.ones() {
                text.push('/');
                text.push_str(&geometry.hex_name(cell));
            }
            text
        }))
    }

    /// The position string in full view (RULES.md 9.4): every pair written `real+fake`.
    pub fn full_text(&self) -> String {
        self.position_string(None)
    }

    /// The position string as `viewer` sees it: the opponent's pairs in public form.
    pub fn view_text(&self, viewer: Side) -> String {
        self.position_string(Some(viewer))
    }

    fn position_string(&self, viewer: Option<Side>) -> String {
        let geometry = self.options().ghast().geometry();
        with_hidden!(self, s => {
            let letter = |cell: usize| match s.board.piece(cell) {
                Some((colour, orientation)) => Some(tile_letter(side(colour), orientation, false)),
                None => s.face_down_on(cell).map(|(pair, tile, _)| {
                    tile_letter(side(usize::from(pair.owner)), usize::from(tile.orientation), true)
                }),
            };
            let mut text = String::new();
            write_rows(&mut text, geometry, letter).expect("writing to a string");
            let to_move = side(s.to_move);
            write!(text, " {} {}", to_move_letter(to_move), s.turn).expect("writing to a string");
            for owner in Side::BOTH {
                for pair in s.pairs().iter().filter(|pair| side(usize::from(pair.owner)) == owner) {
                    let hidden = viewer.is_some_and(|viewer| viewer != owner);
                    let tiles = if hidden {
                        let (a, b) = (pair.real.cell.min(pair.fake.cell), pair.real.cell.max(pair.fake.cell));
                        format!("{},{}", geometry.hex_name(usize::from(a)), geometry.hex_name(usize::from(b)))
                    } else {
                        format!(
                            "{}+{}",
                            geometry.hex_name(usize::from(pair.real.cell)),
                            geometry.hex_name(usize::from(pair.fake.cell))
                        )
                    };
                    write!(text, " {}{}:{tiles}", to_move_letter(owner), pair.left)
                        .expect("writing to a string");
                }
            }
            text
        })
    }
}

impl std::fmt::Debug for Fakerghast {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fakerghast")
            .field("position", &self.full_text())
            .field("pending", &self.pending())
            .field("fakes_left", &self.fakes_left())
            .field("result", &self.result())
            .finish()
    }
}

impl std::fmt::Display for Fakerghast {
    /// The position string in full view.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.full_text())
    }
}
