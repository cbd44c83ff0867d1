//! The rules engine of Fakerghast (RULES.md section 9), generic over the bit-set width: pairs
//! as two decisions, face-down tiles, countdowns and reveals, the turn's one removal round, the
//! end checks and the final reveal.

use super::moves::{Decision, Move, Placement};
use super::options::{self, FakerghastOptions, Hiding};
use crate::action::{MoveProblem, nth_placement, push_placements};
use crate::board::Board;
use crate::history::History;
use crate::result::{EndReason, GameResult, end_check, outcome_by_score};
use crate::state::{placement_problem, side, side_name};
use crate::tables::{Tables, intern};
use game::Outcome;
use game::splitmix64;
use hexgrid::Bits;

/// Hidden pairs on the board at most: a side has at most D of them (each of its last D turns),
/// and D is at most 3; under `fakes` a side has at most one.
const MAX_PAIRS: usize = 6;

/// A pair still face down.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pair {
    /// Colour index of its owner (0 Orange, 1 Blue).
    pub owner: u8,
    pub real: Placement,
    pub fake: Placement,
    /// Owner's turns left until the reveal.
    pub left: u8,
}

const NO_PAIR: Pair = Pair {
    owner: 0,
    real: Placement::NONE,
    fake: Placement::NONE,
    left: 0,
};

/// The last turn as the opponent saw it: what was placed, and the real tiles its reveals
/// turned face up (by hex).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct LastTurn<B> {
    pub played: Move,
    pub revealed: B,
}

pub(crate) struct HiddenState<B: Bits> {
    pub options: &'static FakerghastOptions,
    pub tables: &'static Tables<B>,
    pub hiding: Hiding,
    pub board: Board<B>,
    /// Colour index of the player who makes the next decision.
    pub to_move: usize,
    /// Number of the turn being played.
    pub turn: u16,
    /// Turns in a row, up to now, that ended in a pass.
    pub passes: u8,
    /// Pairs each side may still place under `fakes`.
    pub fakes_left: [u8; 2],
    /// The hidden pairs, oldest first; `pairs[pair_count..]` are unused.
    pairs: [Pair; MAX_PAIRS],
    pair_count: u8,
    /// The real tile of the pair being placed: the turn's first decision, awaiting the fake
    /// (or, under `fakes`, `single`).
    pub pending: Option<Placement>,
    pub last: Option<LastTurn<B>>,
    /// Zobrist key of the face-up tiles, the face-down tiles and the side to move.
    key: u64,
    result: Option<GameResult>,
    history: History,
}

impl<B: Bits> HiddenState<B> {
    pub fn new(options: &FakerghastOptions) -> Self {
        let options = options::intern(options);
        let tables = intern::<B>(options.ghast());
        let hiding = options.hiding();
        let mut state = HiddenState {
            options,
            tables,
            hiding,
            board: Board::empty(),
            to_move: 0,
            turn: 1,
            passes: 0,
            fakes_left: hiding.fakes().unwrap_or([0, 0]),
            pairs: [NO_PAIR; MAX_PAIRS],
            pair_count: 0,
            pending: None,
            last: None,
            key: 0,
            result: None,
            history: History::new(0, 0),
        };
        let turns = usize::from(options.ghast().max_turns());
        state.history = History::new(state.position_key(), turns);
        state
    }

    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    pub fn pairs(&self) -> &[Pair] {
        &self.pairs[..usize::from(self.pair_count)]
    }

    /// The face-down tile on `cell`: its pair, the tile, and whether it is the real one.
    pub fn face_down_on(&self, cell: usize) -> Option<(&Pair, Placement, bool)> {
        self.pairs().iter().find_map(|pair| {
            [(pair.real, true), (pair.fake, false)]
                .into_iter()
                .find(|(tile, _)| usize::from(tile.cell) == cell)
                .map(|(tile, real)| (pair, tile, real))
        })
    }

    /// Blue's score includes komi; in half points so that comparisons are exact. Face-down
    /// tiles count for no one.
    pub fn half_score(&self, colour: usize) -> i32 {
        let komi = if colour == 0 {
            0
        } else {
            self.tables.options.half_komi()
        };
        2 * self.board.count(colour) as i32 + komi
    }

    /// Hexes where a tile may go now.
    #[inline]
    fn placeable(&self) -> B {
        self.tables.open(self.turn) & !self.board.occupied()
    }

    /// Whether a placement as the first decision of this turn starts a pair (and so awaits a
    /// second decision) rather than ending the turn as a single tile.
    pub fn starts_pair(&self) -> bool {
        match self.hiding {
            Hiding::EveryTurn { .. } => true,
            Hiding::Fakes { .. } => {
                self.fakes_left[self.to_move] > 0 && self.placeable().count() >= 2
            }
        }
    }

    /// The key of the position as the repetition rule sees it (RULES.md 9.3): the board with
    /// its face-down tiles, the side to move, which tile of each pair is real, each pair's
    /// count, and the fakes left.
    fn position_key(&self) -> u64 {
        let seed = self.tables.extra_seed;
        let mut key = self.key;
        for pair in self.pairs() {
            let word = u64::from(pair.owner)
                | u64::from(pair.real.cell) << 8
                | u64::from(pair.fake.cell) << 16
                | u64::from(pair.left) << 24
                | 0xfa4e << 40;
            key ^= splitmix64(&mut (seed ^ word));
        }
        if let Hiding::Fakes { .. } = self.hiding {
            let [orange, blue] = self.fakes_left.map(u64::from);
            key ^= splitmix64(&mut (seed ^ (orange | blue << 8 | 0xfa4e5 << 36)));
        }
        key
    }

    /// A hash of everything that decides the future: the position key plus the turn, the run
    /// of passes and the real tile awaiting its fake.
    pub fn hash(&self) -> u64 {
        let mut extra = self.tables.extra_seed.rotate_left(23) ^ u64::from(self.turn) << 20;
        extra ^= u64::from(self.passes) << 40;
        if let Some(real) = self.pending {
            extra ^= 1 << 63 | u64::from(real.cell) << 44 | u64::from(real.orientation) << 52;
        }
        self.position_key() ^ splitmix64(&mut extra)
    }

    fn face_down_key(&self, colour: usize, tile: Placement) -> u64 {
        let index = (colour * 6 + usize::from(tile.orientation)) * self.tables.geometry.cells()
            + usize::from(tile.cell);
        splitmix64(&mut (self.tables.extra_seed ^ (index as u64) << 8 ^ 0xd0))
    }

    /// Why `decision` may not be made now, if it may not.
    pub fn check(&self, decision: Decision) -> Result<(), MoveProblem> {
        if self.result.is_some() {
            return Err(MoveProblem::GameOver);
        }
        let geometry = self.tables.geometry;
        let occupied = self.board.occupied();
        match (decision, self.pending) {
            (Decision::Pass, None) => Ok(()),
            (Decision::Single, Some(_)) if self.hiding.fakes().is_some() => Ok(()),
            (Decision::Single, Some(_)) => Err(MoveProblem::PairNeeded),
            (Decision::Single, None) => Err(MoveProblem::NothingToKeepSingle),
            (Decision::Pass, Some(real)) => Err(MoveProblem::FakeAwaited {
                real: real.to_text(geometry),
            }),
            (Decision::Place(tile), None) => {
                placement_problem(self.tables, occupied, B::ZERO, self.turn, tile.action())?;
                if matches!(self.hiding, Hiding::EveryTurn { .. }) && self.placeable().count() < 2 {
                    return Err(MoveProblem::PairNeeded);
                }
                Ok(())
            }
            (Decision::Place(fake), Some(real)) => {
                if fake.cell == real.cell {
                    return Err(MoveProblem::PairSameHex {
                        hex: geometry.hex_name(usize::from(fake.cell)),
                    });
                }
                placement_problem(self.tables, occupied, B::ZERO, self.turn, fake.action())
            }
        }
    }

    /// Why `played` may not be played as this turn's move, naming the tile at fault.
    pub fn check_move(&self, played: Move) -> Result<(), MoveProblem> {
        if self.result.is_some() {
            return Err(MoveProblem::GameOver);
        }
        if let Some(real) = self.pending {
            return Err(MoveProblem::FakeAwaited {
                real: real.to_text(self.tables.geometry),
            });
        }
        let placement = |tile: Placement| {
            placement_problem(
                self.tables,
                self.board.occupied(),
                B::ZERO,
                self.turn,
                tile.action(),
            )
        };
        match played {
            Move::Pass => Ok(()),
            Move::Single(tile) => {
                if let Hiding::EveryTurn { .. } = self.hiding {
                    return Err(MoveProblem::PairNeeded);
                }
                placement(tile)
            }
            Move::Pair { real, fake } => {
                if self.hiding.fakes().is_some() && self.fakes_left[self.to_move] == 0 {
                    return Err(MoveProblem::NoFakesLeft {
                        side: side_name(self.to_move),
                    });
                }
                placement(real)?;
                if fake.cell == real.cell {
                    return Err(MoveProblem::PairSameHex {
                        hex: self.tables.geometry.hex_name(usize::from(fake.cell)),
                    });
                }
                placement(fake)
            }
        }
    }

    /// Makes the tile on `cell` the real one of its pair: the pair of the side to move that
    /// this turn reveals, whose truth a program that was told only the public form learns
    /// now.
    pub fn learn_reveal(&mut self, cell: usize) -> Result<(), MoveProblem> {
        let mover = self.to_move as u8;
        let count = usize::from(self.pair_count);
        let pair = self.pairs[..count]
            .iter_mut()
            .filter(|pair| pair.owner == mover && pair.left == 1)
            .find(|pair| usize::from(pair.real.cell) == cell || usize::from(pair.fake.cell) == cell)
            .ok_or_else(|| MoveProblem::NoRevealDue {
                side: side_name(self.to_move),
                hex: self.tables.geometry.hex_name(cell),
            })?;
        if usize::from(pair.fake.cell) == cell {
            std::mem::swap(&mut pair.real, &mut pair.fake);
        }
        Ok(())
    }

    pub fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let (hexes, last) = self.decisions();
        push_placements(hexes, self.tables.geometry.cells(), out);
        out.extend(last.map(|decision| decision.index(self.tables.geometry)));
    }

    /// The action a uniform pick from [`State::legal_actions`] would draw with `rng`, found
    /// from the bit set of hexes without listing: the list is those hexes in each of six
    /// orientations, orientation by orientation, then the one decision that is not a tile.
    pub fn random_legal_action<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> usize {
        debug_assert!(self.result.is_none(), "no decision once the game is over");
        let (hexes, last) = self.decisions();
        let count = hexes.count() as usize;
        let k = game::uniform_pick(rng, 6 * count + usize::from(last.is_some()));
        match last {
            Some(decision) if k == 6 * count => decision.index(self.tables.geometry),
            _ => nth_placement(hexes, count, k, self.tables.geometry.cells()),
        }
    }

    /// The legal decisions of a game that goes on: a tile on any of these hexes in any
    /// orientation, then the decision that places none, if one may (a pass to begin a turn,
    /// a single tile where a pair's fake may be left out).
    fn decisions(&self) -> (B, Option<Decision>) {
        let mut hexes = self.placeable();
        match self.pending {
            None => {
                if matches!(self.hiding, Hiding::EveryTurn { .. }) && hexes.count() < 2 {
                    hexes = B::ZERO;
                }
                (hexes, Some(Decision::Pass))
            }
            Some(real) => {
                hexes &= !B::bit(usize::from(real.cell));
                let single = self.hiding.fakes().is_some().then_some(Decision::Single);
                (hexes, single)
            }
        }
    }

    pub fn is_legal(&self, index: usize) -> bool {
        Decision::from_index(index, self.tables.geometry)
            .is_some_and(|decision| self.check(decision).is_ok())
    }

    /// Makes a legal decision (checked in debug builds only).
    pub fn decide(&mut self, decision: Decision) {
        debug_assert_eq!(self.check(decision), Ok(()), "{decision:?}");
        match (decision, self.pending.take()) {
            (Decision::Pass, _) => self.finish_turn(Move::Pass),
            (Decision::Single, Some(real)) => self.finish_turn(Move::Single(real)),
            (Decision::Place(fake), Some(real)) => self.finish_turn(Move::Pair { real, fake }),
            (Decision::Place(tile), None) if self.starts_pair() => self.pending = Some(tile),
            (Decision::Place(tile), None) => self.finish_turn(Move::Single(tile)),
            (Decision::Single, None) => unreachable!("checked: single answers a real tile"),
        }
    }

    /// A turn of RULES.md 9.3: the placement, the mover's countdowns and reveals, one removal
    /// round, then the end checks.
    fn finish_turn(&mut self, played: Move) {
        let tables = self.tables;
        let mover = self.to_move;
        let mut revealed = B::ZERO;
        let mut kept = 0;
        for i in 0..self.pairs().len() {
            let mut pair = self.pairs[i];
            if usize::from(pair.owner) == mover {
                pair.left -= 1;
                if pair.left == 0 {
                    self.reveal(pair);
                    revealed |= B::bit(usize::from(pair.real.cell));
                    continue;
                }
            }
            self.pairs[kept] = pair;
            kept += 1;
        }
        self.pair_count = kept as u8;
        match played {
            Move::Pass => self.passes += 1,
            Move::Single(tile) => {
                let (cell, orientation) = tile.unpack();
                self.board.place(tables, mover, orientation, cell);
                self.key ^= tables.key(mover, orientation, cell);
                self.passes = 0;
            }
            Move::Pair { real, fake } => {
                for tile in [real, fake] {
                    self.board.place_face_down(usize::from(tile.cell));
                    self.key ^= self.face_down_key(mover, tile);
                }
                self.pairs[kept] = Pair {
                    owner: mover as u8,
                    real,
                    fake,
                    left: self.hiding.delay(),
                };
                self.pair_count += 1;
                if self.hiding.fakes().is_some() {
                    self.fakes_left[mover] -= 1;
                }
                self.passes = 0;
            }
        }
        if played != Move::Pass || !revealed.is_zero() {
            self.key ^= self.board.remove_starved(tables);
        }
        self.last = Some(LastTurn { played, revealed });
        self.end_turn();
    }

    /// Turns `pair`'s real tile face up and takes its fake away (no removal: the turn's round
    /// comes after).
    fn reveal(&mut self, pair: Pair) {
        let owner = usize::from(pair.owner);
        for tile in [pair.real, pair.fake] {
            self.board.lift_face_down(usize::from(tile.cell));
            self.key ^= self.face_down_key(owner, tile);
        }
        let (cell, orientation) = pair.real.unpack();
        self.board.place(self.tables, owner, orientation, cell);
        self.key ^= self.tables.key(owner, orientation, cell);
    }

    /// Hands the move to the other player and runs the end checks in the order of the rules:
    /// margin, passes, repetition, limit. A game that ends other than by margin has every
    /// hidden pair revealed and one removal round before it is scored.
    fn end_turn(&mut self) {
        let mover = self.to_move;
        let other = 1 - mover;
        self.to_move = other;
        self.key ^= self.tables.blue_to_move;
        self.turn += 1;
        let options = &self.tables.options;
        let lead = self.board.count(other) as i32 - self.board.count(mover) as i32;
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
        if reason == EndReason::Margin {
            self.result = Some(GameResult {
                outcome: Outcome::Win(side(other)),
                reason,
            });
            return;
        }
        if self.pair_count > 0 {
            for i in 0..self.pairs().len() {
                self.reveal(self.pairs[i]);
            }
            self.pair_count = 0;
            self.key ^= self.board.remove_starved(self.tables);
        }
        let outcome = outcome_by_score(self.half_score(0), self.half_score(1));
        self.result = Some(GameResult { outcome, reason });
    }

    /// Replaces which tile of each pair of the side not to move is real by a fair coin per
    /// pair: what the side to move believes when it knows nothing but the public moves. The
    /// coin picks a tile by board order, not "keep or swap", so the truth leaves no trace.
    pub fn sample_hidden(&mut self, mut seed: u64) {
        let viewer = self.to_move as u8;
        for pair in &mut self.pairs[..usize::from(self.pair_count)] {
            if pair.owner != viewer {
                let (first, second) = if pair.real.cell < pair.fake.cell {
                    (pair.real, pair.fake)
                } else {
                    (pair.fake, pair.real)
                };
                let first_is_real = splitmix64(&mut seed) & 1 == 1;
                (pair.real, pair.fake) = if first_is_real {
                    (first, second)
                } else {
                    (second, first)
                };
            }
        }
    }
}

impl<B: Bits> Clone for HiddenState<B> {
    fn clone(&self) -> Self {
        HiddenState {
            history: self.history.clone(),
            ..*self
        }
    }

    /// Reuses the history's buffer, as [`crate::state::State`] does.
    fn clone_from(&mut self, source: &Self) {
        let mut history = std::mem::take(&mut self.history);
        history.clone_from(&source.history);
        *self = HiddenState { history, ..*source };
    }
}
