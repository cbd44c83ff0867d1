//! [`Qast`]: the track, the circles, the coin and the round, one token at a time (QAST.md
//! sections 2 to 7). Everything is a fixed array, so a state copies without allocating.

use crate::options::QastOptions;

/// The longest ring: `side` 39 gives 80 spaces.
pub const MAX_TRACK: usize = 80;
pub const BLACK: u8 = 0;
pub const WHITE: u8 = 1;

/// A disc on the track.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Disc {
    pub colour: u8,
    /// The space it entered the track on.
    pub entry: u8,
    /// +1, -1, or 0 before its first move.
    pub dir: i8,
    /// Bit k set while the owner's stick k (1..=3) waits to move it.
    pub sticks: u8,
}

/// The next token: a decision of one side, or the roll.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// Set-up placement 1..=6: Black at odd steps, White at even.
    Setup(u8),
    Roll,
    Assign {
        colour: u8,
        stick: u8,
    },
    Move {
        colour: u8,
        stick: u8,
    },
    /// The lap bonus after stick `stick`'s move, the lapping disc on `space`.
    Lap {
        colour: u8,
        stick: u8,
        space: u8,
    },
    End {
        colour: u8,
    },
    Over,
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A colour's third disc reached gold.
    Gold,
    /// The round limit: decided by the count (section 7).
    Limit,
}

/// The five moves of a round by role (holder H, other O) and stick: H1, O2, H2, O3, H3.
const MOVE_ORDER: [(bool, u8); 5] = [(true, 1), (false, 2), (true, 2), (false, 3), (true, 3)];

/// Action indices beyond the spaces (section 8): `+1..+4`, `-1..-4`, `gold`, `kick`, `pass`.
pub(crate) const PLUS: usize = 0;
pub(crate) const MINUS: usize = 4;
pub(crate) const GOLD: usize = 8;
pub(crate) const KICK: usize = 9;
pub(crate) const PASS: usize = 10;
/// Global actions after the spaces.
pub const GLOBAL_ACTIONS: usize = 11;
/// Outcomes of a roll: five three-sided sticks.
pub const ROLLS: usize = 243;

#[derive(Clone, Debug)]
pub struct Qast {
    options: QastOptions,
    pub(crate) track: [Option<Disc>; MAX_TRACK],
    /// Discs in each colour's own circles.
    pub circles: [u8; 2],
    /// Each colour's discs on the gold circles.
    pub gold: [u8; 2],
    /// The coin holder: rolls three sticks, assigns and moves first.
    pub coin: u8,
    /// 0 during the set-up.
    pub round: u32,
    /// The round's roll: the holder's sticks 1..3, then the other's sticks 2 and 3.
    pub roll: Option<[u8; 5]>,
    pub next: Next,
    /// The number of the next token, 1 at the start.
    pub number: u32,
    pub ending: Option<Ending>,
}

impl Qast {
    pub fn new(options: &QastOptions) -> Self {
        Qast {
            options: options.clone(),
            track: [None; MAX_TRACK],
            circles: [1, 1],
            gold: [0, 0],
            coin: BLACK,
            round: 0,
            roll: None,
            next: Next::Setup(1),
            number: 1,
            ending: None,
        }
    }

    pub fn options(&self) -> &QastOptions {
        &self.options
    }

    /// Spaces on the ring.
    pub fn n(&self) -> usize {
        self.options.track()
    }

    pub fn disc(&self, space: usize) -> Option<Disc> {
        self.track[space]
    }

    /// The places j of a side (0 at the bottom corner) that are painted: three groups of three.
    fn painted_place(&self, j: usize) -> bool {
        let s = self.options.side();
        let m = (s - 1) / 2;
        (4..=6).contains(&j) || (m - 1..=m + 1).contains(&j) || (s - 7..=s - 5).contains(&j)
    }

    /// Whether space `k` is painted in `colour`: White's on the left side (`tj`), Black's on
    /// the right (`t(2S - j)`).
    pub fn is_painted(&self, colour: u8, k: usize) -> bool {
        let s = self.options.side();
        if colour == WHITE {
            k < s && self.painted_place(k)
        } else {
            (s + 1..=2 * s).contains(&k) && self.painted_place(2 * s - k)
        }
    }

    pub fn on_track(&self, colour: u8) -> usize {
        self.track[..self.n()]
            .iter()
            .filter(|d| d.is_some_and(|d| d.colour == colour))
            .count()
    }

    /// Spaces moved since the disc entered or last completed a lap (section 5.5).
    pub fn progress(&self, space: usize) -> usize {
        let disc = self.track[space].expect("a disc");
        let n = self.n() as i64;
        (i64::from(disc.dir) * (space as i64 - i64::from(disc.entry))).rem_euclid(n) as usize
    }

    /// The side that decides the next token (the coin holder at a roll).
    pub fn mover(&self) -> u8 {
        match self.next {
            Next::Setup(step) => (step + 1) % 2,
            Next::Roll | Next::Over => self.coin,
            Next::Assign { colour, .. }
            | Next::Move { colour, .. }
            | Next::Lap { colour, .. }
            | Next::End { colour } => colour,
        }
    }

    pub fn is_over(&self) -> bool {
        self.next == Next::Over
    }

    /// The value of `colour`'s stick `stick` this round: 4 for the holder's after three threes.
    pub fn stick_value(&self, colour: u8, stick: u8) -> usize {
        let roll = self.roll.expect("a roll this round");
        if colour == self.coin {
            if roll[..3] == [3, 3, 3] {
                4
            } else {
                usize::from(roll[usize::from(stick) - 1])
            }
        } else {
            usize::from(roll[usize::from(stick) + 1])
        }
    }

    /// The space of `colour`'s disc carrying stick `stick`.
    pub fn carrier(&self, colour: u8, stick: u8) -> Option<usize> {
        (0..self.n()).find(|&k| {
            self.track[k].is_some_and(|d| d.colour == colour && d.sticks & (1 << stick) != 0)
        })
    }

    pub(crate) fn step(&self, from: usize, dir: i8, steps: usize) -> usize {
        let n = self.n() as i64;
        (from as i64 + i64::from(dir) * steps as i64).rem_euclid(n) as usize
    }

    /// Whether the disc on `from` may move `d` spaces in direction `dir` with a stick worth
    /// `value` (section 5.2-5.3), its colour's discs and the protected last enemy disc
    /// considered.
    pub fn can_move(&self, from: usize, dir: i8, d: usize, value: usize) -> bool {
        let Some(disc) = self.track[from] else {
            return false;
        };
        if d == 0 || d > value || (disc.dir != 0 && disc.dir != dir) {
            return false;
        }
        let own = |k: usize| self.track[k].is_some_and(|o| o.colour == disc.colour);
        let next = self.step(from, dir, 1);
        if own(next) {
            // The jump: only two spaces, over the adjacent own disc, with a stick of 3 or more.
            if value < 3 || d != 2 {
                return false;
            }
        } else if (1..d).any(|i| own(self.step(from, dir, i))) {
            return false;
        }
        let landing = self.step(from, dir, d);
        if own(landing) {
            return false;
        }
        let mut enemies = self.on_track(1 - disc.colour);
        for i in 1..=d {
            let space = self.step(from, dir, i);
            if self.track[space].is_some_and(|o| o.colour != disc.colour) {
                if enemies >= 2 {
                    enemies -= 1;
                } else if space == landing {
                    return false;
                }
            }
        }
        true
    }

    /// The legal moves of the disc carrying the stick at hand: `moves[i]` for `+(i+1)` and
    /// `moves[4 + i]` for `-(i+1)`.
    pub fn moves(&self, colour: u8, stick: u8) -> [bool; 8] {
        let mut moves = [false; 8];
        let Some(from) = self.carrier(colour, stick) else {
            return moves;
        };
        let value = self.stick_value(colour, stick);
        for d in 1..=4 {
            moves[d - 1] = self.can_move(from, 1, d, value);
            moves[3 + d] = self.can_move(from, -1, d, value);
        }
        moves
    }

    /// The holder at a role: the holder or the other player.
    fn role(&self, holder: bool) -> u8 {
        if holder { self.coin } else { 1 - self.coin }
    }

    /// Plays a legal action (checked by the caller).
    pub fn apply(&mut self, action: usize) {
        let n = self.n();
        self.number += 1;
        match self.next {
            Next::Setup(step) => {
                let colour = (step + 1) % 2;
                if action == n + GOLD {
                    self.gold[usize::from(colour)] += 1;
                } else {
                    self.enter(colour, action);
                }
                self.next = if step == 6 {
                    self.round = 1;
                    Next::Roll
                } else {
                    Next::Setup(step + 1)
                };
            }
            Next::Roll => {
                let mut rest = action;
                let mut roll = [0; 5];
                for value in roll.iter_mut().rev() {
                    *value = (rest % 3) as u8 + 1;
                    rest /= 3;
                }
                self.roll = Some(roll);
                self.next = Next::Assign {
                    colour: self.coin,
                    stick: 1,
                };
            }
            Next::Assign { colour, stick } => {
                if action < n {
                    let disc = self.track[action].as_mut().expect("a disc to assign to");
                    disc.sticks |= 1 << stick;
                }
                self.next = match (colour == self.coin, stick) {
                    (true, 3) => Next::Assign {
                        colour: 1 - colour,
                        stick: 2,
                    },
                    (false, 3) => self.move_step(0),
                    _ => Next::Assign {
                        colour,
                        stick: stick + 1,
                    },
                };
            }
            Next::Move { colour, stick } => {
                let from = self.carrier(colour, stick);
                if let Some(from) = from {
                    self.track[from].as_mut().expect("a disc").sticks &= !(1 << stick);
                }
                let index = self.move_index(colour, stick);
                if action == n + PASS {
                    self.next = self.move_step(index + 1);
                    return;
                }
                let from = from.expect("a move has a disc");
                let (dir, d) = if action < n + MINUS {
                    (1, action - n - PLUS + 1)
                } else {
                    (-1, action - n - MINUS + 1)
                };
                let landing = self.move_disc(from, dir, d);
                let lapped = self.progress(landing) < d;
                self.next = if lapped {
                    Next::Lap {
                        colour,
                        stick,
                        space: landing as u8,
                    }
                } else {
                    self.move_step(index + 1)
                };
            }
            Next::Lap {
                colour,
                stick,
                space,
            } => {
                let c = usize::from(colour);
                if action == n + GOLD {
                    self.track[usize::from(space)] = None;
                    self.gold[c] += 1;
                    if self.gold[c] == 3 {
                        self.next = Next::Over;
                        self.ending = Some(Ending::Gold);
                        return;
                    }
                } else if action == n + KICK {
                    self.gold[1 - c] -= 1;
                    self.circles[1 - c] += 1;
                } else if action < n {
                    self.circles[c] -= 1;
                    self.enter(colour, action);
                }
                self.next = self.move_step(self.move_index(colour, stick) + 1);
            }
            Next::End { colour } => {
                if action < n {
                    self.circles[usize::from(colour)] -= 1;
                    self.enter(colour, action);
                }
                self.next = if colour != self.coin {
                    Next::End { colour: self.coin }
                } else if self.round == self.options.max_rounds() {
                    self.roll = None;
                    self.ending = Some(Ending::Limit);
                    Next::Over
                } else {
                    self.coin = 1 - self.coin;
                    self.round += 1;
                    self.roll = None;
                    Next::Roll
                };
            }
            Next::Over => unreachable!("no token after the end"),
        }
    }

    /// Puts a new disc of `colour` on `space`: its entry, no direction yet.
    fn enter(&mut self, colour: u8, space: usize) {
        self.track[space] = Some(Disc {
            colour,
            entry: space as u8,
            dir: 0,
            sticks: 0,
        });
    }

    /// Where a move of `colour`'s stick `stick` comes in the round's order of moves.
    fn move_index(&self, colour: u8, stick: u8) -> usize {
        MOVE_ORDER
            .iter()
            .position(|&(holder, k)| k == stick && self.role(holder) == colour)
            .expect("a move of the round")
    }

    /// The round's move number `index`, or the end placements after the last.
    fn move_step(&self, index: usize) -> Next {
        match MOVE_ORDER.get(index) {
            Some(&(holder, stick)) => Next::Move {
                colour: self.role(holder),
                stick,
            },
            None => Next::End {
                colour: 1 - self.coin,
            },
        }
    }

    /// Moves the disc on `from` `d` spaces in direction `dir`, taking the enemy discs it meets
    /// in path order unless each is the last of its colour on the track; returns the landing.
    fn move_disc(&mut self, from: usize, dir: i8, d: usize) -> usize {
        let mut disc = self.track[from].take().expect("a disc to move");
        if disc.dir == 0 {
            disc.dir = dir;
        }
        let enemy = 1 - disc.colour;
        for i in 1..=d {
            let space = self.step(from, dir, i);
            if self.track[space].is_some_and(|o| o.colour == enemy) && self.on_track(enemy) >= 2 {
                self.track[space] = None;
                self.circles[usize::from(enemy)] += 1;
            }
        }
        let landing = self.step(from, dir, d);
        self.track[landing] = Some(disc);
        landing
    }

    /// Each colour's total progress (section 7).
    pub fn total_progress(&self) -> [usize; 2] {
        let mut totals = [0; 2];
        for k in 0..self.n() {
            if let Some(disc) = self.track[k] {
                totals[usize::from(disc.colour)] += self.progress(k);
            }
        }
        totals
    }

    /// The winner once the game is over (`Some(None)` for a draw).
    pub fn winner(&self) -> Option<Option<u8>> {
        match self.ending? {
            Ending::Gold => Some(Some(if self.gold[0] == 3 { BLACK } else { WHITE })),
            Ending::Limit => {
                let progress = self.total_progress();
                let count = |c: usize| (self.gold[c], progress[c]);
                Some(match count(0).cmp(&count(1)) {
                    std::cmp::Ordering::Greater => Some(BLACK),
                    std::cmp::Ordering::Less => Some(WHITE),
                    std::cmp::Ordering::Equal => None,
                })
            }
        }
    }
}

/// A well-mixed key of `z`: one step of SplitMix64 from it (nonzero for `z` = 0).
fn mix(mut z: u64) -> u64 {
    game::splitmix64(&mut z)
}

impl Qast {
    /// The flip of section 12: space k goes to (S - 1 - k) mod N.
    pub fn flip(&self, k: usize) -> usize {
        let n = self.n() as i64;
        (self.options().side() as i64 - 1 - k as i64).rem_euclid(n) as usize
    }

    /// A Zobrist-style key: the xor of one mixed key per disc (its colour, space, entry,
    /// direction and stick marks), mixed with the counts, the coin, the round, the roll and
    /// the decision at hand.
    pub fn hash(&self) -> u64 {
        let mut key = 0;
        for (space, disc) in self.track[..self.n()].iter().enumerate() {
            if let Some(d) = disc {
                let code = u64::from(d.colour)
                    | (space as u64) << 1
                    | u64::from(d.entry) << 8
                    | u64::from(d.dir as u8) << 16
                    | u64::from(d.sticks) << 24;
                key ^= mix(code);
            }
        }
        let next = match self.next {
            Next::Setup(step) => u64::from(step),
            Next::Roll => 8,
            Next::Assign { colour, stick } => 16 | u64::from(colour) << 2 | u64::from(stick),
            Next::Move { colour, stick } => 32 | u64::from(colour) << 2 | u64::from(stick),
            Next::Lap {
                colour,
                stick,
                space,
            } => 64 | u64::from(colour) << 2 | u64::from(stick) | u64::from(space) << 8,
            Next::End { colour } => 128 | u64::from(colour),
            Next::Over => 256,
        };
        let roll = self
            .roll
            .map_or(0, |r| r.iter().fold(1u64, |acc, &v| acc * 4 + u64::from(v)));
        let counts = u64::from(self.circles[0])
            | u64::from(self.circles[1]) << 4
            | u64::from(self.gold[0]) << 8
            | u64::from(self.gold[1]) << 12
            | u64::from(self.coin) << 16;
        mix(key ^ mix(next ^ roll << 20 ^ counts << 40) ^ mix(u64::from(self.round) ^ 1 << 63))
    }
}
