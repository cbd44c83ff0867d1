//! `game::BoardView` for [`Qast`]: the plank seen from above (White's side on the left, as
//! the rules' diagram draws it), its painted spaces and discs with their sticks, the circles,
//! the coin and the round's roll, and the choices of the decision at hand.

use crate::qast::{BLACK, GLOBAL_ACTIONS, GOLD, KICK, MINUS, Next, PLUS, Qast, WHITE};
use game::{BoardView, Effect, Side};
use serde::Serialize;

const COLOUR_NAMES: [&str; 2] = ["black", "white"];

/// What the page draws of a Qast game besides what every game has.
#[derive(Debug, Serialize)]
pub struct Board {
    /// Spaces on each long side: the plank is three columns of `side` rows.
    pub side: usize,
    /// Every space of the ring, `t0` first.
    pub spaces: Vec<Space>,
    /// Discs in Black's and White's own circles.
    pub circles: [u8; 2],
    /// Black's and White's discs on the shared gold circles.
    pub gold: [u8; 2],
    /// The coin holder, who rolls three sticks and assigns and moves first.
    pub coin: &'static str,
    /// 0 during the set-up.
    pub round: u32,
    pub max_rounds: u32,
    /// The round's roll, once it is rolled.
    pub roll: Option<Roll>,
    /// `setup`, `roll`, `assign`, `move`, `lap`, `end` or `over`.
    pub decision: &'static str,
    /// The decision in words: `White's move of stick 2`.
    pub decision_text: String,
    /// The stick being assigned or moved.
    pub stick: Option<u8>,
    /// At a move: the space of the disc that carries the stick.
    pub moving: Option<String>,
    /// At a move: each legal move and the space it lands on.
    pub destinations: Vec<Destination>,
    /// The word choices legal now besides spaces and moves (`gold`, `kick`); `pass` is the
    /// page's own button.
    pub words: Vec<&'static str>,
    /// Each colour's total progress: the count's tie-break at the limit.
    pub progress: [usize; 2],
}

/// A space of the ring, placed on the plank: `col` 0 is the left (White's) side, 2 the right,
/// 1 the two ends; `row` 0 is the bottom.
#[derive(Debug, Serialize)]
pub struct Space {
    pub name: String,
    pub col: usize,
    pub row: usize,
    /// The colour whose painted space this is, if any.
    pub painted: Option<&'static str>,
    pub disc: Option<DiscView>,
    /// A choice of the decision at hand: a space to place on, a disc to give the stick.
    pub open: bool,
}

#[derive(Debug, Serialize)]
pub struct DiscView {
    pub colour: &'static str,
    /// `+` or `-`, once it has moved.
    pub dir: Option<&'static str>,
    pub entry: String,
    /// Spaces moved since it entered or last completed a lap.
    pub progress: usize,
    /// The sticks of this round that still wait to move it.
    pub sticks: Vec<u8>,
}

/// The round's roll by player: the holder's sticks 1, 2, 3 and the other's sticks 2, 3.
#[derive(Debug, Serialize)]
pub struct Roll {
    pub text: String,
    pub holder: &'static str,
    pub holder_sticks: [u8; 3],
    pub other: &'static str,
    pub other_sticks: [u8; 2],
    /// The holder rolled three threes: each of its sticks is worth 4 this round.
    pub three_threes: bool,
}

#[derive(Debug, Serialize)]
pub struct Destination {
    /// The move's token, `+2` or `-3`.
    pub token: String,
    pub to: String,
}

fn name(k: usize) -> String {
    format!("t{k}")
}

impl Qast {
    /// Where space `k` sits on the plank: `(col, row)`.
    fn plank_place(&self, k: usize) -> (usize, usize) {
        let s = self.options().side();
        match k {
            _ if k < s => (0, k),
            _ if k == s => (1, s - 1),
            _ if k <= 2 * s => (2, 2 * s - k),
            _ => (1, 0),
        }
    }

    /// The legal moves of the disc carrying the stick at hand, with the spaces they land on.
    fn destinations(&self) -> Vec<Destination> {
        let Next::Move { colour, stick } = self.next else {
            return Vec::new();
        };
        let Some(from) = self.carrier(colour, stick) else {
            return Vec::new();
        };
        let moves = self.moves(colour, stick);
        (0..8)
            .filter(|&i| moves[i])
            .map(|i| {
                let (dir, d) = if i < 4 { (1, i + 1) } else { (-1, i - 3) };
                Destination {
                    token: format!("{}{d}", if dir > 0 { '+' } else { '-' }),
                    to: name(self.step(from, dir, d)),
                }
            })
            .collect()
    }
}

impl BoardView for Qast {
    type Board = Board;

    const PAGE_MODULE: &'static str = include_str!("../page/plank.js");

    fn board(&self, _viewer: Side) -> Board {
        let choices = self.space_choices();
        let spaces = (0..self.n())
            .map(|k| {
                let (col, row) = self.plank_place(k);
                let painted = [BLACK, WHITE]
                    .into_iter()
                    .find(|&c| self.is_painted(c, k))
                    .map(|c| COLOUR_NAMES[usize::from(c)]);
                let disc = self.disc(k).map(|disc| DiscView {
                    colour: COLOUR_NAMES[usize::from(disc.colour)],
                    dir: match disc.dir {
                        0 => None,
                        1 => Some("+"),
                        _ => Some("-"),
                    },
                    entry: name(usize::from(disc.entry)),
                    progress: self.progress(k),
                    sticks: (1..=3).filter(|s| disc.sticks & (1 << s) != 0).collect(),
                });
                Space {
                    name: name(k),
                    col,
                    row,
                    painted,
                    disc,
                    open: choices & (1 << k) != 0,
                }
            })
            .collect();
        let roll = self.roll.filter(|_| self.next != Next::Roll).map(|r| Roll {
            text: crate::notation::roll_text(crate::notation::roll_action(r)),
            holder: COLOUR_NAMES[usize::from(self.coin)],
            holder_sticks: [r[0], r[1], r[2]],
            other: COLOUR_NAMES[usize::from(1 - self.coin)],
            other_sticks: [r[3], r[4]],
            three_threes: r[..3] == [3, 3, 3],
        });
        let (decision, stick) = match self.next {
            Next::Setup(_) => ("setup", None),
            Next::Roll => ("roll", None),
            Next::Assign { stick, .. } => ("assign", Some(stick)),
            Next::Move { stick, .. } => ("move", Some(stick)),
            Next::Lap { stick, .. } => ("lap", Some(stick)),
            Next::End { .. } => ("end", None),
            Next::Over => ("over", None),
        };
        let moving = match self.next {
            Next::Move { colour, stick } => self.carrier(colour, stick).map(name),
            _ => None,
        };
        let n = self.n();
        let words = [(GOLD, "gold"), (KICK, "kick")]
            .into_iter()
            .filter(|&(index, _)| self.next != Next::Roll && self.is_legal(n + index))
            .map(|(_, word)| word)
            .collect();
        Board {
            side: self.options().side(),
            spaces,
            circles: self.circles,
            gold: self.gold,
            coin: COLOUR_NAMES[usize::from(self.coin)],
            round: self.round,
            max_rounds: self.options().max_rounds(),
            roll,
            decision,
            decision_text: self.decision_name(),
            stick,
            moving,
            destinations: self.destinations(),
            words,
            progress: self.total_progress(),
        }
    }

    /// A space placed on or given a stick; a move's landing space.
    fn target_name(&self, action: usize) -> Option<String> {
        let n = self.n();
        if self.next == Next::Roll || action >= n + GLOBAL_ACTIONS {
            return None;
        }
        if action < n {
            return Some(name(action));
        }
        let (colour, stick) = match self.next {
            Next::Move { colour, stick } => (colour, stick),
            _ => return None,
        };
        let from = self.carrier(colour, stick)?;
        let index = action - n;
        let (dir, d) = match index {
            i if (PLUS..MINUS).contains(&i) => (1, i - PLUS + 1),
            i if (MINUS..GOLD).contains(&i) => (-1, i - MINUS + 1),
            _ => return None,
        };
        Some(name(self.step(from, dir, d)))
    }

    /// A move goes from its disc's space to its landing space and takes the enemy discs it
    /// meets; a placement lands a disc; `gold` lifts the lapping disc off the track.
    fn effect(before: &Qast, action: usize, after: &Qast) -> Effect {
        let n = before.n();
        let (from, placed) = match before.next {
            Next::Move { colour, stick } if (n..n + GOLD).contains(&action) => {
                (before.carrier(colour, stick), before.target_name(action))
            }
            Next::Setup(_) | Next::Lap { .. } | Next::End { .. } if action < n => {
                (None, Some(name(action)))
            }
            _ => (None, None),
        };
        // A disc gone from its space, or replaced by one of the other colour; the moving
        // disc's own start is not a loss.
        let removed = (0..n)
            .filter(|&k| {
                let (was, is) = (before.disc(k), after.disc(k));
                was.is_some_and(|w| is.is_none_or(|i| i.colour != w.colour)) && from != Some(k)
            })
            .map(name)
            .collect();
        Effect {
            from: from.map(name),
            placed,
            removed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::QastOptions;
    use game::Game;

    fn position(text: &str) -> Qast {
        Qast::from_position(&QastOptions::default(), text).unwrap()
    }

    /// The names of the spaces the board marks as choices.
    fn open_spaces(board: &Board) -> Vec<&str> {
        board
            .spaces
            .iter()
            .filter(|s| s.open)
            .map(|s| s.name.as_str())
            .collect()
    }

    #[test]
    fn the_plank_places_each_space_as_the_rules_diagram_does() {
        let game = Qast::new(&QastOptions::default());
        let board = game.board(Side::First);
        let at = |k: usize| (board.spaces[k].col, board.spaces[k].row);
        assert_eq!(board.spaces.len(), 40);
        assert_eq!(
            [at(0), at(18), at(19), at(20), at(38), at(39)],
            [(0, 0), (0, 18), (1, 18), (2, 18), (2, 0), (1, 0)]
        );
        assert_eq!(board.spaces[4].painted, Some("white"));
        assert_eq!(board.spaces[24].painted, Some("black"));
        assert_eq!(board.spaces[7].painted, None);
        // Black's first set-up placement: its nine empty painted spaces.
        let open = open_spaces(&board);
        assert_eq!(
            open,
            [
                "t24", "t25", "t26", "t28", "t29", "t30", "t32", "t33", "t34"
            ]
        );
    }

    /// Section 10's token 26: White's stick 1 (worth 3) on t8, next to its own disc on t9.
    #[test]
    fn a_move_shows_its_disc_its_destinations_and_what_it_took() {
        let mut game = position("o4:23,o8:1,o9,o19+13,x29+28:23 x2o0 x1o0 o 2 312.21 mo1 26");
        let board = game.board(Side::Second);
        assert_eq!(board.decision, "move");
        assert_eq!(board.moving.as_deref(), Some("t8"));
        let destinations: Vec<(&str, &str)> = board
            .destinations
            .iter()
            .map(|d| (d.token.as_str(), d.to.as_str()))
            .collect();
        assert_eq!(
            destinations,
            [("+2", "t10"), ("-1", "t7"), ("-2", "t6"), ("-3", "t5")]
        );
        let roll = board.roll.expect("the round's roll");
        assert_eq!((roll.holder, roll.holder_sticks), ("white", [3, 1, 2]));
        assert_eq!(roll.other_sticks, [2, 1]);
        assert_eq!(board.spaces[8].disc.as_ref().unwrap().sticks, [1]);
        let before = game.clone();
        let action = game.parse_action("+2").unwrap();
        assert_eq!(before.target_name(action).as_deref(), Some("t10"));
        game.apply(action);
        let effect = Qast::effect(&before, action, &game);
        assert_eq!(effect.from.as_deref(), Some("t8"));
        assert_eq!(effect.placed.as_deref(), Some("t10"));
        assert!(effect.removed.is_empty());
        // Section 10's token 16: White's `+3` from t16 lands on t19 and takes Black's disc.
        let before = position("o4,o9,o16+13:3,x19-24,x28:3 x1o1 x1o0 x 1 321.33 mo3 16");
        let mut after = before.clone();
        let action = after.parse_action("+3").unwrap();
        after.apply(action);
        let effect = Qast::effect(&before, action, &after);
        assert_eq!(effect.placed.as_deref(), Some("t19"));
        assert_eq!(effect.removed, ["t19"]);
    }

    #[test]
    fn a_lap_offers_its_bonus_words() {
        // Black's disc on t25, entered on t24 moving `-`, laps with a move of 2 (progress 39).
        let mut game = position("o8+8,o12,x25-24:1 x2o2 x1o0 x 3 211.11 mx1 40");
        let action = game.parse_action("-2").unwrap();
        game.apply(action);
        let board = game.board(Side::First);
        assert_eq!(board.decision, "lap");
        assert_eq!(board.words, ["gold"]);
        let open = open_spaces(&board);
        assert!(open.contains(&"t24") && !open.contains(&"t23"), "{open:?}");
    }
}
