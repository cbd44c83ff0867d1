//! The rules engine, generic over the bit-set width: moves, vetoes, removal and the end
//! checks (RULES.md sections 4 to 7).

use crate::action::{Action, MoveProblem, nth_placement, push_placements};
use crate::board::Board;
use crate::history::History;
use crate::options::GhastOptions;
use crate::position::{Piece, Position};
use crate::result::{EndReason, GameResult, end_check, outcome_by_score};
use crate::tables::{Tables, intern};
use game::splitmix64;
use game::{Outcome, Side};
use hexgrid::Bits;
use std::fmt;

const ORANGE: usize = 0;

pub(crate) fn side(colour: usize) -> Side {
    if colour == ORANGE {
        Side::First
    } else {
        Side::Second
    }
}

pub(crate) fn side_name(colour: usize) -> &'static str {
    if colour == ORANGE { "orange" } else { "blue" }
}

/// Why `placement` may not go on the board now: a hex off the board, taken (`occupied`, face-up
/// or face-down tiles), `vetoed` this turn, or closed on `turn` by the opening rule.
pub(crate) fn placement_problem<B: Bits>(
    tables: &Tables<B>,
    occupied: B,
    vetoed: B,
    turn: u16,
    placement: Action,
) -> Result<(), MoveProblem> {
    let geometry = tables.geometry;
    let Action::Place { cell, .. } = placement else {
        return Ok(());
    };
    if !tables.on_board.contains(cell) {
        return Err(MoveProblem::NoSuchIndex(placement.index(geometry)));
    }
    let hex = geometry.hex_name(cell);
    if occupied.contains(cell) {
        return Err(MoveProblem::Occupied { hex });
    }
    if vetoed.contains(cell) {
        return Err(MoveProblem::Vetoed { hex });
    }
    if !tables.open(turn).contains(cell) {
        let allowed = (i32::from(turn) - 2).max(0);
        return Err(MoveProblem::NotOpen {
            hex,
            turn,
            depth: geometry.depth(cell),
            allowed,
        });
    }
    Ok(())
}

pub(crate) struct State<B: Bits> {
    pub(crate) tables: &'static Tables<B>,
    pub(crate) board: Board<B>,
    /// Colour index (0 Orange, 1 Blue) of the player who chooses the next action.
    pub(crate) to_move: usize,
    /// Number of the turn being played.
    pub(crate) turn: u16,
    pub(crate) vetoes: [u8; 2],
    /// A placement (cell, orientation) awaiting the answer of `to_move`.
    pub(crate) pending: Option<(u8, u8)>,
    /// Hexes vetoed in this turn.
    pub(crate) vetoed: B,
    /// Turns in a row, up to now, that ended in a pass.
    pub(crate) passes: u8,
    /// Every tile on the board is alive. Always true after a placement; a position read from
    /// a string may break it until the first placement removes the starved tiles.
    settled: bool,
    /// Zobrist key of the board and the side to move.
    key: u64,
    result: Option<GameResult>,
    history: History,
}

impl<B: Bits> State<B> {
    /// A game starting from `position`, with the options' vetoes and a fresh history.
    pub fn from_position(options: &GhastOptions, position: &Position) -> Self {
        let tables = intern::<B>(options);
        let mut board = Board::empty();
        let mut key = 0;
        for cell in tables.geometry.on_board_cells() {
            if let Some(piece) = position.cells[cell] {
                let colour = piece.side.index();
                board.place(tables, colour, piece.orientation, cell);
                key ^= tables.key(colour, piece.orientation, cell);
            }
        }
        let to_move = position.to_move.index();
        if to_move != ORANGE {
            key ^= tables.blue_to_move;
        }
        let mut state = State {
            tables,
            board,
            to_move,
            turn: position.turn,
            vetoes: options.vetoes(),
            pending: None,
            vetoed: B::ZERO,
            passes: 0,
            settled: position.cells.iter().all(Option::is_none),
            key,
            result: None,
            history: History::new(0, 0),
        };
        let turns_left = usize::from(options.max_turns().saturating_sub(position.turn - 1));
        state.history = History::new(state.position_key(), turns_left);
        state
    }

    pub fn options(&self) -> &GhastOptions {
        &self.tables.options
    }

    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    pub fn count(&self, colour: usize) -> u32 {
        self.board.count(colour)
    }

    /// Blue's score includes komi; in half points so that comparisons are exact.
    pub fn half_score(&self, colour: usize) -> i32 {
        let komi = if colour == ORANGE {
            0
        } else {
            self.options().half_komi()
        };
        2 * self.count(colour) as i32 + komi
    }

    /// Hexes where the player to move may place now (ignoring a pending answer).
    #[inline]
    pub fn placeable(&self) -> B {
        self.tables.open(self.turn) & !self.board.occupied() & !self.vetoed
    }

    /// The key of the position as the repetition rule sees it: board, side to move, vetoes.
    fn position_key(&self) -> u64 {
        let vetoes = u64::from(self.vetoes[0]) | u64::from(self.vetoes[1]) << 8;
        if vetoes == 0 {
            self.key
        } else {
            self.key ^ splitmix64(&mut (self.tables.extra_seed ^ vetoes))
        }
    }

    /// A hash of everything that decides the future: the position key plus the pending
    /// placement, vetoed hexes, the run of passes and the turn number.
    pub fn hash(&self) -> u64 {
        let mut extra = self.tables.extra_seed.rotate_left(17) ^ u64::from(self.turn) << 20;
        extra ^= u64::from(self.passes) << 40;
        if let Some((cell, orientation)) = self.pending {
            extra ^= 1 << 63 | u64::from(cell) << 44 | u64::from(orientation) << 52;
        }
        for cell in self.vetoed.ones() {
            extra ^= splitmix64(&mut (self.tables.extra_seed ^ cell as u64 ^ 1 << 32));
        }
        self.position_key() ^ splitmix64(&mut extra)
    }

    /// Why `action` may not be played now, if it may not.
    pub fn check(&self, action: Action) -> Result<(), MoveProblem> {
        if self.result.is_some() {
            return Err(MoveProblem::GameOver);
        }
        match (action, self.pending) {
            (Action::Accept | Action::Veto, Some(_)) => Ok(()),
            (Action::Accept | Action::Veto, None) => Err(MoveProblem::NothingToAnswer),
            (_, Some(_)) => Err(MoveProblem::AnswerAwaited {
                answerer: side_name(self.to_move),
            }),
            (Action::Pass, None) => Ok(()),
            (Action::Place { .. }, None) => placement_problem(
                self.tables,
                self.board.occupied(),
                self.vetoed,
                self.turn,
                action,
            ),
        }
    }

    pub fn is_legal(&self, index: usize) -> bool {
        Action::from_index(index, self.tables.geometry)
            .is_some_and(|action| self.check(action).is_ok())
    }

    pub fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        let geometry = self.tables.geometry;
        if self.result.is_some() {
            return;
        }
        if self.pending.is_some() {
            out.extend([Action::Accept.index(geometry), Action::Veto.index(geometry)]);
            return;
        }
        push_placements(self.placeable(), geometry.cells(), out);
        out.push(Action::Pass.index(geometry));
    }

    /// The action a uniform pick from [`State::legal_actions`] would draw with `rng`, drawn
    /// without listing them: the list is the placeable hexes in each of six orientations,
    /// orientation by orientation, then the pass, so its `k`-th entry is found from the
    /// bit set alone.
    pub fn random_legal_action<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> usize {
        debug_assert!(self.result.is_none(), "no action once the game is over");
        let geometry = self.tables.geometry;
        if self.pending.is_some() {
            let answers = [Action::Accept, Action::Veto];
            return answers[game::uniform_pick(rng, answers.len())].index(geometry);
        }
        let placeable = self.placeable();
        let hexes = placeable.count() as usize;
        match game::uniform_pick(rng, 6 * hexes + 1) {
            k if k == 6 * hexes => Action::Pass.index(geometry),
            k => nth_placement(placeable, hexes, k, geometry.cells()),
        }
    }

    /// Plays a legal action given by its dense index.
    #[inline]
    pub fn apply_index(&mut self, index: usize) {
        let cells = self.tables.geometry.cells();
        if index < 6 * cells {
            self.place(index % cells, index / cells);
        } else {
            match index - 6 * cells {
                0 => self.pass(),
                1 => self.accept(),
                _ => self.veto(),
            }
        }
    }

    pub fn apply(&mut self, action: Action) {
        debug_assert_eq!(self.check(action), Ok(()), "{action:?}");
        match action {
            Action::Place { cell, orientation } => self.place(cell, orientation),
            Action::Pass => self.pass(),
            Action::Accept => self.accept(),
            Action::Veto => self.veto(),
        }
    }

    /// A placement: it waits for an answer if the opponent has a veto left.
    #[inline]
    pub fn place(&mut self, cell: usize, orientation: usize) {
        let answerer = 1 - self.to_move;
        if self.vetoes[answerer] > 0 {
            self.pending = Some((cell as u8, orientation as u8));
            self.to_move = answerer;
        } else {
            self.commit(cell, orientation);
        }
    }

    fn accept(&mut self) {
        let (cell, orientation) = self
            .pending
            .take()
            .expect("accept answers a pending placement");
        self.to_move = 1 - self.to_move;
        self.commit(usize::from(cell), usize::from(orientation));
    }

    fn veto(&mut self) {
        let (cell, _) = self
            .pending
            .take()
            .expect("veto answers a pending placement");
        self.vetoes[self.to_move] -= 1;
        self.vetoed |= B::bit(usize::from(cell));
        self.to_move = 1 - self.to_move;
    }

    pub fn pass(&mut self) {
        self.passes += 1;
        self.end_turn();
    }

    /// Puts the mover's tile on the board, removes starved tiles and ends the turn.
    #[inline]
    fn commit(&mut self, cell: usize, orientation: usize) {
        let tables = self.tables;
        self.key ^=
            self.board
                .place_and_remove(tables, self.to_move, orientation, cell, self.settled);
        self.settled = true;
        self.passes = 0;
        self.end_turn();
    }

    /// Hands the move to the other player and runs the end checks in the order of the rules:
    /// margin, passes, repetition, limit.
    #[inline]
    fn end_turn(&mut self) {
        let mover = self.to_move;
        let other = 1 - mover;
        self.to_move = other;
        self.key ^= self.tables.blue_to_move;
        self.vetoed = B::ZERO;
        self.turn += 1;
        let options = &self.tables.options;
        let lead = self.count(other) as i32 - self.count(mover) as i32;
        let key = self.position_key();
        let Some(reason) = end_check(
            options,
            lead,
            self.passes,
            self.turn,
            &mut self.history,
            key,
        ) else {
            return;
        };
        let outcome = match reason {
            EndReason::Margin => Outcome::Win(side(other)),
            _ => outcome_by_score(self.half_score(0), self.half_score(1)),
        };
        self.result = Some(GameResult { outcome, reason });
    }

    pub fn position(&self) -> Position {
        let geometry = self.tables.geometry;
        let mut position = Position::empty(geometry);
        for cell in geometry.on_board_cells() {
            position.cells[cell] = self.board.piece(cell).map(|(colour, orientation)| Piece {
                side: side(colour),
                orientation,
            });
        }
        position.to_move = side(self.to_move);
        position.turn = self.turn;
        position
    }
}

impl<B: Bits> Clone for State<B> {
    fn clone(&self) -> Self {
        State {
            history: self.history.clone(),
            ..*self
        }
    }

    /// Reuses the history's buffer: search copies a game into the same scratch state on every
    /// descent, and the history is the only part that lives on the heap.
    fn clone_from(&mut self, source: &Self) {
        let mut history = std::mem::take(&mut self.history);
        history.clone_from(&source.history);
        *self = State { history, ..*source };
    }
}

impl<B: Bits> fmt::Debug for State<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ghast")
            .field("position", &self.position().to_string())
            .field("vetoes", &self.vetoes)
            .field("pending", &self.pending)
            .field("result", &self.result)
            .finish_non_exhaustive()
    }
}
