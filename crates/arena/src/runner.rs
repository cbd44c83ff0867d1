//! Matches: many games between two entrants on worker threads, in colour-swapped pairs from
//! shared random openings and, in a game with chance, shared chance outcomes, with an
//! optional SPRT that stops the match once it is decided.

use crate::agent::Entrant;
use crate::rating::{MatchStats, Pentanomial, SprtDecision, SprtParams, SprtStatus, Wdl};
use game::{
    AgentFailure, ChanceStream, DeviceError, Ending, Game, Opening, Outcome, Referee, Side,
    play_game,
};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Sender, channel};
use thiserror::Error;

/// How a match is played.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    /// Games in all; even, since every opening is played twice with the colours swapped.
    pub games: u32,
    /// Worker threads, each with its own pair of agents.
    pub threads: usize,
    /// Random legal moves that open every game pair.
    pub opening_moves: usize,
    /// Stop as soon as this test is decided.
    pub sprt: Option<SprtParams>,
    pub seed: u64,
}

/// One finished game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Position in the match, from 0: games `2p` and `2p + 1` share opening `p`.
    pub index: u32,
    /// The side the match's first entrant (A) played.
    pub a_side: Side,
    /// The players by side: the one who moved first, then second.
    pub players: [String; 2],
    /// Every move in text notation, the opening first.
    pub moves: Vec<String>,
    pub opening_moves: usize,
    pub ending: Ending,
}

impl GameRecord {
    /// The game as a win, draw or loss for entrant A.
    pub fn wdl_for_a(&self) -> Wdl {
        match self.ending.outcome {
            Outcome::Draw => Wdl::new(0, 1, 0),
            Outcome::Win(side) if side == self.a_side => Wdl::new(1, 0, 0),
            Outcome::Win(_) => Wdl::new(0, 0, 1),
        }
    }

    /// The name of the player who lost, if one did.
    pub fn loser(&self) -> Option<&str> {
        match self.ending.outcome {
            Outcome::Win(winner) => Some(&self.players[winner.other().index()]),
            Outcome::Draw => None,
        }
    }
}

/// What a match produced, from entrant A's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    pub a: String,
    pub b: String,
    pub wdl: Wdl,
    /// Completed colour-swapped pairs by A's total score over the pair.
    pub pairs: Pentanomial,
    /// The SPRT's state when the match stopped (`None` without `--sprt`).
    pub sprt: Option<SprtStatus>,
    /// Every game played, by index.
    pub games: Vec<GameRecord>,
}

impl MatchResult {
    /// Score and Elo difference with a 95% interval, over game pairs: a pair shares its
    /// opening, so its two games are not independent samples.
    pub fn stats(&self) -> MatchStats {
        MatchStats::new(&self.pairs)
    }

    /// A's results in the games it played as the first side, then as the second: where the
    /// sides play different games (Ghost Chess) the two differ by more than luck.
    pub fn by_colour(&self) -> [Wdl; 2] {
        let mut results = [Wdl::default(); 2];
        for game in &self.games {
            results[game.a_side.index()] += game.wdl_for_a();
        }
        results
    }
}

#[derive(Clone, Debug, PartialEq, Error)]
pub enum MatchError {
    #[error("games must be a positive even number (each opening is played twice), got {0}")]
    Games(u32),
    #[error("threads must be at least 1")]
    Threads,
    #[error("cannot set up `{player}`: {why}")]
    Setup { player: String, why: AgentFailure },
    /// The device of a network in the match failed: its games cannot go on, and losses
    /// counted against it would rate the device, not the player.
    #[error("the match stopped")]
    Device(#[source] DeviceError),
}

/// A match between entrants `a` and `b`.
pub struct Match<'a, G: Game> {
    pub options: G::Options,
    pub a: &'a dyn Entrant<G>,
    pub b: &'a dyn Entrant<G>,
    pub settings: MatchSettings,
}

type Report = Result<GameRecord, MatchError>;

impl<G: Game> Match<'_, G> {
    /// Plays the match, calling `on_game` with every game as it finishes (in finishing order).
    pub fn run(&self, on_game: &mut dyn FnMut(&GameRecord)) -> Result<MatchResult, MatchError> {
        let settings = &self.settings;
        if settings.games == 0 || !settings.games.is_multiple_of(2) {
            return Err(MatchError::Games(settings.games));
        }
        if settings.threads == 0 {
            return Err(MatchError::Threads);
        }
        let pair_count = settings.games / 2;
        let next_pair = AtomicU32::new(0);
        let stop = AtomicBool::new(false);
        let (sender, reports) = channel::<Report>();
        let mut result = MatchResult {
            a: self.a.name(),
            b: self.b.name(),
            wdl: Wdl::default(),
            pairs: Pentanomial::default(),
            sprt: None,
            games: Vec::new(),
        };
        let mut stopped_by = None;
        std::thread::scope(|scope| {
            let workers = settings.threads.min(pair_count as usize);
            for worker in 0..workers {
                let sender = sender.clone();
                let (next_pair, stop) = (&next_pair, &stop);
                scope.spawn(move || self.work(worker as u64, pair_count, next_pair, stop, &sender));
            }
            drop(sender);
            let mut first_of_pair: Vec<Option<Wdl>> = vec![None; pair_count as usize];
            for report in reports {
                let record = match report {
                    Ok(record) => record,
                    Err(error) => {
                        stop.store(true, Ordering::Relaxed);
                        stopped_by.get_or_insert(error);
                        continue;
                    }
                };
                on_game(&record);
                let wdl = record.wdl_for_a();
                result.wdl += wdl;
                let pair = (record.index / 2) as usize;
                if let Some(other) = first_of_pair[pair].replace(wdl) {
                    result.pairs.record(half_points(other), half_points(wdl));
                    self.check_sprt(&mut result, &stop);
                }
                result.games.push(record);
            }
        });
        if let Some(error) = stopped_by {
            return Err(error);
        }
        result.games.sort_by_key(|record| record.index);
        Ok(result)
    }

    /// Records the SPRT's state and, once it is decided, tells the workers to stop.
    fn check_sprt(&self, result: &mut MatchResult, stop: &AtomicBool) {
        let Some(sprt) = &self.settings.sprt else {
            return;
        };
        if result
            .sprt
            .is_some_and(|status| status.decision != SprtDecision::Continue)
        {
            return;
        }
        let status = sprt.status(&result.pairs);
        if status.decision != SprtDecision::Continue {
            stop.store(true, Ordering::Relaxed);
        }
        result.sprt = Some(status);
    }

    /// One worker: sets up its agents, then plays pair after pair until none are left.
    fn work(
        &self,
        worker: u64,
        pair_count: u32,
        next_pair: &AtomicU32,
        stop: &AtomicBool,
        sender: &Sender<Report>,
    ) {
        let seed = mix(self.settings.seed, worker);
        let setup = |entrant: &dyn Entrant<G>, salt: u64| {
            entrant
                .agent(&self.options, mix(seed, salt))
                .map_err(|why| MatchError::Setup {
                    player: entrant.name(),
                    why,
                })
        };
        let (mut a, mut b) = match (setup(self.a, 1), setup(self.b, 2)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(error), _) | (_, Err(error)) => {
                let _ = sender.send(Err(error));
                return;
            }
        };
        let names = [self.a.name(), self.b.name()];
        while !stop.load(Ordering::Relaxed) {
            let pair = next_pair.fetch_add(1, Ordering::Relaxed);
            if pair >= pair_count {
                return;
            }
            let opening = Opening {
                actions: self.settings.opening_moves,
                seed: mix(self.settings.seed, u64::from(pair) + (1 << 32)),
            };
            // Both games of the pair draw chance's outcomes from one stream: the same dice
            // for each colour, so that luck cancels over the pair (as in duplicate bridge).
            let chance_seed = mix(self.settings.seed, u64::from(pair) + (2 << 32));
            for a_side in Side::BOTH {
                let (agents, first, second) = match a_side {
                    Side::First => ([a.as_mut(), b.as_mut()], &names[0], &names[1]),
                    Side::Second => ([b.as_mut(), a.as_mut()], &names[1], &names[0]),
                };
                let mut referee = Referee::new(G::new(&self.options));
                let ending = match play_game(
                    &mut referee,
                    agents,
                    opening,
                    &mut ChanceStream::new(chance_seed),
                ) {
                    Ok(ending) => ending,
                    Err(error) => {
                        let _ = sender.send(Err(MatchError::Device(error)));
                        return;
                    }
                };
                let record = GameRecord {
                    index: 2 * pair + a_side.index() as u32,
                    a_side,
                    players: [first.clone(), second.clone()],
                    moves: game::moves_in_full(referee.start(), referee.actions()),
                    opening_moves: referee.opening_actions(),
                    ending,
                };
                if sender.send(Ok(record)).is_err() {
                    return;
                }
            }
        }
    }
}

/// A game's score in half points (win 2, draw 1, loss 0), as pentanomial pairs count it.
fn half_points(wdl: Wdl) -> u8 {
    (2 * wdl.wins + wdl.draws) as u8
}

/// An independent seed for `stream` under `seed` (SplitMix64's finaliser).
fn mix(seed: u64, stream: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
