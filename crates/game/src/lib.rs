//! What every game offers to the rest of the pipeline.
//!
//! Search, the network and the training loop see a game only through these traits, so a new
//! game (a Go variant, Vastuz, ...) plugs in without touching them. Actions are dense indices
//! so that a policy is a plain vector and a network head maps onto it directly.

mod chance;
pub mod conformance;
mod evaluate;
mod gtp;
mod intern;
mod outcome;
mod planes;
pub mod playout;
mod referee;
pub mod rules;
mod sgf_game;
mod side;
pub mod speed;
pub mod vectors;
mod view;

pub use chance::{ChanceStream, draw_outcome, mix64, splitmix64};
pub use evaluate::{DeviceError, Evaluation, Evaluator, Inline, PipelinedEvaluator, ServeError};
pub use gtp::{
    GtpGame, colour_name, final_score_text, parse_colour, resigned_score_text, short_colour,
};
pub use intern::intern;
pub use outcome::Outcome;
pub use planes::{PlaneShape, Planes, PolicyLayout};
pub use referee::{
    Agent, AgentFailure, Automatic, Choice, Ending, Mover, Opening, Played, Referee, play_game,
};
pub use sgf_game::SgfGame;
pub use side::Side;
pub use view::{BoardView, Effect};

use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// An index below `len` (> 0), uniform, drawn as a uniform pick from a slice of `len` items
/// draws it (`rand`'s `IndexedRandom::choose`): what [`Game::random_legal_action`]'s
/// overrides use to pick what the listed actions' pick would.
pub fn uniform_pick<R: rand::Rng + ?Sized>(rng: &mut R, len: usize) -> usize {
    rng.random_range(..len)
}

/// A two-player, turn-based game state, with chance events where the game has them.
///
/// A position is either a side's decision or chance's ([`Game::is_chance`]): a roll of the
/// dice is an action like any other, drawn with exact probabilities
/// ([`Game::chance_outcomes`], as OpenSpiel's `ChanceOutcomes()`), so a game with dice is
/// still a list of actions that replays deterministically.
///
/// A state holds the whole truth. Where a side may not see all of it (Fakerghast's face-down
/// tiles), the game says so with [`Game::HIDDEN_INFORMATION`], its planes show the side to
/// move only what it knows, and search runs on [`Game::sample_hidden`]'s sample, never on the
/// truth.
///
/// Implementations must make `apply` cheap and allocation-free: search calls it millions of
/// times a second. Everything a rule needs (repetition history, pending decisions) lives in the
/// state, so cloning a state and applying actions to the clone never disturbs the original.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// The parameters of a game (board size, komi, ...), stored in game records and checkpoint
    /// sidecars so that a model and its data always state which game they belong to. A serde
    /// struct that refuses unknown keys and checks its values as it is read: its fields are
    /// the game's rules ([`rules`]), its `Default` the game when no rule is given.
    type Options: Clone
        + Debug
        + Default
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;

    /// The game's name, stored with checkpoints and replay shards and checked when they are
    /// read, so that a model or a record of one game is never used for another.
    const NAME: &'static str;

    /// The game's name as people write it, for page titles (`Ghost Chess`); by default
    /// [`Game::NAME`].
    const TITLE: &'static str = Self::NAME;

    /// What the game is, in one line (`ghast games` shows it).
    const ABOUT: &'static str = "";

    /// One line on each option, `(key, meaning)`, in the options' order: `ghast games` and
    /// the errors that list a game's rules show them.
    const OPTION_HELP: &'static [(&'static str, &'static str)] = &[];

    /// The names of the first and the second side (`orange`/`blue`, `black`/`white`), as
    /// records, tables, GTP and the page call them.
    const COLOURS: [&'static str; 2] = ["first", "second"];

    /// Whether chance decides some positions ([`Game::is_chance`]).
    const CHANCE: bool = false;

    /// The fixed opponents that `ghast ladder` rates a run's generations against unless
    /// told otherwise, as `ghast arena` player specs, weakest first. The last is the
    /// strongest independent player the game has: once the generations beat the weaker ones
    /// in every game, only it still tells them apart, so the ratings do not flatten.
    const LADDER_BASELINES: &'static [&'static str] =
        &["random", "greedy", "uct:1000", "uct:10000"];

    /// The fixed opponents that `ghast ladder --bot DIR --levels` rates a bundle's levels of
    /// play against unless told otherwise, as `ghast arena` player specs, weakest first and
    /// spaced closely enough that every level, from nearly random to full strength, finds
    /// one near it: a level is placed by the games against its nearest anchors.
    const LEVEL_ANCHORS: &'static [&'static str] = &[
        "random",
        "greedy",
        "uct:100",
        "uct:1000",
        "uct:10000",
        "uct:100000",
    ];

    /// The opponents `ghast bench learning` rates a run's bot against unless told otherwise,
    /// as `ghast arena` player specs: the strongest independent players the game has, at
    /// strengths that tell good bots apart, as the strength goals are set against them.
    const STRONGEST_OPPONENTS: &'static [&'static str] = &["uct:10000"];

    /// Whether a side may not see part of the state. Search then samples the hidden part
    /// afresh from the true state before every search and never keeps a tree from one move
    /// to the next, whose positions would carry an old sample.
    const HIDDEN_INFORMATION: bool = false;

    /// The start position for these options.
    fn new(options: &Self::Options) -> Self;

    /// Replaces what the side to move cannot know (which tile of each opponent pair is real)
    /// by a sample drawn from `seed`, consistent with everything that side has seen. Two
    /// states that differ only in what the side to move cannot know become the same state.
    /// A game without hidden information has nothing to replace.
    fn sample_hidden(&mut self, seed: u64) {
        let _ = seed;
    }

    fn options(&self) -> &Self::Options;

    /// Size of the dense action space of the sides' decisions, the policy's size; fixed for
    /// one set of options. Chance's outcomes ([`Game::chance_outcomes`]) are numbered apart
    /// and may reach beyond it (Qast's 243 rolls against 51 decision actions).
    fn num_actions(&self) -> usize;

    /// The side that chooses the next action (for Ghast this includes the side answering a
    /// veto request). At a chance position, the side whose turn it is: the one whose
    /// planes and score views the position is read from, though chance decides.
    fn to_move(&self) -> Side;

    /// Whether the next action is chance's rather than a side's: an outcome drawn with the
    /// probabilities of [`Game::chance_outcomes`]. No side decides there, so search never
    /// asks a network about such a position, and it is never a policy target.
    fn is_chance(&self) -> bool {
        false
    }

    /// At a chance position, its outcomes as `(action, probability)`, the exact probabilities
    /// summing to one, in a fixed order (written into `out`, cleared first); nothing
    /// elsewhere. An outcome's action means what this position says: it may share its number
    /// with a decision's action elsewhere, or exceed [`Game::num_actions`]; what reads an
    /// action (`transform_action`, `action_to_string`) reads it in the position it is played
    /// from.
    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>) {
        out.clear();
    }

    /// Writes the legal actions into `out` (cleared first): at a chance position, the
    /// outcomes. Empty only when the game is over.
    fn legal_actions(&self, out: &mut Vec<usize>);

    /// A side's legal action drawn uniformly at random with `rng`: the one a uniform pick
    /// from [`Game::legal_actions`] would draw with the same `rng` ([`uniform_pick`]), so a
    /// playout goes the same way whichever a game implements. Random playouts (UCT's
    /// evaluator, `ghast bench rules`) spend most of their time here: a game whose legal
    /// actions are a product of bit sets overrides it to draw one without listing them all.
    /// `scratch` is the list's space for the default. Not at a chance position, nor once the
    /// game is over.
    fn random_legal_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<usize>,
    ) -> usize {
        self.legal_actions(scratch);
        assert!(!scratch.is_empty(), "an unfinished game has legal actions");
        scratch[uniform_pick(rng, scratch.len())]
    }

    fn is_legal(&self, action: usize) -> bool;

    /// Whether the legal `action` can only hurt its mover, so that a search may leave it out
    /// (the search setting `skip_futile`): in Go, filling one's own true eye. The rules still
    /// allow it. None, unless a game says otherwise.
    fn is_futile(&self, _action: usize) -> bool {
        false
    }

    /// Plays `action`, which must be legal (checked in debug builds only: the hot path trusts
    /// its caller; text input goes through [`Game::parse_action`] first).
    fn apply(&mut self, action: usize);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Why the game ended, in the game's own words (for Ghast `margin`, `passes`,
    /// `repetition`, `limit`); `None` while it goes on. Game records and training curves
    /// report the mix of endings.
    fn end_reason(&self) -> Option<&'static str> {
        self.outcome().map(|_| "ended")
    }

    /// The position in the game's text notation, as stored in game records.
    fn position_text(&self) -> String {
        format!("{self:?}")
    }

    /// Reads a position string (the game's notation, as [`Game::position_text`] writes it)
    /// under `options`: where `ghast replay --from` and GTP's `ghast-set_position` start. A game
    /// without position strings refuses every text, saying so.
    fn from_position_text(options: &Self::Options, text: &str) -> Result<Self, String> {
        let _ = (options, text);
        Err(format!("{} reads no position strings", Self::NAME))
    }

    /// The position as `viewer` may see it: all of it in a game without hidden information;
    /// in Fakerghast, the opponent's pairs without which tile is real.
    fn position_seen_by(&self, viewer: Side) -> String {
        let _ = viewer;
        self.position_text()
    }

    /// The result in the game's replay notation (the text after `result ` in
    /// `ghast replay`'s last line); `None` while the game goes on. By default the winner as
    /// `first`, `second` or `draw`, then the end reason.
    fn result_text(&self) -> Option<String> {
        let winner = match self.outcome()? {
            Outcome::Win(Side::First) => "first",
            Outcome::Win(Side::Second) => "second",
            Outcome::Draw => "draw",
        };
        Some(format!("{winner} {}", self.end_reason().unwrap_or("ended")))
    }

    /// A hash of everything that decides the future of the game from here (board, side to
    /// move, pending decisions); used for transpositions and repetition.
    fn hash(&self) -> u64;

    /// The current score of `side` (for Ghast: tiles on the board, plus komi for Blue). Used
    /// by the greedy baseline and as the network's auxiliary "final lead" target.
    fn score(&self, side: Side) -> f32;

    /// `side`'s score minus the other side's: the score lead the network predicts, the
    /// baselines maximise and a search may read off a leaf.
    fn score_lead(&self, side: Side) -> f32 {
        self.score(side) - self.score(side.other())
    }

    /// How many symmetries the game has for these options; symmetry 0 is the identity.
    fn symmetry_count(&self) -> usize;

    /// Where `action` goes under symmetry `sym`.
    fn transform_action(&self, sym: usize, action: usize) -> usize;

    /// The action in the game's text notation (for Ghast `f6:3`, `pass`, `accept`, `veto`).
    fn action_to_string(&self, action: usize) -> String;

    /// Parses an action in text notation and checks that it is legal here; the error says
    /// why not in words a user understands.
    fn parse_action(&self, text: &str) -> Result<usize, String>;

    /// Parses a move as players write it and checks that it is legal here: the actions it is
    /// made of, in order (Fakerghast's `f6:3+g7:1` is two; in most games a move is one
    /// action).
    fn parse_move(&self, text: &str) -> Result<Vec<usize>, String> {
        Ok(vec![self.parse_action(text)?])
    }

    /// Whether the side to move is in the middle of a move made of several actions and goes
    /// on with it (Fakerghast: a real tile chosen, its fake not yet). A move as players write
    /// it ends where this is false.
    fn mid_move(&self) -> bool {
        false
    }

    /// The move made of `actions`, played from `before` to give `after`, as `viewer` is told
    /// it: in full to the side that made it; to the other side, in a game with hidden
    /// information, its public form (Fakerghast: a pair's two tiles, not which is real, and
    /// the real tiles its turn revealed). By default the actions' text, the same for both.
    fn told_move(before: &Self, actions: &[usize], after: &Self, viewer: Side) -> String {
        let _ = (after, viewer);
        let mut game = before.clone();
        let mut text = String::new();
        for &action in actions {
            text.push_str(&game.action_to_string(action));
            game.apply(action);
        }
        text
    }

    /// Runs `work` if the game speaks GTP; `None` if it does not. A game that implements
    /// [`GtpGame`] writes `Some(work.run())` here.
    fn with_gtp<W: GtpWork<Self>>(work: W) -> Option<W::Output> {
        let _ = work;
        None
    }

    /// Runs `work` if the game has a page ([`BoardView`]); `None` if it does not. A game that
    /// implements [`BoardView`] writes `Some(work.run())` here.
    fn with_board_view<W: BoardViewWork<Self>>(work: W) -> Option<W::Output> {
        let _ = work;
        None
    }

    /// Runs `work` if SGF writes the game's records ([`SgfGame`]); `None` if it does not. A
    /// game that implements [`SgfGame`] writes `Some(work.run())` here.
    fn with_sgf<W: SgfWork<Self>>(work: W) -> Option<W::Output> {
        let _ = work;
        None
    }

    /// Plays a move in the form [`Game::told_move`] writes it for this side, checked first:
    /// an illegal or malformed one changes nothing. Returns the actions played. A program
    /// that holds only its own view (a GTP engine) keeps up with the game this way.
    fn play_told(&mut self, text: &str) -> Result<Vec<usize>, String> {
        let actions = self.parse_move(text)?;
        for &action in &actions {
            self.apply(action);
        }
        Ok(actions)
    }
}

/// A capability a game may have beyond its rules and planes: speaking GTP, drawing itself
/// on the page, or writing its records as SGF. Rust cannot ask a type whether it implements
/// a trait, so a game that does says so by running the work it is handed with the trait
/// known ([`Game::with_gtp`], [`Game::with_board_view`], [`Game::with_sgf`]); one that does
/// not leaves the default, which declines.
pub trait GtpWork<G: Game> {
    type Output;

    fn run(self) -> Self::Output
    where
        G: GtpGame;
}

/// Work that needs the game's page ([`BoardView`]); see [`GtpWork`].
pub trait BoardViewWork<G: Game> {
    type Output;

    fn run(self) -> Self::Output
    where
        G: BoardView;
}

/// Work that needs the game's SGF ([`SgfGame`]); see [`GtpWork`].
pub trait SgfWork<G: Game> {
    type Output;

    fn run(self) -> Self::Output
    where
        G: SgfGame;
}

/// The moves of a game played from `start` by `actions`, each in full as its mover writes it
/// ([`Game::told_move`]): what records store and `ghast replay` reads.
pub fn moves_in_full<G: Game>(start: &G, actions: &[usize]) -> Vec<String> {
    told_moves(start, actions, None)
}

/// The whole moves of a game played from `start` by `actions`, as `viewer` is told them
/// ([`Game::told_move`]), or each in full to its mover with no viewer. A move still in
/// progress at the end is left out.
pub fn told_moves<G: Game>(start: &G, actions: &[usize], viewer: Option<Side>) -> Vec<String> {
    let mut moves = Vec::new();
    for_each_move(start, actions, |played| {
        moves.push(match viewer {
            Some(viewer) => played.told_to(viewer),
            None => played.in_full(),
        });
    });
    moves
}

/// The whole moves of a game played from `start` by `actions`: who made each, and the range
/// of its actions. A move still in progress at the end is left out.
pub fn whole_moves<G: Game>(start: &G, actions: &[usize]) -> Vec<(Mover, std::ops::Range<usize>)> {
    let mut moves = Vec::new();
    let mut end = 0;
    for_each_move(start, actions, |played| {
        let first = end;
        end += played.actions.len();
        moves.push((played.mover, first..end));
    });
    moves
}

/// Replays `actions` (legal, as a game played them) from `start` through a referee, handing
/// each whole move to `f` as it ends.
fn for_each_move<G: Game>(start: &G, actions: &[usize], mut f: impl FnMut(&Played<'_, G>)) {
    let mut referee = Referee::new(start.clone());
    for &action in actions {
        referee
            .play(action)
            .expect("the actions of a game that was played are legal");
        if let Some(played) = referee.last_move() {
            f(&played);
        }
    }
}
