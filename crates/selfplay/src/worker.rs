use crate::SelfplayConfig;
use crate::game_in_flight::GameInFlight;
use crate::resign_calibration::ResignCalibration;
use game::{ChanceStream, Game, Outcome, Referee};
use mcts::{Batch, PipelinedEvaluator, ResignRule, Tree};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replay::{GameRecord, MoveRecord, ResignPlaythrough};
use std::ops::Range;

/// Plays `games_in_flight` games at once, split into `batches_in_flight` lanes of games whose
/// leaves travel together: each step takes one lane's evaluations back, plays a move in every
/// game of it whose search has its budget, walks its trees to their next leaves and sends
/// them, while the other lanes' batches are in flight. With an inference server the worker
/// thus searches while the device evaluates; with one lane it waits for each batch.
///
/// A tree's steps do not depend on which trees share its batch, and each game slot draws from
/// a random stream of its own (openings, chance, which searches are full), so that its games
/// do not depend on when other slots move either: with an evaluator whose answers depend on
/// the position only, the games of a slot are the same however the games are split into lanes. Each game has its referee, which draws
/// chance's outcomes from the game's own seeded stream, so a search never starts at a chance
/// position.
pub struct Worker<G: Game> {
    config: SelfplayConfig,
    options: G::Options,
    trees: Vec<Tree<G>>,
    referees: Vec<Referee<G>>,
    chance: Vec<ChanceStream>,
    games: Vec<GameInFlight>,
    lanes: Vec<Lane<G>>,
    /// The lane the next step takes back.
    next_lane: usize,
    /// Each slot's random stream.
    rngs: Vec<ChaCha8Rng>,
    legal: Vec<usize>,
    generation: u32,
    /// The threshold calibrated from played-through games, where the config asks for it.
    calibration: Option<ResignCalibration>,
}

/// Game slots whose leaves share a batch.
struct Lane<G: Game> {
    slots: Range<usize>,
    batch: Batch<G>,
}

/// What one step did, for throughput figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    /// Positions sent to the evaluator.
    pub evaluations: usize,
    /// Moves played (random opening moves not counted).
    pub moves: usize,
}

impl<G: Game> Worker<G> {
    pub fn new(options: G::Options, config: SelfplayConfig, seed: u64) -> Self {
        let games = config.games_in_flight;
        let mut rngs: Vec<ChaCha8Rng> = (0..games)
            .map(|slot| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(slot as u64);
                rng
            })
            .collect();
        let start = G::new(&options);
        let trees = rngs
            .iter_mut()
            .map(|rng| Tree::new(start.clone(), config.search.clone(), rng.random()))
            .collect();
        let lanes_count = config.batches_in_flight.clamp(1, games.max(1));
        let lanes = (0..lanes_count)
            .map(|lane| Lane {
                slots: lane * games / lanes_count..(lane + 1) * games / lanes_count,
                batch: Batch::new(),
            })
            .collect();
        let games = (0..config.games_in_flight)
            .map(|_| GameInFlight::default())
            .collect();
        let referees = (0..config.games_in_flight)
            .map(|_| Referee::new(start.clone()))
            .collect();
        let chance = (0..config.games_in_flight)
            .map(|_| ChanceStream::new(0))
            .collect();
        let mut worker = Self {
            config,
            options,
            trees,
            referees,
            chance,
            games,
            lanes,
            next_lane: 0,
            rngs,
            legal: Vec::new(),
            generation: 0,
            calibration: None,
        };
        let resign = &worker.config.resign;
        if resign.false_positive_target > 0.0 && resign.consecutive_moves > 0 {
            worker.calibration = Some(ResignCalibration::new(
                resign.false_positive_target,
                resign.threshold,
            ));
        }
        for slot in 0..worker.trees.len() {
            worker.start_game(slot);
        }
        worker
    }

    /// The threshold self-play resigns at now: the configured one, or the calibrated one;
    /// `None` while it never resigns (a calibration still without evidence, or
    /// `consecutive_moves = 0`).
    pub fn resign_threshold(&self) -> Option<f64> {
        match &self.calibration {
            Some(calibration) => calibration.threshold(),
            None => {
                let rule = self.config.resign.rule();
                (!rule.is_never()).then_some(rule.threshold)
            }
        }
    }

    /// The rule a side's would-be resignation is judged by: the configured one, with the
    /// calibrated threshold once there is one. (While a calibration waits for evidence, every
    /// game is played through, so the configured rule only records would-be resignations.)
    fn resign_rule(&self) -> ResignRule {
        let rule = self.config.resign.rule();
        match self
            .calibration
            .as_ref()
            .and_then(ResignCalibration::threshold)
        {
            Some(threshold) => ResignRule { threshold, ..rule },
            None => rule,
        }
    }

    /// The model generation whose evaluator the following steps use; recorded in the games.
    pub fn set_generation(&mut self, generation: u32) {
        self.generation = generation;
    }

    /// One step of one lane (the lanes take turns): its evaluations come back, each of its
    /// games whose search has its budget plays its move, and its next leaves are sent, every
    /// other lane's batch being in flight meanwhile. Games that finish are appended to
    /// `finished` and replaced by new ones.
    pub fn step<E: PipelinedEvaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        finished: &mut Vec<GameRecord>,
    ) -> StepReport {
        for lane in 0..self.lanes.len() {
            if !self.lanes[lane].batch.is_in_flight() {
                self.submit(lane, evaluator);
            }
        }
        let lane = self.next_lane;
        self.next_lane = (lane + 1) % self.lanes.len();
        let evaluations = self.receive(lane, evaluator);
        let mut moves = 0;
        for slot in self.lanes[lane].slots.clone() {
            if !self.trees[slot].is_done() {
                continue;
            }
            moves += 1;
            if let Some(record) = self.play_move(slot) {
                finished.push(record);
                self.start_game(slot);
            }
        }
        self.submit(lane, evaluator);
        StepReport { evaluations, moves }
    }

    /// Takes back every batch in flight (the trees take their evaluations; moves wait for
    /// their lane's next step), so that `evaluator` can be dropped or replaced. Returns the
    /// positions evaluated.
    pub fn drain<E: PipelinedEvaluator<G> + ?Sized>(&mut self, evaluator: &mut E) -> usize {
        let mut evaluations = 0;
        for lane in 0..self.lanes.len() {
            if self.lanes[lane].batch.is_in_flight() {
                evaluations += self.receive(lane, evaluator);
            }
        }
        evaluations
    }

    fn submit<E: PipelinedEvaluator<G> + ?Sized>(&mut self, lane: usize, evaluator: &mut E) {
        let Lane { slots, batch } = &mut self.lanes[lane];
        batch.submit(&mut self.trees[slots.clone()], evaluator);
    }

    fn receive<E: PipelinedEvaluator<G> + ?Sized>(
        &mut self,
        lane: usize,
        evaluator: &mut E,
    ) -> usize {
        let Lane { slots, batch } = &mut self.lanes[lane];
        batch.receive(&mut self.trees[slots.clone()], evaluator)
    }

    /// Plays the searched move of the game in `slot` (or resigns it), then chance's outcomes
    /// up to the next decision; returns its record if the game is over.
    fn play_move(&mut self, slot: usize) -> Option<GameRecord> {
        let rule = self.resign_rule();
        let tree = &mut self.trees[slot];
        let game = &mut self.games[slot];
        let referee = &mut self.referees[slot];
        game.generation = self.generation;
        let mover = referee.game().to_move();
        let root_value = tree.root_value();
        let game_value = tree.root_game_value();
        if self.calibration.is_some() {
            let consecutive_moves = self.config.resign.consecutive_moves;
            game.trigger_levels
                .observe(mover, game_value, consecutive_moves);
        }
        if game.watch.observe(&rule, mover, game_value) {
            if !game.playthrough {
                return Some(game.finish(referee.game(), Outcome::Win(mover.other()), "resign"));
            }
            let move_index = game.moves.len() as u32;
            game.would_have_resigned.get_or_insert(ResignPlaythrough {
                side: mover,
                move_index,
            });
        }
        let (policy, surprise) = if game.full_search {
            let target = tree.policy_target();
            let surprise = tree.policy_surprise(&target);
            (replay::quantise_policy(&target), surprise)
        } else {
            (Vec::new(), 0.0)
        };
        let rng = &mut self.rngs[slot];
        let random = match game.handicap {
            Some((side, rate)) if side == mover => rng.random_bool(rate),
            _ => false,
        };
        let action = if random {
            referee.game().legal_actions(&mut self.legal);
            self.legal[rng.random_range(0..self.legal.len())]
        } else {
            tree.choose_action(self.config.temperature.at(game.decisions))
        };
        game.moves.push(MoveRecord {
            action: action as u32,
            policy,
            root_value,
            full_search: game.full_search,
            surprise,
            chance: false,
        });
        game.decisions += 1;
        referee.play(action).expect("search plays legal moves");
        tree.advance(action);
        // Chance's outcomes, and decisions with one legal choice (a Qast stick with no disc
        // to move, the only stone a Vastuz thief may take): a search would only confirm them,
        // and they are no policy target.
        loop {
            while let Some(outcome) = referee.draw_chance(&mut self.chance[slot]) {
                tree.advance(outcome);
                game.moves.push(MoveRecord::unsearched(outcome, true));
            }
            if let Some(outcome) = referee.game().outcome() {
                let reason = referee.game().end_reason().unwrap_or("ended");
                if let Some(calibration) = &mut self.calibration
                    && game.playthrough
                {
                    calibration.record(game.trigger_levels.verdicts(outcome));
                }
                return Some(game.finish(referee.game(), outcome, reason));
            }
            referee.game().legal_actions(&mut self.legal);
            let [forced] = self.legal[..] else { break };
            referee.play(forced).expect("the one legal action");
            tree.advance(forced);
            game.moves.push(MoveRecord::unsearched(forced, false));
            game.decisions += 1;
        }
        self.prepare_search(slot);
        None
    }

    /// Starts a new game in `slot`, opened by a few uniformly random decisions (chance's
    /// outcomes drawn as in the rest of the game).
    fn start_game(&mut self, slot: usize) {
        let start = G::new(&self.options);
        let rng = &mut self.rngs[slot];
        let opening_moves = rng.random_range(0..=self.config.random_opening_moves);
        let chance_seed = rng.random();
        let referee = &mut self.referees[slot];
        let chance = &mut self.chance[slot];
        *chance = ChanceStream::new(chance_seed);
        *referee = Referee::new(start.clone());
        let legal = &mut self.legal;
        let (mut opening, mut decisions) = open(referee, chance, rng, legal, opening_moves);
        if referee.is_over() {
            // An opening this short never ends a sane game; start from the beginning then
            // (chance first, should the game begin with it).
            *referee = Referee::new(start);
            (opening, decisions) = open(referee, chance, rng, legal, 0);
        }
        self.trees[slot].reset(referee.game());
        let handicap = &self.config.handicap;
        let handicap = handicap
            .side
            .side()
            .filter(|_| rng.random_bool(handicap.games))
            .map(|side| {
                let [least, most] = handicap.random_decisions;
                (side, rng.random_range(least..=most))
            });
        // Both sides' searches expect the handicapped side's random decisions (its own
        // search too, for its later decisions): the game's true dynamics.
        self.trees[slot].expect_erratic(handicap.map(|(side, rate)| (side, rate as f32)));
        self.games[slot] = GameInFlight {
            moves: opening,
            decisions,
            // Without a calibrated threshold yet, nothing resigns: every game is evidence.
            playthrough: rng.random_bool(self.config.resign.playthrough_fraction)
                || self
                    .calibration
                    .as_ref()
                    .is_some_and(|calibration| calibration.threshold().is_none()),
            generation: self.generation,
            handicap,
            ..GameInFlight::default()
        };
        self.prepare_search(slot);
    }

    /// Draws whether the next search of `slot` is full or cheap and sets its budget.
    fn prepare_search(&mut self, slot: usize) {
        let full = self.rngs[slot].random_bool(self.config.full_search_probability);
        let visits = if full {
            self.config.full_visits
        } else {
            self.config.cheap_visits
        };
        let tree = &mut self.trees[slot];
        // Visits kept from the previous move's search count towards the budget (KataGo).
        tree.set_budget(visits);
        // Gumbel noise is how Gumbel search samples its move, so every search keeps it;
        // Dirichlet noise only makes a full search's target explore.
        let gumbel = self.config.search.formula == mcts::Formula::Gumbel;
        tree.set_root_noise((full || gumbel) && self.config.search.root_noise);
        self.games[slot].full_search = full;
    }
}

/// Plays `decisions` uniformly random decisions (`legal` is scratch) from `referee`'s position,
/// each with chance's outcomes before it and after the last, fewer if the game ends; returns
/// their records and how many decisions were played.
fn open<G: Game>(
    referee: &mut Referee<G>,
    chance: &mut ChanceStream,
    rng: &mut ChaCha8Rng,
    legal: &mut Vec<usize>,
    decisions: u32,
) -> (Vec<MoveRecord>, u32) {
    let mut opening = Vec::new();
    let mut played = 0;
    loop {
        while let Some(outcome) = referee.draw_chance(chance) {
            opening.push(MoveRecord::unsearched(outcome, true));
        }
        if played == decisions || referee.is_over() {
            return (opening, played);
        }
        referee.game().legal_actions(legal);
        let action = legal[rng.random_range(0..legal.len())];
        referee.play(action).expect("a legal action");
        opening.push(MoveRecord::unsearched(action, false));
        played += 1;
    }
}
