//! The rules over bit sets: groups, shapes, placements and the cascade of steals, one decision
//! at a time (VASTUZ.md sections 2 to 5 and 7).
//!
//! Every `apply` leaves the state ready for the next decision: the legal choices are a bit set
//! computed once, so `legal_actions` and `is_legal` only read it. Groups keep their stones and,
//! once asked, their shape key; a key is recomputed only for a group that changed.

use crate::tables::Tables;
use hexgrid::{Bits, SYMMETRIES};
use std::hash::{Hash, Hasher};

pub(crate) const BLACK: usize = 0;
pub(crate) const WHITE: usize = 1;

/// What the side to move decides next.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// A point to place on (or `pass`, or `swap`): a new turn.
    Place,
    /// An enemy stone to steal.
    Take,
    /// Where the taken stone goes.
    Put,
    /// The game is over.
    Over,
}

/// A maximal connected set of stones of one colour.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Group<B> {
    pub stones: B,
    pub size: u16,
    /// The canonical shape ([`State::shape_key`]), computed when first compared.
    key: Option<B>,
}

impl<B: Bits> Group<B> {
    fn new(stones: B) -> Self {
        Group {
            stones,
            size: stones.count() as u16,
            key: None,
        }
    }
}

/// A step under way (section 4.2): the thief's stones when it began, which destinations must
/// touch, and the targets not yet stolen from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Step<B> {
    pub start: B,
    pub targets: B,
}

/// A stone taken and not yet put: the group it came from, as it was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Taken<B> {
    pub cell: usize,
    pub group: B,
    size: u16,
    key: B,
}

#[derive(Debug)]
pub(crate) struct State<B: Bits> {
    pub tables: &'static Tables<B>,
    pub pie: bool,
    /// Stones by colour.
    pub stones: [B; 2],
    pub groups: [Vec<Group<B>>; 2],
    /// The colour that decides next.
    pub mover: usize,
    /// The number of the move under way (1 at the start).
    pub move_number: u16,
    pub decision: Decision,
    /// The points legal for the decision, off the board never.
    pub choices: B,
    /// Each colour's legal placements, as of the last turn's end.
    pub placeable: [B; 2],
    /// The stones of the mover's pending groups (section 4.3).
    pub pending: B,
    pub step: Option<Step<B>>,
    pub taken: Option<Taken<B>>,
    /// Zobrist key of the stones.
    board_key: u64,
}

impl<B: Bits> State<B> {
    pub fn new(tables: &'static Tables<B>, pie: bool) -> Self {
        let points = tables.geometry().hexes();
        let mut state = State {
            tables,
            pie,
            stones: [B::ZERO; 2],
            groups: [Vec::with_capacity(points), Vec::with_capacity(points)],
            mover: BLACK,
            move_number: 1,
            decision: Decision::Place,
            choices: B::ZERO,
            placeable: [B::ZERO; 2],
            pending: B::ZERO,
            step: None,
            taken: None,
            board_key: 0,
        };
        state.settle();
        state
    }

    /// A position between moves from its stones (section 6.3): groups found afresh, then the
    /// next decision.
    pub fn from_stones(
        tables: &'static Tables<B>,
        pie: bool,
        stones: [B; 2],
        mover: usize,
        move_number: u16,
    ) -> Self {
        let mut state = State::new(tables, pie);
        for colour in [BLACK, WHITE] {
            let mut rest = stones[colour];
            while !rest.is_zero() {
                let group = tables.lattice.flood(B::bit(rest.lowest()), stones[colour]);
                state.groups[colour].push(Group::new(group));
                rest &= !group;
            }
            for cell in stones[colour].ones() {
                state.board_key ^= tables.stone_key(colour, cell);
            }
        }
        state.stones = stones;
        state.mover = mover;
        state.move_number = move_number;
        state.settle();
        state
    }

    pub fn empty(&self) -> B {
        self.tables.lattice.on_board() & !(self.stones[BLACK] | self.stones[WHITE])
    }

    pub fn colour_at(&self, cell: usize) -> Option<usize> {
        [BLACK, WHITE]
            .into_iter()
            .find(|&colour| self.stones[colour].contains(cell))
    }

    fn neighbours(&self, set: B) -> B {
        self.tables.lattice.neighbours(set)
    }

    pub fn swap_legal(&self) -> bool {
        self.decision == Decision::Place && self.pie && self.move_number == 2
    }

    pub fn pass_legal(&self) -> bool {
        self.decision == Decision::Place && self.choices.is_zero()
    }

    /// The index of `colour`'s group holding `cell`, a stone of that colour.
    pub fn group_at(&self, colour: usize, cell: usize) -> usize {
        self.groups[colour]
            .iter()
            .position(|group| group.stones.contains(cell))
            .expect("a stone is in a group")
    }

    /// The shape of a set of stones up to the 12 symmetries and translation (section 2): each
    /// image moved so its least column and row are 0, the least image as a bit set.
    pub fn shape_key(&self, stones: B) -> B {
        let lattice = &self.tables.lattice;
        let width = lattice.geometry().width();
        (0..SYMMETRIES)
            .map(|sym| {
                let (mut image, mut low_x, mut low_y) = (B::ZERO, usize::MAX, usize::MAX);
                for cell in stones.ones() {
                    let mapped = lattice.map_cell(sym, cell);
                    image |= B::bit(mapped);
                    low_x = low_x.min(mapped % width);
                    low_y = low_y.min(mapped / width);
                }
                image.shr((low_y * width + low_x) as u32)
            })
            .min()
            .expect("12 images")
    }

    fn key_of(&mut self, colour: usize, index: usize) -> B {
        if let Some(key) = self.groups[colour][index].key {
            return key;
        }
        let key = self.shape_key(self.groups[colour][index].stones);
        self.groups[colour][index].key = Some(key);
        key
    }

    /// Whether group `a` of colour `ca` and group `b` of colour `cb` have the same shape.
    fn same_shape(&mut self, ca: usize, a: usize, cb: usize, b: usize) -> bool {
        self.groups[ca][a].size == self.groups[cb][b].size
            && self.key_of(ca, a) == self.key_of(cb, b)
    }

    /// The points where `colour` may place: empty, touching at most one of its groups.
    fn placeable_for(&self, colour: usize) -> B {
        let (mut once, mut twice) = (B::ZERO, B::ZERO);
        for group in &self.groups[colour] {
            let around = self.neighbours(group.stones);
            twice |= once & around;
            once |= around;
        }
        self.empty() & !twice
    }

    /// The targets of the mover's group `thief`: the enemy groups next to it with its shape,
    /// as one set of stones.
    fn targets_of(&mut self, thief: usize) -> B {
        let (me, enemy) = (self.mover, 1 - self.mover);
        let around = self.neighbours(self.groups[me][thief].stones);
        let mut targets = B::ZERO;
        for target in 0..self.groups[enemy].len() {
            let stones = self.groups[enemy][target].stones;
            if !(stones & around).is_zero() && self.same_shape(me, thief, enemy, target) {
                targets |= stones;
            }
        }
        targets
    }

    /// Where the mover's group `stones` may put a stolen stone, taken stones aside: next to
    /// `start` (its stones when the step began) and to no other friendly stone, not on a
    /// friendly stone (section 4.1, rules 2 and 3). Empty points of it are destinations;
    /// an enemy stone of it is a destination for itself once taken.
    fn reach(&self, stones: B, start: B) -> B {
        let friendly = self.stones[self.mover];
        self.neighbours(start) & !self.neighbours(friendly & !stones) & !friendly
    }

    /// The stones a group may take from `targets`: any stone of a target while an empty
    /// destination exists, else only those that are their own destination.
    fn takes(&self, stones: B, start: B, targets: B) -> B {
        let reach = self.reach(stones, start);
        if (reach & self.empty()).is_zero() {
            targets & reach
        } else {
            targets
        }
    }

    /// The stones the pending groups that can steal may take now.
    pub fn pending_takes(&mut self) -> B {
        let mut takes = B::ZERO;
        for index in 0..self.groups[self.mover].len() {
            let stones = self.groups[self.mover][index].stones;
            if (stones & self.pending).is_zero() {
                continue;
            }
            let targets = self.targets_of(index);
            if !targets.is_zero() {
                takes |= self.takes(stones, stones, targets);
            }
        }
        takes
    }

    fn thief_of_step(&self, step: &Step<B>) -> usize {
        self.group_at(self.mover, step.start.lowest())
    }

    /// Moves the turn on to its next decision: the step under way, else a pending group that
    /// can steal, else the end of the turn.
    fn advance(&mut self) {
        if let Some(step) = self.step {
            let thief = self.groups[self.mover][self.thief_of_step(&step)].stones;
            let takes = self.takes(thief, step.start, step.targets);
            if !takes.is_zero() {
                self.decision = Decision::Take;
                self.choices = takes;
                return;
            }
            self.pending |= thief;
            self.step = None;
        }
        let takes = self.pending_takes();
        if takes.is_zero() {
            self.end_turn();
        } else {
            self.decision = Decision::Take;
            self.choices = takes;
        }
    }

    fn end_turn(&mut self) {
        self.pending = B::ZERO;
        self.step = None;
        self.taken = None;
        self.move_number += 1;
        self.mover = 1 - self.mover;
        self.settle();
    }

    /// The decision at a turn's start: a placement, `pass`, or the end of the game.
    fn settle(&mut self) {
        self.placeable = [self.placeable_for(BLACK), self.placeable_for(WHITE)];
        if self.placeable[BLACK].is_zero() && self.placeable[WHITE].is_zero() {
            self.decision = Decision::Over;
            self.choices = B::ZERO;
        } else {
            self.decision = Decision::Place;
            self.choices = self.placeable[self.mover];
        }
    }

    fn add_stone(&mut self, colour: usize, cell: usize) {
        self.stones[colour] |= B::bit(cell);
        self.board_key ^= self.tables.stone_key(colour, cell);
    }

    fn lift_stone(&mut self, colour: usize, cell: usize) {
        self.stones[colour] &= !B::bit(cell);
        self.board_key ^= self.tables.stone_key(colour, cell);
    }

    pub fn place(&mut self, cell: usize) {
        let me = self.mover;
        let around = self.neighbours(B::bit(cell));
        self.add_stone(me, cell);
        match self.groups[me]
            .iter()
            .position(|group| !(group.stones & around).is_zero())
        {
            None => {
                self.groups[me].push(Group::new(B::bit(cell)));
                self.end_turn();
            }
            Some(index) => {
                let group = &mut self.groups[me][index];
                group.stones |= B::bit(cell);
                group.size += 1;
                group.key = None;
                self.pending = group.stones;
                self.advance();
            }
        }
    }

    pub fn pass(&mut self) {
        self.end_turn();
    }

    /// White takes Black's first stone as its own (section 3.3).
    pub fn swap(&mut self) {
        for cell in self.stones[BLACK].ones() {
            self.lift_stone(BLACK, cell);
            self.add_stone(WHITE, cell);
        }
        self.groups.swap(BLACK, WHITE);
        self.end_turn();
    }

    pub fn take(&mut self, cell: usize) {
        let enemy = 1 - self.mover;
        let index = self.group_at(enemy, cell);
        let key = self.key_of(enemy, index);
        let group = self.groups[enemy].swap_remove(index);
        self.lift_stone(enemy, cell);
        let mut rest = group.stones & !B::bit(cell);
        while !rest.is_zero() {
            let piece = self.tables.lattice.flood(B::bit(rest.lowest()), rest);
            self.groups[enemy].push(Group::new(piece));
            rest &= !piece;
        }
        let taken = Taken {
            cell,
            group: group.stones,
            size: group.size,
            key,
        };
        self.choices = match self.step {
            Some(step) => {
                let thief = self.groups[self.mover][self.thief_of_step(&step)].stones;
                self.reach(thief, step.start) & self.empty()
            }
            None => self.thieves_of(&taken).1,
        };
        self.taken = Some(taken);
        self.decision = Decision::Put;
    }

    /// With no step under way, the pending groups that have the taken stone's group as a
    /// target (as a set of their stones), and the destinations they offer it.
    fn thieves_of(&mut self, taken: &Taken<B>) -> (B, B) {
        let me = self.mover;
        let touching = self.neighbours(taken.group);
        let (mut thieves, mut puts) = (B::ZERO, B::ZERO);
        for index in 0..self.groups[me].len() {
            let stones = self.groups[me][index].stones;
            if (stones & self.pending).is_zero()
                || (stones & touching).is_zero()
                || self.groups[me][index].size != taken.size
                || self.key_of(me, index) != taken.key
            {
                continue;
            }
            thieves |= stones;
            puts |= self.reach(stones, stones) & self.empty();
        }
        (thieves, puts)
    }

    pub fn put(&mut self, cell: usize) {
        let me = self.mover;
        let taken = self.taken.take().expect("a put follows a take");
        let thief = match self.step {
            Some(step) => self.thief_of_step(&step),
            None => {
                let around = self.neighbours(B::bit(cell));
                let thief = self.groups[me]
                    .iter()
                    .position(|group| !(group.stones & around).is_zero())
                    .expect("a destination touches its thief");
                let start = self.groups[me][thief].stones;
                let targets = self.targets_of(thief) & !taken.group;
                self.step = Some(Step { start, targets });
                self.pending &= !start;
                thief
            }
        };
        if let Some(step) = &mut self.step {
            step.targets &= !taken.group;
        }
        self.add_stone(me, cell);
        let group = &mut self.groups[me][thief];
        group.stones |= B::bit(cell);
        group.size += 1;
        group.key = None;
        self.answer_pieces(&taken, thief);
        self.advance();
    }

    /// Makes pending every friendly group but the thief that is next to a piece of the
    /// target and has that piece's shape (section 4.3, rule 3).
    fn answer_pieces(&mut self, taken: &Taken<B>, thief: usize) {
        let (me, enemy) = (self.mover, 1 - self.mover);
        for piece in 0..self.groups[enemy].len() {
            let stones = self.groups[enemy][piece].stones;
            if (stones & taken.group).is_zero() {
                continue;
            }
            let around = self.neighbours(stones);
            for friend in 0..self.groups[me].len() {
                if friend != thief
                    && !(self.groups[me][friend].stones & around).is_zero()
                    && self.same_shape(me, friend, enemy, piece)
                {
                    self.pending |= self.groups[me][friend].stones;
                }
            }
        }
    }

    /// Why `cell` may not be taken now, in words for a player (`None` if it may).
    pub fn take_fault(&mut self, cell: usize) -> Option<String> {
        if self.choices.contains(cell) {
            return None;
        }
        let name = self.tables.name(cell);
        Some(match self.colour_at(cell) {
            None => format!("{name} is empty: a steal takes an enemy stone"),
            Some(colour) if colour == self.mover => {
                format!("{name} is your own stone: a steal takes an enemy stone")
            }
            Some(_) if self.step.is_some() && self.pending_takes().contains(cell) => {
                let step = self.step.expect("a step");
                let thief = self.groups[self.mover][self.thief_of_step(&step)].stones;
                format!(
                    "the step of the group at {} must finish first: it can still steal",
                    self.tables.name(thief.lowest())
                )
            }
            Some(_) if self.step.is_some() => format!(
                "{name} is in no remaining target of the group stealing now (a target is an \
                 enemy group next to it with its shape, stolen from once per step)"
            ),
            Some(_) => format!(
                "{name} is in no target of a group that must steal (a target is an enemy group \
                 next to a stealing group with its shape)"
            ),
        })
    }

    /// Why the taken stone may not go to `cell` (`None` if it may).
    pub fn put_fault(&mut self, cell: usize) -> Option<String> {
        if self.choices.contains(cell) {
            return None;
        }
        let name = self.tables.name(cell);
        if self.colour_at(cell).is_some() {
            return Some(format!("{name} is occupied"));
        }
        let taken = self.taken.expect("a put follows a take");
        let thieves = match self.step {
            Some(step) => self.groups[self.mover][self.thief_of_step(&step)].stones,
            None => self.thieves_of(&taken).0,
        };
        let friendly = self.stones[self.mover];
        Some(
            if !(self.neighbours(B::bit(cell)) & friendly & !thieves).is_zero() {
                format!("{name} touches another of your groups: the thief would merge with it")
            } else {
                format!("{name} is not next to the stones the thief had when its step began")
            },
        )
    }

    /// Group sizes of `colour`, largest first.
    pub fn sizes(&self, colour: usize) -> Vec<u16> {
        let mut sizes: Vec<u16> = self.groups[colour].iter().map(|g| g.size).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// Both scores in half points (section 5): the number of different sizes, and a half
    /// point to the colour whose size list wins the comparison.
    pub fn half_scores(&self) -> [u32; 2] {
        let sizes = [self.sizes(BLACK), self.sizes(WHITE)];
        let mut scores = sizes.clone().map(|mut list| {
            list.dedup();
            2 * list.len() as u32
        });
        let longest = sizes[BLACK].len().max(sizes[WHITE].len());
        let at = |colour: usize, i: usize| sizes[colour].get(i).copied().unwrap_or(0);
        if let Some(i) = (0..longest).find(|&i| at(BLACK, i) != at(WHITE, i)) {
            scores[if at(BLACK, i) > at(WHITE, i) {
                BLACK
            } else {
                WHITE
            }] += 1;
        }
        scores
    }

    pub fn hash(&self) -> u64 {
        let mut key = self.board_key;
        if self.mover == WHITE {
            key ^= self.tables.white_to_move;
        }
        if self.swap_legal() {
            key ^= self.tables.swap_open;
        }
        if matches!(self.decision, Decision::Take | Decision::Put) || !self.pending.is_zero() {
            let mut mixer = Mixer(key);
            (self.decision, self.pending, self.step, self.taken).hash(&mut mixer);
            key = mixer.finish();
        }
        key
    }
}

/// A copy whose group lists keep room for a group per point, so that `apply` on it never
/// allocates (a derived clone would leave no room, and the first new group would).
impl<B: Bits> Clone for State<B> {
    fn clone(&self) -> Self {
        let groups = self.groups.each_ref().map(|groups| {
            let mut copy = Vec::with_capacity(groups.capacity());
            copy.extend_from_slice(groups);
            copy
        });
        State { groups, ..*self }
    }
}

/// A small multiply-rotate hasher for the rare state within a turn.
struct Mixer(u64);

impl Hasher for Mixer {
    fn finish(&self) -> u64 {
        game::mix64(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(29) ^ value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}
