//! `game::Game` for [`Vastuz`]: one action per decision (section 7), a point or `pass` or
//! `swap`; a whole move is a placement and its steals.

use crate::options::VastuzOptions;
use crate::state::Decision;
use crate::vastuz::{COLOUR_NAMES, Inner, Vastuz, result_line, with_state};
use game::{BoardViewWork, Game, GtpWork, Outcome, Side};
use hexgrid::SYMMETRIES;

fn side_of(colour: usize) -> Side {
    if colour == 0 {
        Side::First
    } else {
        Side::Second
    }
}

impl Game for Vastuz {
    type Options = VastuzOptions;

    const NAME: &'static str = "vastuz";

    const ABOUT: &'static str =
        "groups that never merge, stealing stones from enemy groups of their shape (VASTUZ.md)";

    const OPTION_HELP: &'static [(&'static str, &'static str)] = &[
        (
            "size",
            "points per side of the hexagon, 2..=13 (5 short games, 7 long ones)",
        ),
        (
            "pie",
            "1: White may answer Black's first stone with `swap`; 0: no pie rule",
        ),
    ];

    const COLOURS: [&'static str; 2] = COLOUR_NAMES;

    fn with_gtp<W: GtpWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn with_board_view<W: BoardViewWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn new(options: &VastuzOptions) -> Self {
        Vastuz::new(options)
    }

    fn options(&self) -> &VastuzOptions {
        Vastuz::options(self)
    }

    fn num_actions(&self) -> usize {
        self.geometry().cells() + 2
    }

    fn to_move(&self) -> Side {
        side_of(self.mover())
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        self.point_choices(out);
        if self.pass_legal() {
            out.push(self.pass_action());
        }
        if self.swap_legal() {
            out.push(self.swap_action());
        }
    }

    fn is_legal(&self, action: usize) -> bool {
        let cells = self.geometry().cells();
        match action {
            a if a < cells => self.is_point_choice(a),
            a if a == cells => self.pass_legal(),
            a if a == cells + 1 => self.swap_legal(),
            _ => false,
        }
    }

    fn apply(&mut self, action: usize) {
        debug_assert!(Game::is_legal(self, action), "illegal action {action}");
        self.play_action(action);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner()
            .map(|winner| winner.map_or(Outcome::Draw, |colour| Outcome::Win(side_of(colour))))
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.winner()
            .map(|_| if self.is_full() { "full" } else { "blocked" })
    }

    fn position_text(&self) -> String {
        Vastuz::position_text(self)
    }

    fn from_position_text(options: &VastuzOptions, text: &str) -> Result<Self, String> {
        Vastuz::from_position(options, text).map_err(|e| e.to_string())
    }

    fn result_text(&self) -> Option<String> {
        result_line(self)
    }

    fn hash(&self) -> u64 {
        Vastuz::hash(self)
    }

    fn score(&self, side: Side) -> f32 {
        self.half_scores()[side.index()] as f32 / 2.0
    }

    fn symmetry_count(&self) -> usize {
        SYMMETRIES
    }

    fn transform_action(&self, sym: usize, action: usize) -> usize {
        if action >= self.geometry().cells() {
            return action;
        }
        with_state!(&self.inner, s => s.tables.lattice.map_cell(sym, action))
    }

    fn action_to_string(&self, action: usize) -> String {
        let cells = self.geometry().cells();
        if action == cells {
            return "pass".into();
        }
        if action == cells + 1 {
            return "swap".into();
        }
        if action > cells {
            return format!("action#{action}");
        }
        let name = self.geometry().hex_name(action);
        match self.decision() {
            Decision::Take => format!("+{name}"),
            Decision::Put => format!("-{name}"),
            Decision::Place | Decision::Over => name,
        }
    }

    /// One decision: a placement (`e5`, `pass`, `swap`), a take (`+e5`) or a put (`-e5`).
    fn parse_action(&self, text: &str) -> Result<usize, String> {
        match self.decision() {
            Decision::Over => Err("the game is over".into()),
            Decision::Place if ["pass", "swap"].contains(&text.to_ascii_lowercase().as_str()) => {
                Ok(self.parse_turn(text)?[0])
            }
            Decision::Place => {
                let cell = self.geometry().parse_hex(text).map_err(|e| e.to_string())?;
                self.place_fault(cell).map_or(Ok(cell), Err)
            }
            Decision::Take | Decision::Put => {
                let take = self.decision() == Decision::Take;
                let name = text
                    .strip_prefix(if take { '+' } else { '-' })
                    .unwrap_or(text);
                let cell = self.geometry().parse_hex(name).map_err(|e| e.to_string())?;
                let mut game = self.clone();
                let fault = with_state!(&mut game.inner, s => if take {
                    s.take_fault(cell)
                } else {
                    s.put_fault(cell)
                });
                fault.map_or(Ok(cell), Err)
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<Vec<usize>, String> {
        self.parse_turn(text)
    }

    fn mid_move(&self) -> bool {
        matches!(self.decision(), Decision::Take | Decision::Put)
    }
}
