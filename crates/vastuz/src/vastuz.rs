//! [`Vastuz`]: a game's state whatever its size, over the narrowest bit set that holds the
//! board, and the text of its moves (VASTUZ.md section 6.2).

use crate::options::VastuzOptions;
use crate::position::{self, PositionError};
use crate::state::{BLACK, Decision, State, WHITE};
use crate::tables::intern;
use hexgrid::{Bits, Geometry, HexError, U256, Words};

/// The state over a bit set wide enough for its board: sizes up to 6 fit a `u128` (the
/// standard board, kept inline for speed), 7 and 8 a `U256`, larger ones 640 bits.
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "the narrow state is the hot one; the wider ones are boxed"
)]
pub(crate) enum Inner {
    Narrow(State<u128>),
    Mid(Box<State<U256>>),
    Wide(Box<State<Words<10>>>),
}

/// Runs `$body` with `$state` bound to the state, whatever its bit set.
macro_rules! with_state {
    ($inner:expr, $state:ident => $body:expr) => {
        match $inner {
            Inner::Narrow($state) => $body,
            Inner::Mid($state) => $body,
            Inner::Wide($state) => $body,
        }
    };
}
pub(crate) use with_state;

/// A game of Vastuz: the position, whose turn, and where the turn stands (pending groups,
/// the step under way, a taken stone). Actions are points in the (2R+1) x (2R+1) square
/// (`y * width + x`), then `pass` and `swap`; a point is a placement, a take or a put as
/// [`Vastuz::decision`] says.
#[derive(Clone, Debug)]
pub struct Vastuz {
    options: VastuzOptions,
    pub(crate) inner: Inner,
}

impl Vastuz {
    pub fn new(options: &VastuzOptions) -> Self {
        let (size, pie) = (options.size(), options.pie());
        let inner = match options.geometry().cells() {
            0..=128 => Inner::Narrow(State::new(intern(size), pie)),
            129..=256 => Inner::Mid(Box::new(State::new(intern(size), pie))),
            _ => Inner::Wide(Box::new(State::new(intern(size), pie))),
        };
        Vastuz {
            options: options.clone(),
            inner,
        }
    }

    /// The position a string of section 6.3 describes, between moves.
    pub fn from_position(options: &VastuzOptions, text: &str) -> Result<Self, PositionError> {
        let parsed = position::parse(options.geometry(), text)?;
        fn build<B: Bits>(state: &State<B>, parsed: &position::Parsed) -> State<B> {
            let stones = parsed
                .stones
                .clone()
                .map(|cells| cells.into_iter().fold(B::ZERO, |acc, c| acc | B::bit(c)));
            State::from_stones(
                state.tables,
                state.pie,
                stones,
                parsed.mover,
                parsed.move_number,
            )
        }
        let mut game = Vastuz::new(options);
        game.inner = match &game.inner {
            Inner::Narrow(state) => Inner::Narrow(build(state, &parsed)),
            Inner::Mid(state) => Inner::Mid(Box::new(build(state, &parsed))),
            Inner::Wide(state) => Inner::Wide(Box::new(build(state, &parsed))),
        };
        Ok(game)
    }

    pub fn options(&self) -> &VastuzOptions {
        &self.options
    }

    pub fn geometry(&self) -> Geometry {
        self.options.geometry()
    }

    pub fn decision(&self) -> Decision {
        with_state!(&self.inner, s => s.decision)
    }

    /// The number of the move under way, 1 at the start.
    pub fn move_number(&self) -> u16 {
        with_state!(&self.inner, s => s.move_number)
    }

    /// Black (0) or White (1): who decides next.
    pub fn mover(&self) -> usize {
        with_state!(&self.inner, s => s.mover)
    }

    /// The colour of the stone on `cell` (0 Black, 1 White), if any.
    pub fn colour_at(&self, cell: usize) -> Option<usize> {
        with_state!(&self.inner, s => s.colour_at(cell))
    }

    /// Scores in half points, Black's then White's (section 5).
    pub fn half_scores(&self) -> [u32; 2] {
        with_state!(&self.inner, s => s.half_scores())
    }

    /// Each colour's group sizes, largest first.
    pub fn sizes(&self) -> [Vec<u16>; 2] {
        with_state!(&self.inner, s => [s.sizes(BLACK), s.sizes(WHITE)])
    }

    /// The action of `pass`; `swap` is the next one.
    pub fn pass_action(&self) -> usize {
        self.geometry().cells()
    }

    pub fn swap_action(&self) -> usize {
        self.geometry().cells() + 1
    }

    pub(crate) fn is_point_choice(&self, cell: usize) -> bool {
        with_state!(&self.inner, s => s.choices.contains(cell))
    }

    pub(crate) fn point_choices(&self, out: &mut Vec<usize>) {
        with_state!(&self.inner, s => out.extend(s.choices.ones()))
    }

    pub(crate) fn pass_legal(&self) -> bool {
        with_state!(&self.inner, s => s.pass_legal())
    }

    pub(crate) fn swap_legal(&self) -> bool {
        with_state!(&self.inner, s => s.swap_legal())
    }

    pub(crate) fn play_action(&mut self, action: usize) {
        let cells = self.geometry().cells();
        with_state!(&mut self.inner, s => {
            if action == cells {
                s.pass();
            } else if action == cells + 1 {
                s.swap();
            } else {
                match s.decision {
                    Decision::Place => s.place(action),
                    Decision::Take => s.take(action),
                    Decision::Put => s.put(action),
                    Decision::Over => unreachable!("no action after the end"),
                }
            }
        })
    }

    pub(crate) fn hash(&self) -> u64 {
        with_state!(&self.inner, s => s.hash())
    }

    /// Whether the board has no empty point (the end is `full`, else `blocked`).
    pub fn is_full(&self) -> bool {
        with_state!(&self.inner, s => s.empty().is_zero())
    }

    /// The position string of section 6.3.
    pub fn position_text(&self) -> String {
        with_state!(&self.inner, s => s.position_text())
    }

    /// The point `text` names, checked against the board: a malformed name and one off the
    /// board say so.
    fn point(&self, text: &str) -> Result<usize, String> {
        self.geometry()
            .parse_hex(text)
            .map_err(|error| match error {
                HexError::Malformed(_) => format!("`{text}` is not a point name (like e5)"),
                HexError::OffBoard { name, size } => {
                    format!("{name} is off the board (size {size})")
                }
            })
    }

    /// Why the first action of a move, the placement `cell`, is illegal (`None` if legal).
    pub(crate) fn place_fault(&self, cell: usize) -> Option<String> {
        if self.decision() != Decision::Place || self.is_point_choice(cell) {
            return None;
        }
        let name = self.geometry().hex_name(cell);
        Some(if self.colour_at(cell).is_some() {
            format!("{name} is occupied")
        } else if self.pass_legal() {
            format!("{name} cannot be placed on: no placement is legal, so you must pass")
        } else {
            format!("{name} touches two or more of your groups, and groups never merge")
        })
    }

    /// The actions of a whole move in the notation of section 6.2, checked one by one on a
    /// copy of the game: `pass`, `swap`, or a placement and every steal of its cascade.
    pub fn parse_turn(&self, text: &str) -> Result<Vec<usize>, String> {
        let why = |reason: String| format!("move \"{text}\": {reason}");
        if self.decision() == Decision::Over {
            return Err(why("the game is over".into()));
        }
        if self.decision() != Decision::Place {
            return Err(why(
                "a turn is under way; finish it one decision at a time".into()
            ));
        }
        let lower = text.to_ascii_lowercase();
        if lower == "pass" {
            return if self.pass_legal() {
                Ok(vec![self.pass_action()])
            } else {
                Err(why("a pass is legal only when no placement is".into()))
            };
        }
        if lower == "swap" {
            return if self.swap_legal() {
                Ok(vec![self.swap_action()])
            } else if !self.options.pie() {
                Err(why("swap needs the pie rule (--pie 1)".into()))
            } else {
                Err(why("swap is legal only as move 2".into()))
            };
        }
        let mut parts = text.split('+');
        let place = parts.next().unwrap_or_default();
        let steals: Vec<(&str, &str)> = parts
            .map(|steal| steal.split_once('-'))
            .collect::<Option<_>>()
            .ok_or_else(
                || why("malformed: a steal is written `+TAKE-PUT`, like c4+e3-d3".into()),
            )?;
        let mut names = vec![place];
        for (take, put) in &steals {
            names.extend([*take, *put]);
        }
        let malformed = names
            .iter()
            .find(|name| matches!(self.geometry().parse_hex(name), Err(HexError::Malformed(_))));
        if let Some(name) = malformed {
            return Err(why(format!(
                "malformed: `{name}` is not a point name (like e5)"
            )));
        }
        let cells: Vec<usize> = names
            .iter()
            .map(|name| self.point(name))
            .collect::<Result<_, _>>()
            .map_err(why)?;
        let mut game = self.clone();
        if let Some(fault) = game.place_fault(cells[0]) {
            return Err(why(fault));
        }
        game.play_action(cells[0]);
        for pair in cells[1..].chunks(2) {
            let [take, put] = pair else {
                unreachable!("steals come in pairs")
            };
            if game.decision() != Decision::Take {
                return Err(why(format!(
                    "+{}-{}: no steal is possible here (the cascade is over, or never began)",
                    self.geometry().hex_name(*take),
                    self.geometry().hex_name(*put)
                )));
            }
            let fault = with_state!(&mut game.inner, s => s.take_fault(*take));
            if let Some(fault) = fault {
                return Err(why(fault));
            }
            game.play_action(*take);
            let fault = with_state!(&mut game.inner, s => s.put_fault(*put));
            if let Some(fault) = fault {
                return Err(why(fault));
            }
            game.play_action(*put);
        }
        if game.decision() == Decision::Take {
            return Err(why(
                "it stops while a steal is still possible: every possible steal is compulsory"
                    .into(),
            ));
        }
        Ok(cells)
    }

    /// Plays a whole move written as in section 6.2.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        for action in self.parse_turn(text)? {
            self.play_action(action);
        }
        Ok(())
    }

    /// The colour that wins and the scores, once the game is over.
    pub fn winner(&self) -> Option<Option<usize>> {
        if self.decision() != Decision::Over {
            return None;
        }
        let [black, white] = self.half_scores();
        Some(match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(BLACK),
            std::cmp::Ordering::Less => Some(WHITE),
            std::cmp::Ordering::Equal => None,
        })
    }
}

impl std::fmt::Display for Vastuz {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.position_text())
    }
}

/// A score in half points as section 8 writes it: `4` or `4.5`.
pub(crate) fn score_text(half_points: u32) -> String {
    if half_points.is_multiple_of(2) {
        (half_points / 2).to_string()
    } else {
        format!("{}.5", half_points / 2)
    }
}

pub(crate) const COLOUR_NAMES: [&str; 2] = ["black", "white"];

/// `black`, `white` or `draw`, the end's name and both scores (section 8).
pub(crate) fn result_line(game: &Vastuz) -> Option<String> {
    let winner = game.winner()?;
    let [black, white] = game.half_scores();
    Some(format!(
        "{} {} {} {}",
        winner.map_or("draw", |colour| COLOUR_NAMES[colour]),
        if game.is_full() { "full" } else { "blocked" },
        score_text(black),
        score_text(white)
    ))
}

/// Where a turn stands, as points: what the page marks and the planes show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnMarks {
    /// The stones of the mover's pending groups.
    pub pending: Vec<usize>,
    /// The thief of the step under way: its stones now.
    pub thief: Vec<usize>,
    /// The step's remaining targets.
    pub targets: Vec<usize>,
    /// The stone taken and not yet put.
    pub taken: Option<usize>,
}

impl Vastuz {
    pub fn turn_marks(&self) -> TurnMarks {
        with_state!(&self.inner, s => {
            let thief = s.step.map(|step| s.groups[s.mover][s.group_at(s.mover, step.start.lowest())].stones);
            TurnMarks {
                pending: s.pending.ones().collect(),
                thief: thief.map(|t| t.ones().collect()).unwrap_or_default(),
                targets: s.step.map(|step| step.targets.ones().collect()).unwrap_or_default(),
                taken: s.taken.map(|taken| taken.cell),
            }
        })
    }
}
