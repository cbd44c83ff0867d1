//! A Ghodak game in progress: the board, whose turn, the ko point, the run of passes.

use crate::options::GhodakOptions;
use crate::point::{self, MAX_POINTS, NameError, PADDED, STRIDE, neighbours};
use crate::result::{EndReason, GameResult};
use crate::zobrist;
use game::{Outcome, Side};
use std::fmt;
use thiserror::Error;

pub(crate) const EMPTY: u8 = 0;
pub(crate) const EDGE: u8 = 3;

/// The stone colour of a side: 1 for Black, 2 for White.
pub(crate) fn stone(side: Side) -> u8 {
    1 + side.index() as u8
}

/// A move refused, with the text as the user gave it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move \"{text}\": {fault}")]
pub struct MoveError {
    pub text: String,
    pub fault: MoveFault,
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveFault {
    #[error("expected a point such as D4 (columns A..T without I, rows from 1) or pass")]
    Malformed,
    #[error("{0} is off the {1}x{1} board")]
    OffBoard(String, usize),
    #[error("{0} is occupied")]
    Occupied(String),
    #[error("{0} would leave its own group without liberties (suicide)")]
    Suicide(String),
    #[error("{0} retakes the ko at once (it would repeat the board before the last move)")]
    Ko(String),
    #[error("the game is over")]
    GameOver,
}

/// A position that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("position \"{text}\": {reason}")]
pub struct PositionError {
    pub text: String,
    pub reason: String,
}

/// The state of a game. Everything a rule needs is here and nothing is allocated: the board
/// is a fixed padded array whatever the size, so a clone is one copy and `apply` never
/// touches the heap.
#[derive(Clone)]
pub struct Ghodak {
    options: GhodakOptions,
    cells: [u8; PADDED],
    to_move: Side,
    moves_played: u16,
    /// Passes in a row just played (0, 1 or 2).
    passes: u8,
    /// The padded point the side to move may not play on (simple ko).
    ko: Option<u16>,
    /// The padded point of the last stone played, if the last move was a stone.
    last_stone: Option<u16>,
    /// Zobrist key of the stones alone.
    stones_key: u64,
    ended: Option<EndReason>,
}

impl Ghodak {
    pub fn new(options: &GhodakOptions) -> Self {
        let size = options.size();
        let mut cells = [EDGE; PADDED];
        for point in 0..options.points() {
            cells[point::padded(point, size)] = EMPTY;
        }
        Ghodak {
            options: options.clone(),
            cells,
            to_move: Side::First,
            moves_played: 0,
            passes: 0,
            ko: None,
            last_stone: None,
            stones_key: 0,
            ended: None,
        }
    }

    pub fn options(&self) -> &GhodakOptions {
        &self.options
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Moves played so far, passes included.
    pub fn moves_played(&self) -> u16 {
        self.moves_played
    }

    /// Passes in a row just played.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The point the side to move may not play on because of ko.
    pub fn ko_point(&self) -> Option<usize> {
        self.ko.map(|p| self.unpadded(usize::from(p)))
    }

    /// The point of the last stone played, if the last move was not a pass.
    pub fn last_stone(&self) -> Option<usize> {
        self.last_stone.map(|p| self.unpadded(usize::from(p)))
    }

    /// The side whose stone is on `point`, if any.
    pub fn stone_at(&self, point: usize) -> Option<Side> {
        match self.cells[self.padded(point)] {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    pub fn result(&self) -> Option<GameResult> {
        let reason = self.ended?;
        let half_scores = self.half_scores();
        let outcome = match half_scores[0].cmp(&half_scores[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::First),
            std::cmp::Ordering::Less => Outcome::Win(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        Some(GameResult {
            outcome,
            reason,
            half_scores,
        })
    }

    /// A hash of the stones, the side to move, the ko point, a pending pass and the number of
    /// moves played (the move limit makes it matter, and the network reads it): everything
    /// that decides the game from here.
    pub fn hash(&self) -> u64 {
        let mut key = self.stones_key ^ zobrist::moves_played(self.moves_played);
        if self.to_move == Side::Second {
            key ^= zobrist::WHITE_TO_MOVE;
        }
        if let Some(ko) = self.ko {
            key ^= zobrist::ko(usize::from(ko));
        }
        if self.passes > 0 {
            key ^= zobrist::PASSED;
        }
        key
    }

    /// Why placing a stone of the side to move on `point` is illegal, if it is.
    pub fn placement_fault(&self, point: usize) -> Option<MoveFault> {
        let name = || self.name(point);
        if self.ended.is_some() {
            return Some(MoveFault::GameOver);
        }
        let p = self.padded(point);
        if self.cells[p] != EMPTY {
            return Some(MoveFault::Occupied(name()));
        }
        if self.ko == Some(p as u16) {
            return Some(MoveFault::Ko(name()));
        }
        if self.placement_keeps_a_liberty(p) {
            None
        } else {
            Some(MoveFault::Suicide(name()))
        }
    }

    pub fn is_legal_placement(&self, point: usize) -> bool {
        let p = self.padded(point);
        self.ended.is_none()
            && self.cells[p] == EMPTY
            && self.ko != Some(p as u16)
            && self.placement_keeps_a_liberty(p)
    }

    /// Whether a stone on the empty padded point `p` would have a liberty once captures are
    /// done: an empty neighbour, an opposing neighbour group in atari (it is captured), or a
    /// friendly neighbour group with a liberty besides `p`.
    fn placement_keeps_a_liberty(&self, p: usize) -> bool {
        let own = stone(self.to_move);
        let around = neighbours(p);
        if around.iter().any(|&n| self.cells[n] == EMPTY) {
            return true;
        }
        around.iter().any(|&n| {
            let cell = self.cells[n];
            if cell == own {
                self.has_liberty_besides(n, p)
            } else {
                cell != EDGE && !self.has_liberty_besides(n, p)
            }
        })
    }

    /// Whether the empty `point` is a true eye of the side to move, which a stone there would
    /// only fill: every neighbour is its stone or the edge, and of the diagonals at most one
    /// holds an opposing stone, none on the edge (the eye test of Go programs' playouts). A
    /// stone there takes a liberty from its own groups and captures nothing.
    pub fn is_own_true_eye(&self, point: usize) -> bool {
        let p = self.padded(point);
        let own = stone(self.to_move);
        if self.cells[p] != EMPTY
            || neighbours(p)
                .iter()
                .any(|&n| !matches!(self.cells[n], c if c == own || c == EDGE))
        {
            return false;
        }
        let diagonals = [
            p - STRIDE - 1,
            p - STRIDE + 1,
            p + STRIDE - 1,
            p + STRIDE + 1,
        ];
        let on_edge = diagonals.iter().any(|&d| self.cells[d] == EDGE);
        let opposing = diagonals
            .iter()
            .filter(|&&d| !matches!(self.cells[d], c if c == own || c == EDGE || c == EMPTY))
            .count();
        opposing + usize::from(on_edge) < 2
    }

    /// Whether the group on padded point `start` has a liberty other than `besides` (pass an
    /// edge cell such as 0 to ask for any liberty).
    fn has_liberty_besides(&self, start: usize, besides: usize) -> bool {
        let colour = self.cells[start];
        let mut seen = [0u64; PADDED.div_ceil(64)];
        let mut stack = [0u16; PADDED];
        let mut top = 1;
        stack[0] = start as u16;
        seen[start / 64] |= 1 << (start % 64);
        while top > 0 {
            top -= 1;
            let p = usize::from(stack[top]);
            for n in neighbours(p) {
                let cell = self.cells[n];
                if cell == EMPTY && n != besides {
                    return true;
                }
                if cell == colour && seen[n / 64] & (1 << (n % 64)) == 0 {
                    seen[n / 64] |= 1 << (n % 64);
                    stack[top] = n as u16;
                    top += 1;
                }
            }
        }
        false
    }

    /// Removes the group on padded point `start`; returns how many stones it had.
    fn remove_group(&mut self, start: usize) -> usize {
        let colour = self.cells[start];
        let mut stack = [0u16; PADDED];
        let mut top = 1;
        stack[0] = start as u16;
        self.cells[start] = EMPTY;
        self.stones_key ^= zobrist::stone(start, colour);
        let mut removed = 0;
        while top > 0 {
            top -= 1;
            removed += 1;
            let p = usize::from(stack[top]);
            for n in neighbours(p) {
                if self.cells[n] == colour {
                    self.cells[n] = EMPTY;
                    self.stones_key ^= zobrist::stone(n, colour);
                    stack[top] = n as u16;
                    top += 1;
                }
            }
        }
        removed
    }

    /// Places a stone of the side to move on `point`, which must be legal.
    pub fn place(&mut self, point: usize) {
        debug_assert!(self.is_legal_placement(point), "illegal placement {point}");
        let p = self.padded(point);
        let own = stone(self.to_move);
        let opponent = stone(self.to_move.other());
        self.cells[p] = own;
        self.stones_key ^= zobrist::stone(p, own);
        let (mut captured, mut captured_at) = (0, 0);
        for n in neighbours(p) {
            if self.cells[n] == opponent && !self.has_liberty_besides(n, 0) {
                captured += self.remove_group(n);
                captured_at = n;
            }
        }
        // Only a lone stone that took exactly one stone and has that point as its only
        // liberty can be taken back at once in a way that repeats the board; that retake is
        // the one simple ko forbids.
        let around = neighbours(p);
        let lone = !around.iter().any(|&n| self.cells[n] == own);
        let liberties = around.iter().filter(|&&n| self.cells[n] == EMPTY).count();
        self.ko = (captured == 1 && lone && liberties == 1).then_some(captured_at as u16);
        self.last_stone = Some(p as u16);
        self.passes = 0;
        self.finish_move();
    }

    pub fn pass(&mut self) {
        debug_assert!(self.ended.is_none(), "pass after the end");
        self.ko = None;
        self.last_stone = None;
        self.passes += 1;
        self.finish_move();
    }

    fn finish_move(&mut self) {
        self.moves_played += 1;
        self.to_move = self.to_move.other();
        if self.passes >= 2 {
            self.ended = Some(EndReason::Passes);
        } else if self.moves_played >= self.options.max_moves() {
            self.ended = Some(EndReason::Limit);
        }
    }

    /// Parses a move (`D4`, `pass`, any case) and says why it is not legal here.
    pub fn parse_move(&self, text: &str) -> Result<Option<usize>, MoveError> {
        let error = |fault| MoveError {
            text: text.to_string(),
            fault,
        };
        let size = self.options.size();
        let point = if text.eq_ignore_ascii_case("pass") {
            None
        } else {
            Some(point::parse_name(text, size).map_err(|e| {
                error(match e {
                    NameError::Malformed => MoveFault::Malformed,
                    NameError::OffBoard => MoveFault::OffBoard(text.to_uppercase(), size),
                })
            })?)
        };
        let fault = match point {
            Some(point) => self.placement_fault(point),
            None => self.ended.map(|_| MoveFault::GameOver),
        };
        match fault {
            Some(fault) => Err(error(fault)),
            None => Ok(point),
        }
    }

    /// Plays a move given as text: a point, or `None` for a pass.
    pub fn play(&mut self, text: &str) -> Result<Option<usize>, MoveError> {
        let point = self.parse_move(text)?;
        match point {
            Some(point) => self.place(point),
            None => self.pass(),
        }
        Ok(point)
    }

    /// Area scores in half points, komi included in White's: stones, plus empty regions that
    /// touch stones of one colour only.
    pub fn half_scores(&self) -> [i32; 2] {
        let mut scores = [0, self.options.half_komi()];
        self.for_each_owner(|_, owner| {
            if let Some(side) = owner {
                scores[side.index()] += 2;
            }
        });
        scores
    }

    /// Calls `visit(point, owner)` for every point: the colour of its stone, or of the only
    /// colour its empty region touches, or `None`.
    pub fn for_each_owner(&self, mut visit: impl FnMut(usize, Option<Side>)) {
        let size = self.options.size();
        let mut region_owner = [0u8; PADDED];
        let mut done = [false; PADDED];
        let mut stack = [0u16; PADDED];
        let mut region = [0u16; PADDED];
        for point in 0..self.options.points() {
            let start = self.padded(point);
            if self.cells[start] != EMPTY || done[start] {
                continue;
            }
            let (mut top, mut len, mut touches) = (1, 0, 0u8);
            stack[0] = start as u16;
            done[start] = true;
            while top > 0 {
                top -= 1;
                let p = usize::from(stack[top]);
                region[len] = p as u16;
                len += 1;
                for n in neighbours(p) {
                    match self.cells[n] {
                        EMPTY if !done[n] => {
                            done[n] = true;
                            stack[top] = n as u16;
                            top += 1;
                        }
                        colour @ (1 | 2) => touches |= colour,
                        _ => {}
                    }
                }
            }
            for &p in &region[..len] {
                region_owner[usize::from(p)] = touches;
            }
        }
        for point in 0..self.options.points() {
            let p = point::padded(point, size);
            let colour = match self.cells[p] {
                EMPTY => region_owner[p],
                colour => colour,
            };
            let owner = match colour {
                1 => Some(Side::First),
                2 => Some(Side::Second),
                _ => None,
            };
            visit(point, owner);
        }
    }

    /// The liberties of the group on each point, counted up to 3 (0 on empty points).
    pub fn liberty_counts(&self) -> [u8; MAX_POINTS] {
        let size = self.options.size();
        let mut counts = [0u8; MAX_POINTS];
        let mut done = [false; PADDED];
        let mut group = [0u16; PADDED];
        for point in 0..self.options.points() {
            let start = self.padded(point);
            let colour = self.cells[start];
            if colour == EMPTY || done[start] {
                continue;
            }
            let mut liberty_seen = [0u64; PADDED.div_ceil(64)];
            let (mut scanned, mut len, mut liberties) = (0, 1, 0u8);
            group[0] = start as u16;
            done[start] = true;
            while scanned < len {
                let p = usize::from(group[scanned]);
                scanned += 1;
                for n in neighbours(p) {
                    let cell = self.cells[n];
                    if cell == EMPTY && liberty_seen[n / 64] & (1 << (n % 64)) == 0 {
                        liberty_seen[n / 64] |= 1 << (n % 64);
                        liberties = liberties.saturating_add(1).min(3);
                    } else if cell == colour && !done[n] {
                        done[n] = true;
                        group[len] = n as u16;
                        len += 1;
                    }
                }
            }
            for &p in &group[..len] {
                counts[point::unpadded(usize::from(p), size)] = liberties;
            }
        }
        counts
    }

    /// Reads a position string (GHODAK.md section 4). The ko state and the run of passes are
    /// not part of it: the game goes on from the position as if no ko and no pass were pending.
    pub fn from_position_str(options: &GhodakOptions, text: &str) -> Result<Self, PositionError> {
        let error = |reason: String| PositionError {
            text: text.to_string(),
            reason,
        };
        let size = options.size();
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, number] = fields[..] else {
            return Err(error(
                "expected three fields: the rows, the side to move and the move number".into(),
            ));
        };
        let mut game = Ghodak::new(options);
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != size {
            return Err(error(format!(
                "{} rows for a size {size} board",
                rows.len()
            )));
        }
        for (row, text) in rows.iter().enumerate() {
            let mut column = 0;
            let mut run = 0usize;
            for c in text.chars() {
                if let Some(digit) = c.to_digit(10) {
                    run = run * 10 + digit as usize;
                    if run > size {
                        return Err(error(format!("row {} is too long", size - row)));
                    }
                    continue;
                }
                column += std::mem::take(&mut run);
                let colour = match c {
                    'x' => stone(Side::First),
                    'o' => stone(Side::Second),
                    _ => return Err(error(format!("`{c}` is not x, o or a count of empties"))),
                };
                if column >= size {
                    return Err(error(format!("row {} is too long", size - row)));
                }
                let p = point::padded(row * size + column, size);
                game.cells[p] = colour;
                game.stones_key ^= zobrist::stone(p, colour);
                column += 1;
            }
            column += run;
            if column != size {
                return Err(error(format!(
                    "row {} has {column} points, not {size}",
                    size - row
                )));
            }
        }
        game.to_move = match side {
            "b" => Side::First,
            "w" => Side::Second,
            _ => return Err(error(format!("side to move `{side}` is not b or w"))),
        };
        let number: u16 = number
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| error(format!("move number `{number}` is not 1..=65535")))?;
        game.moves_played = number - 1;
        if game.moves_played >= options.max_moves() {
            game.ended = Some(EndReason::Limit);
        }
        for point in 0..options.points() {
            let p = game.padded(point);
            if game.cells[p] != EMPTY && !game.has_liberty_besides(p, 0) {
                return Err(error(format!(
                    "the group at {} has no liberties",
                    game.name(point)
                )));
            }
        }
        Ok(game)
    }

    fn padded(&self, point: usize) -> usize {
        point::padded(point, self.options.size())
    }

    fn unpadded(&self, padded: usize) -> usize {
        point::unpadded(padded, self.options.size())
    }

    /// The GTP name of a point (`D4`).
    pub fn name(&self, point: usize) -> String {
        point::Name {
            point,
            size: self.options.size(),
        }
        .to_string()
    }
}

/// The position string: rows from the top, then the side to move and the move number.
impl fmt::Display for Ghodak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.options.size();
        for row in 0..size {
            if row > 0 {
                f.write_str("/")?;
            }
            let mut empties = 0;
            for column in 0..size {
                let cell = self.cells[(row + 1) * STRIDE + column + 1];
                if cell == EMPTY {
                    empties += 1;
                    continue;
                }
                if empties > 0 {
                    write!(f, "{empties}")?;
                    empties = 0;
                }
                f.write_str(if cell == stone(Side::First) { "x" } else { "o" })?;
            }
            if empties > 0 {
                write!(f, "{empties}")?;
            }
        }
        let side = if self.to_move == Side::First {
            "b"
        } else {
            "w"
        };
        write!(f, " {side} {}", self.moves_played + 1)
    }
}

impl fmt::Debug for Ghodak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ghodak({self})")
    }
}
