//! One referee for every game between two agents: self-play, the arena (in process and over
//! GTP), `ghast gtp`, `ghast serve`. It holds the true position, asks the side to move,
//! draws chance's outcomes, gathers a move of several actions, knows where each whole move
//! begins and ends, and tells each side only what it may see ([`Game::told_move`]).
//! KataGo's game runner is the model.

use crate::{ChanceStream, DeviceError, Game, Outcome, Side};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// What an agent decided on its turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Play(usize),
    Resign,
}

/// Why an agent could not go on with a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentFailure {
    /// The agent failed in this game (an engine crashed, answered nonsense, played an
    /// illegal move): the game is lost by that agent, and a match goes on.
    Lost(String),
    /// The device the agent's network runs on failed: no game played on it can go on, so
    /// whoever runs the game stops and says so.
    Device(DeviceError),
}

impl fmt::Display for AgentFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentFailure::Lost(why) => f.write_str(why),
            AgentFailure::Device(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for AgentFailure {}

impl From<DeviceError> for AgentFailure {
    fn from(error: DeviceError) -> Self {
        AgentFailure::Device(error)
    }
}

/// One side of a game, as the referee sees it: an in-process player or an external engine.
/// Every call may fail, and a failure loses the game for that agent instead of stopping a
/// match, unless it is the failure of a device ([`AgentFailure::Device`]).
pub trait Agent<G: Game> {
    /// A new game with `options` starts, the agent playing `side`.
    fn new_game(&mut self, options: &G::Options, side: Side) -> Result<(), AgentFailure>;

    /// The agent's next action in `game`, which goes on and has the agent to decide: one
    /// action of its move (a move of several actions is asked for action by action).
    fn choose(&mut self, game: &G) -> Result<Choice, AgentFailure>;

    /// `action` was played, by either side or by chance, openings included: for agents that
    /// follow the game action by action (a search keeping its tree). An agent hears its own
    /// actions as soon as they are played, the other side's and chance's once their move is
    /// whole.
    fn observe_action(&mut self, action: usize) -> Result<(), AgentFailure> {
        let _ = action;
        Ok(())
    }

    /// Whether the agent decides whole moves only, every decision of its move included, even
    /// one the rules give the opponent (a GTP engine answers `genmove` with a whole Ghost
    /// Chess turn, and hears the opponent's turns whole). In a game with such an agent, the
    /// side that begins a move decides all of it.
    fn whole_moves(&self) -> bool {
        false
    }

    /// A whole move was played: for agents that are told whole moves in the form their side
    /// may see them ([`Played::told_to`]), such as a GTP engine.
    fn observe_move(&mut self, played: &Played<'_, G>) -> Result<(), AgentFailure> {
        let _ = played;
        Ok(())
    }
}

/// Who made a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mover {
    Side(Side),
    Chance,
}

/// A whole move: its actions (one in most games; a Fakerghast pair is two; a chance outcome is
/// one), played from `before` to give `after`.
#[derive(Debug)]
pub struct Played<'a, G> {
    pub mover: Mover,
    pub before: &'a G,
    pub actions: &'a [usize],
    pub after: &'a G,
}

impl<G: Game> Played<'_, G> {
    /// The move as `viewer` is told it: in full to its mover, in public form to the other
    /// side of a game with hidden information.
    pub fn told_to(&self, viewer: Side) -> String {
        G::told_move(self.before, self.actions, self.after, viewer)
    }

    /// The move in full, as records store it and `ghast replay` reads it.
    pub fn in_full(&self) -> String {
        let viewer = match self.mover {
            Mover::Side(side) => side,
            Mover::Chance => self.before.to_move(),
        };
        self.told_to(viewer)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    pub outcome: Outcome,
    /// The rules' end reason (`margin`, `passes`, ...), or `resign` or `forfeit`.
    pub reason: String,
    /// Why an agent forfeited (crashed, refused a move, played an illegal one).
    pub forfeit: Option<String>,
}

/// How a game is opened: `actions` uniformly random decisions drawn from `seed`, never one
/// that ends the game, then as many more as finish the move under way, so that every side is
/// told whole moves. Chance's outcomes in between come from the game's chance stream and do
/// not count. Two games with the same opening and chance seeds open alike. The referee plays
/// it ([`Referee::play_automatic`]), for the arena and self-play alike.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub actions: usize,
    pub seed: u64,
}

impl Opening {
    pub const NONE: Opening = Opening {
        actions: 0,
        seed: 0,
    };
}

/// An action the referee played without asking a side ([`Referee::play_automatic`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Automatic {
    /// Chance's outcome.
    Chance(usize),
    /// A random decision of the game's [`Opening`].
    Opening(usize),
    /// The one legal decision of the side to decide, where the referee plays those
    /// ([`Referee::plays_forced_decisions`]).
    Forced(usize),
}

impl Automatic {
    pub fn action(self) -> usize {
        match self {
            Automatic::Chance(action) | Automatic::Opening(action) | Automatic::Forced(action) => {
                action
            }
        }
    }
}

/// The random opening still to play.
#[derive(Clone, Debug)]
struct OpeningLeft {
    decisions: usize,
    picks: ChaCha8Rng,
}

/// A game in progress and its history: the start, every action since (chance's included),
/// and where the move under way began.
///
/// Drivers step a game through it alone: [`play_game`] for two agents, and self-play, whose
/// searches are batched across games and so cannot be agents that answer one at a time. Both
/// take [`Referee::play_automatic`]'s chance, opening (and forced) actions until a side
/// decides, give that side's actions to [`Referee::play`] (or [`Referee::resign`]), and read
/// the result from [`Referee::ending`].
#[derive(Clone, Debug)]
pub struct Referee<G: Game> {
    start: G,
    game: G,
    actions: Vec<usize>,
    /// The position where the last move (whole, or under way) began, and the index of its
    /// first action in `actions`.
    move_start: G,
    move_first: usize,
    /// Whether the last action finished its move (true before any action).
    move_whole: bool,
    /// How many of `actions` opened the game (its random [`Opening`]).
    opening_end: usize,
    /// The opening still to play; `None` once it is over (or if the game has none).
    opening: Option<OpeningLeft>,
    /// Whether [`Referee::play_automatic`] plays decisions that have one legal choice.
    forced: bool,
    /// A resignation or forfeit; the rules' own ending is the game's.
    stopped: Option<Ending>,
    /// How many of `actions` each side's agent has heard ([`Agent::observe_action`]).
    heard: [usize; 2],
    legal: Vec<usize>,
    outcomes: Vec<(usize, f64)>,
}

impl<G: Game> Referee<G> {
    /// A game from `start` (the start position of its options, or any position).
    pub fn new(start: G) -> Self {
        Referee {
            game: start.clone(),
            move_start: start.clone(),
            start,
            actions: Vec::new(),
            move_first: 0,
            move_whole: true,
            opening_end: 0,
            opening: None,
            forced: false,
            stopped: None,
            heard: [0; 2],
            legal: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    /// Opens the game with `opening` ([`Referee::play_automatic`] plays it); before any
    /// action only.
    pub fn with_opening(mut self, opening: Opening) -> Self {
        self.set_opening(opening);
        self
    }

    fn set_opening(&mut self, opening: Opening) {
        assert!(
            opening.actions == 0 || self.actions.is_empty(),
            "an opening opens a game"
        );
        self.opening = (opening.actions > 0).then(|| OpeningLeft {
            decisions: opening.actions,
            picks: ChaCha8Rng::seed_from_u64(opening.seed),
        });
    }

    /// Has [`Referee::play_automatic`] play every decision that has one legal choice (a Qast
    /// stick with no disc to move, the only stone a Vastuz thief may take): self-play's
    /// searches would only confirm them, and they are no policy target. Agents in a match
    /// are asked for them as for any other.
    pub fn plays_forced_decisions(mut self) -> Self {
        self.forced = true;
        self
    }

    /// The position now.
    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn start(&self) -> &G {
        &self.start
    }

    /// Every action played from the start, chance's outcomes included.
    pub fn actions(&self) -> &[usize] {
        &self.actions
    }

    /// The game's history, for reading (undo, the last move shown), not for stepping: each
    /// action played, with the position it was played in, from the start.
    pub fn history(&self) -> impl Iterator<Item = (G, usize)> + '_ {
        let mut position = self.start.clone();
        self.actions.iter().map(move |&action| {
            let before = position.clone();
            position.apply(action);
            (before, action)
        })
    }

    /// The position after the first `actions` actions of [`Referee::actions`] (history, as
    /// [`Referee::history`] reads it).
    pub fn position_after(&self, actions: usize) -> G {
        self.history()
            .nth(actions)
            .map_or_else(|| self.game.clone(), |(position, _)| position)
    }

    /// How many of [`Referee::actions`] were the game's random opening (chance's outcomes
    /// among them included).
    pub fn opening_actions(&self) -> usize {
        self.opening_end
    }

    /// Whether the game is over, by the rules or by a resignation or forfeit.
    pub fn is_over(&self) -> bool {
        self.stopped.is_some() || self.game.outcome().is_some()
    }

    /// How the game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        if let Some(stopped) = &self.stopped {
            return Some(stopped.clone());
        }
        self.game.outcome().map(|outcome| Ending {
            outcome,
            reason: self.game.end_reason().unwrap_or("ended").to_owned(),
            forfeit: None,
        })
    }

    /// The side that decides next: `None` while chance decides, and once the game is over.
    pub fn to_decide(&self) -> Option<Side> {
        (!self.is_over() && !self.game.is_chance()).then(|| self.game.to_move())
    }

    /// Plays `action`; an illegal one (or any action once the game is over) changes nothing
    /// and is an error in words a user understands.
    pub fn play(&mut self, action: usize) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".to_owned());
        }
        if !self.game.is_legal(action) {
            return Err(format!(
                "`{}` is illegal here",
                self.game.action_to_string(action)
            ));
        }
        self.begin_action();
        self.game.apply(action);
        self.actions.push(action);
        self.end_action();
        Ok(())
    }

    /// Before an action: a move begins here if the last one was whole.
    fn begin_action(&mut self) {
        if self.move_whole {
            self.move_start.clone_from(&self.game);
            self.move_first = self.actions.len();
        }
    }

    /// After the actions played: whether they finished their move.
    fn end_action(&mut self) {
        self.move_whole = !self.game.mid_move() || self.game.outcome().is_some();
    }

    /// Plays the move `text` in the form [`Game::told_move`] writes it for the side to move
    /// here ([`Game::play_told`]: in a game with hidden information, a side learns from it
    /// what it is told), checked first: an illegal or malformed one changes nothing. Returns
    /// its actions.
    pub fn play_told(&mut self, text: &str) -> Result<Vec<usize>, String> {
        if self.is_over() {
            return Err("the game is over".to_owned());
        }
        self.begin_action();
        let actions = self.game.play_told(text)?;
        self.actions.extend_from_slice(&actions);
        self.end_action();
        Ok(actions)
    }

    /// The last whole move, if the last action finished one.
    pub fn last_move(&self) -> Option<Played<'_, G>> {
        if !self.move_whole || self.actions.is_empty() {
            return None;
        }
        let mover = if self.move_start.is_chance() {
            Mover::Chance
        } else {
            Mover::Side(self.move_start.to_move())
        };
        Some(Played {
            mover,
            before: &self.move_start,
            actions: &self.actions[self.move_first..],
            after: &self.game,
        })
    }

    /// If chance decides now, draws its outcome from `stream`, plays it and returns it (it is
    /// a whole move by itself: see [`Referee::last_move`]).
    fn draw_chance(&mut self, stream: &mut ChanceStream) -> Option<usize> {
        if self.is_over() || !self.game.is_chance() {
            return None;
        }
        let action = stream.draw(&self.game, &mut self.outcomes);
        self.play(action).expect("a chance outcome is legal");
        Some(action)
    }

    /// Plays the next action no side decides, if there is one: chance's outcome (drawn from
    /// `chance`), a decision of the opening, or (where asked for) a forced decision. Returns
    /// it, or `None` once a side decides or the game is over. A driver calls it until `None`
    /// after every action of a side's and at the start.
    pub fn play_automatic(&mut self, chance: &mut ChanceStream) -> Option<Automatic> {
        if let Some(outcome) = self.draw_chance(chance) {
            return Some(Automatic::Chance(outcome));
        }
        if self.is_over() {
            return None;
        }
        if let Some(action) = self.next_opening_action() {
            self.play(action).expect("an opening action is legal");
            return Some(Automatic::Opening(action));
        }
        if self.forced {
            self.game.legal_actions(&mut self.legal);
            if let [forced] = self.legal[..] {
                self.play(forced).expect("the one legal action");
                return Some(Automatic::Forced(forced));
            }
        }
        None
    }

    /// The opening's next decision, while decisions of it are left or the move it ends in is
    /// under way: uniformly random among those that do not end the game. Once the opening is
    /// over (or every decision would end the game) it ends here, and `None`.
    fn next_opening_action(&mut self) -> Option<usize> {
        let opening = self.opening.as_mut()?;
        if opening.decisions > 0 || self.game.mid_move() {
            self.game.legal_actions(&mut self.legal);
            let game = &self.game;
            let mut after = game.clone();
            self.legal.retain(|&action| {
                after.clone_from(game);
                after.apply(action);
                after.outcome().is_none()
            });
            if let Some(&action) = self.legal.choose(&mut opening.picks) {
                opening.decisions = opening.decisions.saturating_sub(1);
                return Some(action);
            }
        }
        self.opening = None;
        self.opening_end = self.actions.len();
        None
    }

    /// Asks `agent`, whose side decides now, for actions until its move is whole or the other
    /// side decides within it (a Ghost Chess turn whose follow-up is the opponent's), plays
    /// them and tells `agent` each one ([`Referee::last_move`] is then that move, if whole).
    /// A resignation ends the game (and returns [`Choice::Resign`]); an illegal action is the
    /// agent's failure. The agent first hears what it has not heard of the move under way.
    pub fn take_move<'a>(
        &mut self,
        agent: &mut (dyn Agent<G> + 'a),
    ) -> Result<Choice, AgentFailure> {
        let side = self.to_decide().expect("a side decides");
        self.take_actions(side, agent, false)
    }

    /// Asks `agent` for every action of the move under way until it is whole, whichever side
    /// decides each: one engine answering for a whole turn (`genmove` in a game whose turn
    /// has the opponent's follow-ups), which hears each action as it plays it. The other
    /// side's agent hears none of them here: it catches up once the move is whole.
    pub fn take_whole_move<'a>(
        &mut self,
        agent: &mut (dyn Agent<G> + 'a),
    ) -> Result<Choice, AgentFailure> {
        let seat = self.to_decide().expect("a side decides");
        self.take_actions(seat, agent, true)
    }

    /// Asks `agent`, the agent of `seat`, for actions while `seat` decides (or, with
    /// `whole_move`, until the move is whole, whoever decides), playing and telling it each
    /// one. What the agent has heard is counted under `seat`, the side it plays, never under
    /// the side whose decision it answered: otherwise the opponent's agent would be taken to
    /// have heard those actions and would never be told them.
    fn take_actions<'a>(
        &mut self,
        seat: Side,
        agent: &mut (dyn Agent<G> + 'a),
        whole_move: bool,
    ) -> Result<Choice, AgentFailure> {
        if !self.move_whole {
            self.catch_up(seat, agent)?;
        }
        loop {
            let action = match agent.choose(&self.game)? {
                Choice::Resign => {
                    self.resign(seat);
                    return Ok(Choice::Resign);
                }
                Choice::Play(action) => action,
            };
            let text = self.game.action_to_string(action);
            self.play(action)
                .map_err(|_| AgentFailure::Lost(format!("played the illegal move `{text}`")))?;
            agent.observe_action(action)?;
            self.heard[seat.index()] = self.actions.len();
            if self.move_whole || (!whole_move && self.to_decide() != Some(seat)) {
                return Ok(Choice::Play(action));
            }
        }
    }

    /// Tells `side`'s agent the actions of the last move (whole or under way) it has not
    /// heard yet, in order.
    fn catch_up<'a>(
        &mut self,
        side: Side,
        agent: &mut (dyn Agent<G> + 'a),
    ) -> Result<(), AgentFailure> {
        let heard = &mut self.heard[side.index()];
        *heard = (*heard).max(self.move_first);
        for &action in &self.actions[*heard..] {
            agent.observe_action(action)?;
        }
        *heard = self.actions.len();
        Ok(())
    }

    /// `side` resigns: the other side wins.
    pub fn resign(&mut self, side: Side) {
        self.stop(side, "resign", None);
    }

    /// `side` cannot go on (`why`): the other side wins.
    pub fn forfeit(&mut self, side: Side, why: String) {
        self.stop(side, "forfeit", Some(why));
    }

    fn stop(&mut self, side: Side, reason: &str, forfeit: Option<String>) {
        if self.is_over() {
            return;
        }
        self.stopped = Some(Ending {
            outcome: Outcome::Win(side.other()),
            reason: reason.to_owned(),
            forfeit,
        });
    }
}

/// Plays a game between `agents` (the first side's, then the second's) to its end: `opening`
/// first, chance's outcomes drawn from `chance`, each move told to both agents. An agent that
/// fails loses. Returns the ending; the moves are in `referee`. A failed device ends the game
/// unfinished, with its error: it is no loss of the agent's.
pub fn play_game<'a, G: Game>(
    referee: &mut Referee<G>,
    mut agents: [&mut (dyn Agent<G> + 'a); 2],
    opening: Opening,
    chance: &mut ChanceStream,
) -> Result<Ending, DeviceError> {
    match run_game(referee, &mut agents, opening, chance) {
        Ok(()) => {}
        Err((side, AgentFailure::Lost(why))) => referee.forfeit(side, why),
        Err((_, AgentFailure::Device(error))) => return Err(error),
    }
    Ok(referee.ending().expect("a game played to its end"))
}

/// The game loop; an error names the side that failed.
fn run_game<'a, G: Game>(
    referee: &mut Referee<G>,
    agents: &mut [&mut (dyn Agent<G> + 'a); 2],
    opening: Opening,
    chance: &mut ChanceStream,
) -> Result<(), (Side, AgentFailure)> {
    for side in Side::BOTH {
        agents[side.index()]
            .new_game(referee.game().options(), side)
            .map_err(|why| (side, why))?;
    }
    referee.set_opening(opening);
    let whole_moves = agents.iter().any(|agent| agent.whole_moves());
    while !referee.is_over() {
        if referee.play_automatic(chance).is_some() {
            tell(referee, agents)?;
            continue;
        }
        let side = referee.to_decide().expect("a side decides");
        let agent = &mut *agents[side.index()];
        let choice = if whole_moves {
            referee.take_whole_move(agent)
        } else {
            referee.take_move(agent)
        }
        .map_err(|why| (side, why))?;
        if let Choice::Play(_) = choice {
            tell(referee, agents)?;
        }
    }
    Ok(())
}

/// Tells the agents what the last action did, once its move is whole: each agent the actions
/// it has not heard (the other side's, chance's; its own it heard as it played them), then the
/// whole move. Nothing while a move is under way.
fn tell<'a, G: Game>(
    referee: &mut Referee<G>,
    agents: &mut [&mut (dyn Agent<G> + 'a); 2],
) -> Result<(), (Side, AgentFailure)> {
    if referee.last_move().is_none() {
        return Ok(());
    }
    for side in Side::BOTH {
        let agent = &mut *agents[side.index()];
        referee.catch_up(side, agent).map_err(|why| (side, why))?;
        let played = referee.last_move().expect("a whole move");
        agent.observe_move(&played).map_err(|why| (side, why))?;
    }
    Ok(())
}
