use crate::game_in_flight::GameInFlight;
use crate::resign_calibration::ResignCalibration;
use crate::{Boards, SelfplayConfig, StartPositions};
use game::{Automatic, ChanceStream, Game, Opening, Referee};
use mcts::{Batch, DeviceError, PipelinedEvaluator, ResignRule, Tree};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replay::{GameRecord, MoveRecord, ResignPlaythrough};
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

/// Plays `games_in_flight` games at once, split into `batches_in_flight` lanes of games whose
/// leaves travel together: each step takes one lane's evaluations back, plays a move in every
/// game of it whose search has its budget, walks its trees to their next leaves and sends
/// them, while the other lanes' batches are in flight. With an inference server the worker
/// thus searches while the device evaluates; with one lane it waits for each batch.
///
/// A tree's steps do not depend on which trees share its batch, and each game slot draws from
/// a random stream of its own (openings, chance, which searches are full), so that its games
/// do not depend on when other slots move either: with an evaluator whose answers depend on
/// the position only, the games of a slot are the same however the games are split into
/// lanes.
///
/// The worker decides; each game's [`Referee`] steps it, as it does for the arena: the worker
/// plays its searched decisions and resignations through it, and the referee plays the rest
/// (chance's outcomes from the game's own seeded stream, the random opening, decisions with
/// one legal choice) and says when and how the game ends. A search thus never starts at a
/// chance position or where the game is over.
pub struct Worker<G: Game> {
    config: SelfplayConfig,
    boards: Boards<G::Options>,
    trees: Vec<Tree<G>>,
    referees: Vec<Referee<G>>,
    chance: Vec<ChanceStream>,
    games: Vec<GameInFlight>,
    lanes: Vec<Lane<G>>,
    /// The lanes whose batches are in flight, oldest first: the evaluator answers batches in
    /// the order they were sent, so they are taken back in that order.
    in_flight: VecDeque<usize>,
    /// Each slot's random stream.
    rngs: Vec<ChaCha8Rng>,
    legal: Vec<usize>,
    generation: u32,
    /// The threshold calibrated from played-through games, where the config asks for it.
    calibration: Option<ResignCalibration>,
    /// Records whose positions some games start from.
    starts: Arc<StartPositions>,
}

/// Game slots whose leaves share a batch.
struct Lane<G: Game> {
    slots: Range<usize>,
    batch: Batch<G>,
}

/// A finished game and the board it was played on ([`Boards`]; 0: the run's own), whose
/// shards it goes to.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    pub board: usize,
    pub record: GameRecord,
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
            boards: Boards::one(options),
            trees,
            referees,
            chance,
            games,
            lanes,
            in_flight: VecDeque::new(),
            rngs,
            legal: Vec::new(),
            generation: 0,
            calibration: None,
            starts: Arc::default(),
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

    /// Has some games start from positions of records ([`StartPositions`]): a builder for
    /// right after [`Worker::new`], whose games it opens again where there are records to
    /// start from (without them, the games `new` opened stand).
    pub fn with_start_positions(mut self, starts: Arc<StartPositions>) -> Self {
        self.starts = starts;
        if !self.starts.is_empty() {
            for slot in 0..self.trees.len() {
                self.start_game(slot);
            }
        }
        self
    }

    /// Plays each new game on a board drawn from `boards` (a run that mixes board sizes): a
    /// builder for right after [`Worker::new`], whose games it opens again (start positions
    /// stay with the run's own board, `boards`' first).
    pub fn with_boards(mut self, boards: Boards<G::Options>) -> Self {
        self.boards = boards;
        if self.boards.len() > 1 {
            for slot in 0..self.trees.len() {
                self.start_game(slot);
            }
        }
        self
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
    /// `finished` and replaced by new ones. A failed device fails the step; the games in
    /// flight are then lost (the finished ones were handed over already).
    pub fn step<E: PipelinedEvaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        finished: &mut Vec<FinishedGame>,
    ) -> Result<StepReport, DeviceError> {
        for lane in 0..self.lanes.len() {
            if !self.lanes[lane].batch.is_in_flight() {
                self.submit(lane, evaluator)?;
            }
        }
        let (lane, evaluations) = self.receive_oldest(evaluator)?;
        let mut moves = 0;
        for slot in self.lanes[lane].slots.clone() {
            if !self.trees[slot].is_done() {
                continue;
            }
            moves += 1;
            if let Some(record) = self.play_move(slot) {
                let board = self.games[slot].board;
                finished.push(FinishedGame { board, record });
                self.start_game(slot);
            }
        }
        self.submit(lane, evaluator)?;
        Ok(StepReport { evaluations, moves })
    }

    /// Takes back every batch in flight (the trees take their evaluations; moves wait for
    /// their lane's next step), so that `evaluator` can be dropped or replaced. Returns the
    /// positions evaluated.
    pub fn drain<E: PipelinedEvaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
    ) -> Result<usize, DeviceError> {
        let mut evaluations = 0;
        while !self.in_flight.is_empty() {
            evaluations += self.receive_oldest(evaluator)?.1;
        }
        Ok(evaluations)
    }

    fn submit<E: PipelinedEvaluator<G> + ?Sized>(
        &mut self,
        lane: usize,
        evaluator: &mut E,
    ) -> Result<usize, DeviceError> {
        let Lane { slots, batch } = &mut self.lanes[lane];
        let submitted = batch.submit(&mut self.trees[slots.clone()], evaluator)?;
        self.in_flight.push_back(lane);
        Ok(submitted)
    }

    /// Takes back the oldest batch in flight; returns its lane and the positions evaluated.
    fn receive_oldest<E: PipelinedEvaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
    ) -> Result<(usize, usize), DeviceError> {
        let lane = self.in_flight.pop_front().expect("a batch in flight");
        let Lane { slots, batch } = &mut self.lanes[lane];
        let evaluations = batch.receive(&mut self.trees[slots.clone()], evaluator)?;
        Ok((lane, evaluations))
    }

    /// Plays the searched move of the game in `slot` (or resigns it), then the referee's
    /// actions up to the next decision; returns its record if the game is over.
    fn play_move(&mut self, slot: usize) -> Option<GameRecord> {
        let rule = self.resign_rule();
        let tree = &mut self.trees[slot];
        let game = &mut self.games[slot];
        let referee = &mut self.referees[slot];
        game.generation = self.generation;
        let mover = referee
            .to_decide()
            .expect("a search runs where a side decides");
        let root_value = tree.root_value();
        let game_value = tree.root_game_value();
        if self.calibration.is_some() {
            let consecutive_moves = self.config.resign.consecutive_moves;
            game.trigger_levels
                .observe(mover, game_value, consecutive_moves);
        }
        if game.watch.observe(&rule, mover, game_value) {
            if !game.playthrough {
                referee.resign(mover);
                return Some(game.finish(referee));
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
        self.play_automatic(slot);
        let referee = &self.referees[slot];
        let Some(ending) = referee.ending() else {
            self.prepare_search(slot);
            return None;
        };
        // Nobody resigned: the rules ended the game, and a played-through game is evidence.
        let game = &mut self.games[slot];
        if let Some(calibration) = &mut self.calibration
            && game.playthrough
        {
            calibration.record(game.trigger_levels.verdicts(ending.outcome));
        }
        Some(game.finish(referee))
    }

    /// The referee's actions in `slot` up to the next decision or the end (chance's, the
    /// opening's, forced ones), recorded unsearched and followed by the tree.
    fn play_automatic(&mut self, slot: usize) {
        let referee = &mut self.referees[slot];
        let game = &mut self.games[slot];
        while let Some(automatic) = referee.play_automatic(&mut self.chance[slot]) {
            let action = automatic.action();
            self.trees[slot].advance(action);
            let by_chance = matches!(automatic, Automatic::Chance(_));
            game.moves.push(MoveRecord::unsearched(action, by_chance));
            if !by_chance {
                game.decisions += 1;
            }
        }
    }

    /// Starts a new game in `slot`, opened by a few uniformly random decisions
    /// ([`game::Opening`], chance's outcomes drawn as in the rest of the game), and readies
    /// its first search.
    fn start_game(&mut self, slot: usize) {
        // The opening never ends a game, but chance or forced decisions might before any side
        // chooses: such a game teaches nothing, and another starts.
        loop {
            self.open_game(slot);
            if !self.referees[slot].is_over() {
                break;
            }
        }
        self.prepare_search(slot);
    }

    /// A new game in `slot`, played up to its first decision.
    fn open_game(&mut self, slot: usize) {
        let rng = &mut self.rngs[slot];
        let board = self.boards.draw(rng);
        let start = G::new(self.boards.options(board));
        let opening = Opening {
            actions: rng.random_range(0..=self.config.random_opening_moves) as usize,
            seed: rng.random(),
        };
        self.chance[slot] = ChanceStream::new(rng.random());
        self.referees[slot] = Referee::new(start.clone())
            .with_opening(opening)
            .plays_forced_decisions();
        self.trees[slot].reset(&start);
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
            // Without a calibrated threshold yet, nothing resigns: every game is evidence.
            playthrough: rng.random_bool(self.config.resign.playthrough_fraction)
                || self
                    .calibration
                    .as_ref()
                    .is_some_and(|calibration| calibration.threshold().is_none()),
            generation: self.generation,
            board,
            handicap,
            ..GameInFlight::default()
        };
        // A record's opening, played as the random opening is (recorded, never a policy
        // target); the random opening follows it. The records are of the run's own board.
        let start = self
            .starts
            .draw(rng)
            .filter(|_| board == 0)
            .map(<[usize]>::to_vec);
        for action in start.into_iter().flatten() {
            let referee = &mut self.referees[slot];
            let by_chance = referee.game().is_chance();
            if referee.play(action).is_err() {
                break;
            }
            self.trees[slot].advance(action);
            let game = &mut self.games[slot];
            game.moves.push(MoveRecord::unsearched(action, by_chance));
            if !by_chance {
                game.decisions += 1;
            }
        }
        self.play_automatic(slot);
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
