//! `game::Game` for [`Qast`]: one action per token (section 8), the roll a chance position
//! of 243 equally likely outcomes.

use crate::notation::roll_text;
use crate::options::QastOptions;
use crate::qast::{BLACK, Ending, GLOBAL_ACTIONS, GOLD, MINUS, Next, PLUS, Qast, ROLLS};
use game::{BoardViewWork, Game, GtpWork, Outcome, Side};

fn side_of(colour: u8) -> Side {
    if colour == BLACK {
        Side::First
    } else {
        Side::Second
    }
}

impl Game for Qast {
    type Options = QastOptions;

    const NAME: &'static str = "qast";

    const ABOUT: &'static str =
        "a race round a ring track with three-sided dice sticks, to the gold circles (QAST.md)";

    const OPTION_HELP: &'static [(&'static str, &'static str)] = &[
        (
            "side",
            "spaces on each long side of the track, odd, 19..=39 (the ring has 2 side + 2)",
        ),
        (
            "black_gold",
            "1: Black's third set-up placement may go straight to gold; 0: not",
        ),
        (
            "max_rounds",
            "rounds after which the count decides: gold, then progress, 1..=100000",
        ),
    ];

    const COLOURS: [&'static str; 2] = ["black", "white"];

    const CHANCE: bool = true;

    fn with_gtp<W: GtpWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn with_board_view<W: BoardViewWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn new(options: &QastOptions) -> Self {
        Qast::new(options)
    }

    fn options(&self) -> &QastOptions {
        Qast::options(self)
    }

    /// The decisions' actions: the spaces, then the eleven of section 8. A roll's outcomes
    /// are numbered apart (0..243 at a roll).
    fn num_actions(&self) -> usize {
        self.n() + GLOBAL_ACTIONS
    }

    fn to_move(&self) -> Side {
        side_of(self.mover())
    }

    fn is_chance(&self) -> bool {
        self.next == Next::Roll
    }

    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>) {
        out.clear();
        if self.next == Next::Roll {
            out.extend((0..ROLLS).map(|roll| (roll, 1.0 / ROLLS as f64)));
        }
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        self.legal(out);
    }

    fn is_legal(&self, action: usize) -> bool {
        Qast::is_legal(self, action)
    }

    fn apply(&mut self, action: usize) {
        debug_assert!(Qast::is_legal(self, action), "illegal action {action}");
        Qast::apply(self, action);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner()
            .map(|winner| winner.map_or(Outcome::Draw, |c| Outcome::Win(side_of(c))))
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.ending.map(|ending| match ending {
            Ending::Gold => "gold",
            Ending::Limit => "limit",
        })
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn from_position_text(options: &QastOptions, text: &str) -> Result<Self, String> {
        Qast::from_position(options, text).map_err(|e| e.to_string())
    }

    fn result_text(&self) -> Option<String> {
        let winner = self.winner()?;
        Some(format!(
            "{} {}",
            winner.map_or("draw", |c| Self::COLOURS[usize::from(c)]),
            self.end_reason().expect("an ending")
        ))
    }

    fn hash(&self) -> u64 {
        Qast::hash(self)
    }

    /// The race as the count of section 7 reads it: discs on gold, plus each disc's progress
    /// as a fraction of a lap.
    fn score(&self, side: Side) -> f32 {
        let c = side.index();
        f32::from(self.gold[c]) + self.total_progress()[c] as f32 / self.n() as f32
    }

    /// The identity and the flip (the board turned end over end, `+` and `-` exchanged).
    fn symmetry_count(&self) -> usize {
        2
    }

    fn transform_action(&self, sym: usize, action: usize) -> usize {
        let n = self.n();
        if sym == 0 || self.next == Next::Roll {
            return action;
        }
        match action {
            a if a < n => self.flip(a),
            a if a < n + MINUS => a + MINUS - PLUS,
            a if a < n + GOLD => a - MINUS + PLUS,
            a => a,
        }
    }

    fn action_to_string(&self, action: usize) -> String {
        if self.next == Next::Roll {
            return roll_text(action);
        }
        self.action_text(action)
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        self.check(text)
    }
}
