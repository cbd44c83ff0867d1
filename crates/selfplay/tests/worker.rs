use game::{DeviceError, Evaluation, Evaluator, Game, Outcome, Side};
use ghast::{Ghast, GhastOptions, RawOptions};
use mcts::{Formula, SearchConfig, TemperatureSchedule};
use mcts::{Inline, PipelinedEvaluator, UniformEvaluator};
use selfplay::{Handicap, HandicapSide, ResignConfig, SelfplayConfig, Worker};

fn small_board() -> GhastOptions {
    board_of_size(3)
}

/// The board of `size` hexes a side, won by a lead of 3.
fn board_of_size(size: i64) -> GhastOptions {
    RawOptions {
        size,
        win_margin: 3,
        ..RawOptions::default()
    }
    .validate()
    .unwrap()
}

fn play_games(config: SelfplayConfig, wanted: usize) -> Vec<replay::GameRecord> {
    play_games_with(config, &mut Inline::new(UniformEvaluator), wanted)
}

fn play_games_with(
    config: SelfplayConfig,
    evaluator: &mut impl PipelinedEvaluator<Ghast>,
    wanted: usize,
) -> Vec<replay::GameRecord> {
    let mut worker = Worker::<Ghast>::new(small_board(), config, 7);
    worker.set_generation(3);
    let mut finished = Vec::new();
    for _ in 0..100_000 {
        worker.step(evaluator, &mut finished).unwrap();
        if finished.len() >= wanted {
            return finished.into_iter().map(|game| game.record).collect();
        }
    }
    panic!("only {} games finished", finished.len());
}

#[test]
fn records_replay_to_their_final_position_and_outcome() {
    let config = SelfplayConfig {
        games_in_flight: 4,
        full_visits: 24,
        cheap_visits: 6,
        full_search_probability: 0.5,
        resign: ResignConfig {
            consecutive_moves: 0,
            ..ResignConfig::default()
        },
        ..SelfplayConfig::default()
    };
    let records = play_games(config.clone(), 12);
    for record in &records {
        assert_eq!(record.generation, 3);
        let mut game = Ghast::new(&small_board());
        for played in &record.moves {
            assert!(
                game.is_legal(played.action as usize),
                "illegal move in a record"
            );
            if played.full_search {
                let total: u32 = played.policy.iter().map(|&(_, w)| w).sum();
                assert!(
                    total.abs_diff(replay::POLICY_WEIGHT_TOTAL) <= played.policy.len() as u32,
                    "a full search's target is a distribution: {total}"
                );
                assert!(
                    played
                        .policy
                        .iter()
                        .all(|&(a, _)| game.is_legal(a as usize))
                );
                assert!(played.surprise >= 0.0);
            } else {
                assert!(
                    played.policy.is_empty(),
                    "cheap searches give no policy target"
                );
            }
            game.apply(played.action as usize);
        }
        assert_eq!(game.outcome(), Some(record.outcome));
        assert_eq!(game.end_reason(), Some(record.end_reason.as_str()));
        assert_eq!(game.position_text(), record.final_position);
    }
    let full = records
        .iter()
        .flat_map(|r| &r.moves)
        .filter(|m| m.full_search)
        .count();
    let searched = records
        .iter()
        .flat_map(|r| &r.moves)
        .filter(|m| m.root_value != 0.0 || m.full_search)
        .count();
    assert!(
        full > 0 && full < searched,
        "playout cap randomisation mixes full and cheap searches"
    );
}

/// Short searches where a threshold above every value makes every side hopeless at once,
/// with a resignation threshold that is fixed (0) or calibrated to `false_positive_target`.
fn hopeless_at_once(false_positive_target: f64) -> SelfplayConfig {
    SelfplayConfig {
        games_in_flight: 2,
        full_visits: 8,
        cheap_visits: 4,
        random_opening_moves: 0,
        resign: ResignConfig {
            threshold: 2.0,
            consecutive_moves: 1,
            playthrough_fraction: 0.0,
            false_positive_target,
        },
        ..SelfplayConfig::default()
    }
}

#[test]
fn hopeless_sides_resign_unless_the_game_is_played_through() {
    let resigning = hopeless_at_once(0.0);
    for record in play_games(resigning.clone(), 4) {
        assert_eq!(record.end_reason, "resign");
        assert_eq!(record.moves.len(), 0, "the first mover resigns at once");
        assert_eq!(record.outcome, Outcome::Win(game::Side::Second));
    }
    let played_through = SelfplayConfig {
        resign: ResignConfig {
            playthrough_fraction: 1.0,
            ..resigning.resign
        },
        ..resigning
    };
    for record in play_games(played_through, 4) {
        assert_ne!(record.end_reason, "resign");
        let would = record
            .resign_playthrough
            .expect("the would-be resigner is recorded");
        assert_eq!((would.side, would.move_index), (game::Side::First, 0));
    }
}

/// A calibrated threshold: no game resigns until 20 would-be resignations are known (every
/// game is played through until then), and since every game's winner would have resigned
/// under the configured 2.0, half of them are false: the threshold falls below 2.0.
#[test]
fn a_calibrated_threshold_waits_for_evidence_and_falls_when_it_shows_false_resignations() {
    let mut worker = Worker::<Ghast>::new(small_board(), hopeless_at_once(0.05), 7);
    assert_eq!(worker.resign_threshold(), None);
    let mut uniform = Inline::new(UniformEvaluator);
    let mut finished = Vec::new();
    while finished.len() < 10 {
        worker.step(&mut uniform, &mut finished).unwrap();
    }
    for record in finished[..10].iter().map(|game| &game.record) {
        assert_ne!(record.end_reason, "resign");
        assert!(
            record.resign_playthrough.is_some(),
            "2.0 is above any value"
        );
    }
    let threshold = worker
        .resign_threshold()
        .expect("20 would-be resignations calibrate the threshold");
    assert!(threshold < 2.0, "{threshold}");
    assert!(threshold >= -1.0, "{threshold}");
}

/// A network that always wants to pass (uniform where it cannot): a search guided by it passes
/// whenever it may, so a game between two of them ends at once by two passes.
struct AlwaysPass;

impl Evaluator<Ghast> for AlwaysPass {
    fn evaluate(
        &mut self,
        positions: &[&Ghast],
        out: &mut [Evaluation],
    ) -> Result<(), DeviceError> {
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            UniformEvaluator.evaluate(&[*position], std::slice::from_mut(evaluation))?;
            if let Ok(pass) = position.parse_action("pass") {
                evaluation.policy.iter_mut().for_each(|p| *p = 0.0);
                evaluation.policy[pass] = 1.0;
            }
        }
        Ok(())
    }
}

/// The decisions of `side` in a record where it could have passed without losing at once, and
/// did not. (A pass that ends the game lost for its mover is never the search's choice while
/// another move is legal, so a search over an evaluator that always passes plays there.)
fn non_passes(record: &replay::GameRecord, side: Side) -> usize {
    let mut game = Ghast::new(&small_board());
    let mut count = 0;
    for played in &record.moves {
        let action = played.action as usize;
        let could_pass = game.parse_action("pass").is_ok_and(|pass| {
            let mut passed = game.clone();
            passed.apply(pass);
            passed.outcome() != Some(Outcome::Win(side.other()))
        });
        let passed = game.action_to_string(action) == "pass";
        count += usize::from(game.to_move() == side && could_pass && !passed);
        game.apply(action);
    }
    count
}

/// In a handicap game the handicapped side's decisions are random where its search would pass;
/// the other side's, and every decision of a game without the handicap, are the search's.
#[test]
fn the_handicapped_side_plays_random_decisions_in_handicap_games() {
    let plain = SelfplayConfig {
        games_in_flight: 2,
        full_visits: 8,
        cheap_visits: 8,
        random_opening_moves: 0,
        temperature: TemperatureSchedule::Constant { temperature: 0.0 },
        resign: ResignConfig {
            consecutive_moves: 0,
            ..ResignConfig::default()
        },
        search: SearchConfig {
            formula: Formula::Puct,
            root_noise: false,
            ..SearchConfig::default()
        },
        ..SelfplayConfig::default()
    };
    for record in play_games_with(plain.clone(), &mut Inline::new(AlwaysPass), 4) {
        assert_eq!(record.end_reason, "passes");
        assert_eq!(non_passes(&record, Side::First), 0);
    }
    let handicap = SelfplayConfig {
        handicap: Handicap {
            side: HandicapSide::First,
            games: 1.0,
            random_decisions: [0.75, 1.0],
        },
        ..plain
    };
    // Each handicap game draws its rate from 3/4 to 1 and its random decision may still be a
    // pass (one in ten on this board), so a game may open with a pass; over eight games (a
    // chance of at most 1.3 x 10^-4 that none deviates) the random decisions show.
    let records = play_games_with(handicap, &mut Inline::new(AlwaysPass), 8);
    let random: usize = records.iter().map(|r| non_passes(r, Side::First)).sum();
    assert!(
        random > 0,
        "the handicapped side never deviated from its search"
    );
    for record in &records {
        assert_eq!(non_passes(record, Side::Second), 0);
    }
}

/// Answers from the position alone: priors over the legal actions and a value, both from its
/// hash, so that a search's result never depends on which positions share its batch.
struct ByHash;

impl Evaluator<Ghast> for ByHash {
    fn evaluate(
        &mut self,
        positions: &[&Ghast],
        out: &mut [Evaluation],
    ) -> Result<(), DeviceError> {
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            let hash = position.hash();
            UniformEvaluator.evaluate(&[*position], std::slice::from_mut(evaluation))?;
            for (action, prior) in evaluation.policy.iter_mut().enumerate() {
                *prior *=
                    1.0 + (game::mix64(hash ^ action as u64) >> 40) as f32 / (1u64 << 24) as f32;
            }
            let total: f32 = evaluation.policy.iter().sum();
            evaluation.policy.iter_mut().for_each(|p| *p /= total);
            evaluation.value = (game::mix64(hash) >> 40) as f32 / (1u64 << 23) as f32 - 1.0;
        }
        Ok(())
    }
}

/// The games a worker plays in `rounds` steps of each of its lanes, in a canonical order;
/// with `drain_every`, every batch in flight is taken back after that many steps, as a
/// self-play thread does when it switches to a newer network.
fn games_of(batches_in_flight: usize, rounds: usize, drain_every: Option<usize>) -> Vec<String> {
    let config = SelfplayConfig {
        games_in_flight: 6,
        batches_in_flight,
        full_visits: 12,
        cheap_visits: 4,
        random_opening_moves: 3,
        ..SelfplayConfig::default()
    };
    let mut worker = Worker::<Ghast>::new(small_board(), config, 11);
    let mut evaluator = Inline::new(ByHash);
    let mut finished = Vec::new();
    for step in 1..=rounds * batches_in_flight {
        worker.step(&mut evaluator, &mut finished).unwrap();
        if drain_every.is_some_and(|every| step % every == 0) {
            worker.drain(&mut evaluator).unwrap();
        }
    }
    let mut games: Vec<String> = finished
        .iter()
        .map(|game| format!("{:?}", game.record))
        .collect();
    games.sort();
    games
}

/// Pipelining changes no game: split into 2 or 3 lanes whose batches are in flight together,
/// a worker plays the games it plays with one batch in flight, move for move (each slot's
/// games come from its own random stream, and a tree's steps do not depend on its batch).
#[test]
fn lanes_of_games_in_flight_play_the_games_one_batch_plays() {
    let one = games_of(1, 300, None);
    assert!(one.len() >= 12, "only {} games finished", one.len());
    assert_eq!(games_of(2, 300, None), one);
    assert_eq!(games_of(3, 300, None), one);
}

/// Taking every batch back (a switch to a newer network) and going on changes no game either:
/// the batches are taken back, and sent again, in the order the evaluator answers them. (They
/// were once taken back lane by lane, so a lane could get another lane's evaluations.) A move
/// whose search ended in a drain waits for its lane's next step, and a drain is a search step
/// of every lane, so a drained worker's slots are each at another point of the same games:
/// what it finished is among the games one batch plays in as many search steps at least.
#[test]
fn draining_the_batches_in_flight_changes_no_game() {
    // 300 rounds of `lanes` lanes drained every `every` steps are at most
    // 300 + 300 * lanes / every search steps a slot: 525 here.
    let one = games_of(1, 600, None);
    for (lanes, every) in [(2, 3), (3, 4), (3, 7)] {
        let drained = games_of(lanes, 300, Some(every));
        assert!(drained.len() >= 12, "only {} games finished", drained.len());
        for game in &drained {
            assert!(
                one.contains(game),
                "{lanes} lanes, drained every {every} steps: a game one batch never plays: {game}"
            );
        }
    }
}

/// With start positions at a share of 1, every game opens with a proper prefix of a record,
/// recorded as unsearched moves (no policy target), and replays from the game's start to
/// its final position; with a share of 0 no game does.
#[test]
fn games_start_from_records_at_the_share_asked() {
    let options = small_board();
    let mut game = Ghast::new(&options);
    let mut legal = Vec::new();
    let mut record = Vec::new();
    while record.len() < 6 && game.outcome().is_none() {
        game.legal_actions(&mut legal);
        let action = legal[legal.len() / 2];
        game.apply(action);
        record.push(action);
    }
    let config = SelfplayConfig {
        games_in_flight: 4,
        full_visits: 8,
        cheap_visits: 4,
        random_opening_moves: 0,
        resign: ResignConfig {
            consecutive_moves: 0,
            ..ResignConfig::default()
        },
        ..SelfplayConfig::default()
    };
    for share in [1.0, 0.0] {
        let starts =
            std::sync::Arc::new(selfplay::StartPositions::new(vec![record.clone()], share));
        let mut worker =
            Worker::<Ghast>::new(options.clone(), config.clone(), 5).with_start_positions(starts);
        let mut evaluator = Inline::new(UniformEvaluator);
        let mut finished = Vec::new();
        while finished.len() < 12 {
            worker.step(&mut evaluator, &mut finished).unwrap();
        }
        for played in finished.iter().map(|game| &game.record) {
            let prefix = played
                .moves
                .iter()
                .zip(&record)
                .take_while(|(m, r)| m.action as usize == **r && m.policy.is_empty())
                .count();
            if share == 1.0 {
                assert!(
                    (1..record.len()).contains(&prefix),
                    "opened by a proper prefix of the record: {prefix}"
                );
            }
            let mut replayed = Ghast::new(&options);
            for m in &played.moves {
                assert!(replayed.is_legal(m.action as usize));
                replayed.apply(m.action as usize);
            }
            assert_eq!(replayed.position_text(), played.final_position);
        }
        if share == 0.0 {
            assert!(
                finished
                    .iter()
                    .any(|played| played.record.moves[0].action as usize != record[0]),
                "games of their own"
            );
        }
    }
}

/// A worker given two boards plays each at its share, names the board of each finished game,
/// and every game replays under its own board's options to its final position.
#[test]
fn a_worker_of_two_boards_plays_each_and_names_it() {
    let large = board_of_size(4);
    let boards = selfplay::Boards::mix(vec![(large.clone(), 1.0), (small_board(), 1.0)]).unwrap();
    let config = SelfplayConfig {
        games_in_flight: 8,
        full_visits: 8,
        cheap_visits: 4,
        ..SelfplayConfig::default()
    };
    let mut worker = Worker::<Ghast>::new(large.clone(), config, 3).with_boards(boards.clone());
    let mut evaluator = Inline::new(UniformEvaluator);
    let mut finished = Vec::new();
    while finished.len() < 24 {
        worker.step(&mut evaluator, &mut finished).unwrap();
    }
    let on_small = finished.iter().filter(|game| game.board == 1).count();
    assert!(
        (4..=20).contains(&on_small),
        "about half of 24 games on the small board: {on_small}"
    );
    for game in &finished {
        let mut replayed = Ghast::new(boards.options(game.board));
        for played in &game.record.moves {
            assert!(replayed.is_legal(played.action as usize));
            replayed.apply(played.action as usize);
        }
        assert_eq!(replayed.position_text(), game.record.final_position);
    }
}

/// Reanalyse: a stored game searched again by another network keeps its moves, outcome and
/// unsearched moves, and gets that network's targets where it had targets (here a network
/// that always wants to pass: its targets lean to the pass the first one never favoured);
/// a record of another board does not replay and says where.
#[test]
fn a_reanalysed_game_keeps_its_moves_and_gets_the_new_networks_targets() {
    let config = SelfplayConfig {
        games_in_flight: 4,
        full_visits: 16,
        cheap_visits: 4,
        full_search_probability: 0.5,
        ..SelfplayConfig::default()
    };
    let records = play_games(config.clone(), 4);
    let mut reanalyser = selfplay::Reanalyser::<Ghast>::new(config, 1);
    let mut leaning_to_pass = 0;
    for record in &records {
        let fresh = reanalyser
            .reanalyse(&small_board(), record, 9, &mut AlwaysPass)
            .unwrap();
        assert_eq!(fresh.generation, 9);
        assert_eq!(
            (&fresh.outcome, &fresh.end_reason, &fresh.final_position),
            (&record.outcome, &record.end_reason, &record.final_position)
        );
        let mut game = Ghast::new(&small_board());
        for (old, new) in record.moves.iter().zip(&fresh.moves) {
            assert_eq!((old.action, old.full_search), (new.action, new.full_search));
            if old.policy.is_empty() {
                assert_eq!(old, new, "a move without a target is left as it was");
            } else {
                assert!(!new.policy.is_empty());
                let pass = game.parse_action("pass").ok();
                let weight = |policy: &[(u32, u32)]| {
                    policy
                        .iter()
                        .filter(|&&(action, _)| Some(action as usize) == pass)
                        .map(|&(_, weight)| weight)
                        .sum::<u32>()
                };
                leaning_to_pass += usize::from(weight(&new.policy) > weight(&old.policy));
            }
            game.apply(old.action as usize);
        }
    }
    assert!(
        leaning_to_pass > 0,
        "the new network's targets are the ones written"
    );

    let larger = board_of_size(4);
    let mismatched = records
        .iter()
        .find_map(|record| {
            reanalyser
                .reanalyse(&larger, record, 9, &mut AlwaysPass)
                .err()
        })
        .expect("a size-3 game does not replay on size 4");
    assert!(
        mismatched.to_string().contains("does not replay"),
        "{mismatched}"
    );
}
