//! `game::Game` for [`Ghodak`]: actions are the points in row-major order, then pass.

use crate::ghodak::Ghodak;
use crate::options::GhodakOptions;
use game::{BoardViewWork, Game, GtpWork, Outcome, SgfWork, Side};

impl Game for Ghodak {
    type Options = GhodakOptions;

    const NAME: &'static str = "ghodak";

    const ABOUT: &'static str = "Go with area scoring, simple ko and no suicide (GHODAK.md)";

    const OPTION_HELP: &'static [(&'static str, &'static str)] = &[
        ("size", "points per side of the board, 5..=19"),
        ("komi", "points added to White's score, a multiple of 0.5"),
        (
            "max_moves",
            "moves, passes included, after which the game is scored (default: 3 times the points)",
        ),
    ];

    const COLOURS: [&'static str; 2] = ["black", "white"];

    /// GNU Go at its default level 10, the yardstick of young Go programs, over the board as
    /// it stands (area scoring, dead stones captured): a ladder leaves it out where `gnugo`
    /// is not on the PATH.
    const LADDER_BASELINES: &'static [&'static str] = &[
        "random",
        "uct:1000",
        "gtp:gnugo --mode gtp --chinese-rules --capture-all-dead --level 10",
    ];

    /// Random play, then GNU Go from its weakest level to its default, then Pachi at 10,000
    /// playouts: the levels of a 9x9 bot run from a beginner's to above GNU Go. The engines
    /// are left out where they are not installed.
    const LEVEL_ANCHORS: &'static [&'static str] = &[
        "random",
        "uct:1000",
        "gtp:gnugo --mode gtp --chinese-rules --capture-all-dead --level 0",
        "gtp:gnugo --mode gtp --chinese-rules --capture-all-dead --level 5",
        "gtp:gnugo --mode gtp --chinese-rules --capture-all-dead --level 10",
        "gtp:.tools/pachi/bin/pachi -r chinese -t =10000 -s 1 threads=1,pass_all_alive",
    ];

    /// GNU Go at level 10, and Pachi 11.99 at 10,000 playouts a move (built by
    /// scripts/setup-engines.sh into .tools/pachi, a path from the repository's root): the
    /// yardsticks of the 9x9 goals.
    const STRONGEST_OPPONENTS: &'static [&'static str] = &[
        "gtp:gnugo --mode gtp --chinese-rules --capture-all-dead --level 10",
        "gtp:.tools/pachi/bin/pachi -r chinese -t =10000 -s 1 threads=1,pass_all_alive",
    ];

    fn with_gtp<W: GtpWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn with_board_view<W: BoardViewWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn with_sgf<W: SgfWork<Self>>(work: W) -> Option<W::Output> {
        Some(work.run())
    }

    fn new(options: &GhodakOptions) -> Self {
        Ghodak::new(options)
    }

    fn options(&self) -> &GhodakOptions {
        Ghodak::options(self)
    }

    fn num_actions(&self) -> usize {
        self.options().points() + 1
    }

    fn to_move(&self) -> Side {
        Ghodak::to_move(self)
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let points = self.options().points();
        out.extend((0..points).filter(|&point| self.is_legal_placement(point)));
        out.push(points);
    }

    fn is_legal(&self, action: usize) -> bool {
        let points = self.options().points();
        match action.cmp(&points) {
            std::cmp::Ordering::Less => self.is_legal_placement(action),
            std::cmp::Ordering::Equal => !self.is_over(),
            std::cmp::Ordering::Greater => false,
        }
    }

    fn is_futile(&self, action: usize) -> bool {
        action < self.options().points() && self.is_own_true_eye(action)
    }

    fn apply(&mut self, action: usize) {
        debug_assert!(Game::is_legal(self, action), "illegal action {action}");
        if action == self.options().points() {
            self.pass();
        } else {
            self.place(action);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result().map(|result| result.outcome)
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.result().map(|result| result.reason.name())
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn from_position_text(options: &GhodakOptions, text: &str) -> Result<Self, String> {
        Ghodak::from_position_str(options, text).map_err(|e| e.to_string())
    }

    fn hash(&self) -> u64 {
        Ghodak::hash(self)
    }

    fn score(&self, side: Side) -> f32 {
        self.half_scores()[side.index()] as f32 / 2.0
    }

    /// The 8 rotations and reflections of the square.
    fn symmetry_count(&self) -> usize {
        8
    }

    /// Bit 2 transposes, bit 0 mirrors the columns, bit 1 the rows: together the 8 elements
    /// of the square's symmetry group, with 0 the identity.
    fn transform_action(&self, sym: usize, action: usize) -> usize {
        let size = self.options().size();
        if action >= size * size {
            return action;
        }
        let (mut row, mut column) = (action / size, action % size);
        if sym & 4 != 0 {
            std::mem::swap(&mut row, &mut column);
        }
        if sym & 1 != 0 {
            column = size - 1 - column;
        }
        if sym & 2 != 0 {
            row = size - 1 - row;
        }
        row * size + column
    }

    fn action_to_string(&self, action: usize) -> String {
        let points = self.options().points();
        match action.cmp(&points) {
            std::cmp::Ordering::Less => self.name(action),
            std::cmp::Ordering::Equal => "pass".to_string(),
            std::cmp::Ordering::Greater => format!("action#{action}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        let point = self.parse_move(text).map_err(|error| error.to_string())?;
        Ok(point.unwrap_or(self.options().points()))
    }

    fn result_text(&self) -> Option<String> {
        self.result().map(|result| result.to_string())
    }
}
