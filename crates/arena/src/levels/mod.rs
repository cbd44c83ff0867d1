//! A bundle's levels of play rated against fixed anchors (`ghast ladder --bot DIR --levels`):
//! each level climbs the anchors to the ones near its strength and plays them and the levels
//! next to it, the anchors it reached play each other, and one Bradley-Terry fit puts them
//! all on the first anchor's scale. The bot has no human games to be calibrated on, so its
//! levels are worth what they score against players that do not change. Every match is kept
//! in the bundle's [`GAMES_FILE`] as it ends, so that a stopped ladder goes on where it was.

mod played;

pub use played::{GAMES_FILE, PlayedLevels, PlayedMatch, PlayedWith};

use crate::agent::Entrant;
use crate::kept::PairResult;
use crate::ladder::{LadderError, LadderEvent, run_pairing};
use crate::rating::{BradleyTerry, ResultTable};
use crate::runner::{Match, MatchSettings};
use crate::spec::PlayerSpec;
use game::{Agent, AgentFailure, Planes};
use play::{Bot, Bundle, Level, LevelRating, PlayError, Runtime};
use std::collections::HashMap;
use std::path::Path;

/// How the levels' matches are played.
#[derive(Clone, Debug)]
pub struct LevelSettings {
    /// Games of a level against each of the two anchors that bracket it, and against the
    /// next level up (even: each opening with both colours).
    pub games_per_pair: u32,
    /// Games against each anchor a level climbs past on its way to its own.
    pub probe_games: u32,
    pub threads: usize,
    pub opening_moves: usize,
    pub seed: u64,
}

/// The bundle in `dir` at one level, as a match entrant.
struct AtLevel<'a> {
    dir: &'a Path,
    level: &'a Level,
    number: usize,
}

impl AtLevel<'_> {
    fn label(&self) -> String {
        format!("level-{}", self.number)
    }

    /// What the level is rather than where it is listed: a kept match stays this level's
    /// when the list around it changes.
    fn key(&self) -> String {
        let level = self.level;
        format!(
            "level {}:{}:{}",
            level.visits, level.temperature, level.random_moves
        )
    }
}

impl<G: Planes> Entrant<G> for AtLevel<'_> {
    fn name(&self) -> String {
        self.label()
    }

    fn agent(&self, _options: &G::Options, seed: u64) -> Result<Box<dyn Agent<G>>, AgentFailure> {
        let fail = |e: PlayError| AgentFailure::Lost(format!("{}: {e}", self.dir.display()));
        let bundle = Bundle::<G>::load(self.dir).map_err(fail)?;
        let mut bot = Bot::new(bundle, Runtime::default(), seed)
            .map_err(fail)?
            .with_name(self.label());
        bot.set_level(self.level).map_err(fail)?;
        Ok(Box::new(bot))
    }
}

/// A level that scores at least this share against an anchor in its probe games goes on to
/// the next anchor up: the games that place it are played where they say the most.
const DOMINANT_SCORE: f64 = 0.9;

/// The levels' ratings, and how many matches were played for them.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedLevels {
    /// On the first anchor's scale, in the order the levels were given.
    pub ratings: Vec<LevelRating>,
    /// Matches played now.
    pub played: usize,
    /// Matches taken from the bundle's [`GAMES_FILE`], played by an earlier ladder.
    pub kept: usize,
}

/// Rates `levels` (weakest first) of the bundle in `dir` against `anchors` (weakest first)
/// in games of `options`, and returns each level's rating on the first anchor's scale.
///
/// Games between far-apart players say little (a level that wins every game is only known
/// to be above its opponent), so each level climbs the anchors, from the one where the level
/// below it stopped: `probe_games` against one anchor after another while it scores
/// [`DOMINANT_SCORE`] or more. It then plays
/// `games_per_pair` games in all against the first anchor it does not dominate and the one
/// below, each level plays the next one up, and the anchors that some level reached play
/// their neighbours, so that one Bradley-Terry fit puts everyone on one scale. A level's
/// interval holds the anchors' ratings as exact ([`BradleyTerry::fit_among_known`]): it says
/// how well the level is placed among them, and so whether two levels are told apart, while
/// the anchors' own uncertainty moves every level alike. The
/// [`LadderEvent::Pairing`] events count against the most pairings this can take; a match
/// kept in [`GAMES_FILE`] is counted without an event.
pub fn rate_levels<G: Planes>(
    dir: &Path,
    levels: &[Level],
    anchors: &[PlayerSpec],
    options: &G::Options,
    settings: &LevelSettings,
    on_event: &mut dyn FnMut(LadderEvent),
) -> Result<RatedLevels, LadderError> {
    let first_anchor = anchors.first().ok_or(LadderError::NoAnchors)?;
    let bundle = Bundle::<G>::load(dir).map_err(|e| LadderError::Run(e.to_string()))?;
    let played_with = PlayedWith {
        weights: played::sha256_of(&bundle.weights).map_err(LadderError::Run)?,
        options: options.clone(),
        search: bundle.settings.search.clone(),
        opening_moves: settings.opening_moves,
        seed: settings.seed,
    };
    let journal =
        PlayedLevels::load(&dir.join(GAMES_FILE), played_with).map_err(LadderError::Run)?;
    let at_levels: Vec<AtLevel> = levels
        .iter()
        .enumerate()
        .map(|(index, level)| AtLevel {
            dir,
            level,
            number: index + 1,
        })
        .collect();
    let mut entrants: Vec<&dyn Entrant<G>> = Vec::new();
    let mut keys = Vec::new();
    for level in &at_levels {
        entrants.push(level);
        keys.push(level.key());
    }
    for anchor in anchors {
        entrants.push(anchor);
        keys.push(anchor.name());
    }
    let mut games = Games {
        entrants: &entrants,
        keys,
        options,
        settings,
        table: ResultTable::new(),
        rounds: HashMap::new(),
        journal,
        played: 0,
        kept: 0,
        most_pairings: most_pairings(levels.len(), anchors.len()),
        on_event,
    };
    // The levels come first in the fit's results; an anchor joins once it has played.
    for level in &at_levels {
        games.table.add_player(&level.label());
    }
    let anchor = |index: usize| levels.len() + index;
    let mut reached = Vec::with_capacity(levels.len());
    for level in 0..levels.len() {
        let mut top = reached.last().copied().unwrap_or(0);
        while top + 1 < anchors.len() {
            let score = games.play(level, anchor(top), settings.probe_games)?;
            if score < DOMINANT_SCORE {
                break;
            }
            top += 1;
        }
        for bracket in top.saturating_sub(1)..=top {
            let so_far = games.between(level, anchor(bracket));
            let more = settings.games_per_pair.saturating_sub(so_far);
            games.play(level, anchor(bracket), more)?;
        }
        reached.push(top);
    }
    for level in 1..levels.len() {
        games.play(level - 1, level, settings.games_per_pair)?;
    }
    let highest = reached.iter().copied().max().unwrap_or(0);
    for upper in 1..=highest {
        games.play(anchor(upper - 1), anchor(upper), settings.games_per_pair)?;
    }
    let (table, played, kept) = (games.table, games.played, games.kept);
    let anchor_names: Vec<String> = anchors.iter().map(PlayerSpec::name).collect();
    let ratings = BradleyTerry::new(&first_anchor.name()).fit_among_known(&table, &anchor_names)?;
    let ratings = ratings[..levels.len()]
        .iter()
        .zip(&reached)
        .map(|(rating, &top)| LevelRating {
            elo: rating.elo,
            low: rating.lower,
            high: rating.upper,
            zero: first_anchor.name(),
            anchors: anchors[top.saturating_sub(1)..=top]
                .iter()
                .map(PlayerSpec::name)
                .collect(),
            games: rating.games,
        })
        .collect();
    Ok(RatedLevels {
        ratings,
        played,
        kept,
    })
}

/// The most pairings [`rate_levels`] can play: every level probes every anchor but the last
/// and tops up two of them, neighbours meet, and so do the anchors.
fn most_pairings(levels: usize, anchors: usize) -> usize {
    levels * (anchors.saturating_sub(1) + 2) + levels.saturating_sub(1) + anchors - 1
}

/// The levels' matches so far, and what plays the next.
struct Games<'a, G: Planes> {
    entrants: &'a [&'a dyn Entrant<G>],
    /// Each entrant's name in the [`GAMES_FILE`].
    keys: Vec<String>,
    options: &'a G::Options,
    settings: &'a LevelSettings,
    table: ResultTable,
    /// Matches and games so far of each pair of entrants (the lower index first).
    rounds: HashMap<(usize, usize), (u32, u32)>,
    journal: PlayedLevels<G::Options>,
    played: usize,
    kept: usize,
    most_pairings: usize,
    on_event: &'a mut dyn FnMut(LadderEvent<'_>),
}

impl<G: Planes> Games<'_, G> {
    fn pair(a: usize, b: usize) -> (usize, usize) {
        (a.min(b), a.max(b))
    }

    /// Games played so far between entrants `a` and `b`.
    fn between(&self, a: usize, b: usize) -> u32 {
        self.rounds
            .get(&Self::pair(a, b))
            .map_or(0, |&(_, games)| games)
    }

    /// Plays `count` games (rounded up to an even number) of entrant `a` against `b`, or
    /// takes them from the [`GAMES_FILE`] when an earlier ladder played them, records them,
    /// and returns `a`'s share of the points (1 when no game was asked for).
    fn play(&mut self, a: usize, b: usize, count: u32) -> Result<f64, LadderError> {
        if count == 0 {
            return Ok(1.0);
        }
        let games = count.next_multiple_of(2);
        let (a_key, b_key) = (&self.keys[a], &self.keys[b]);
        let so_far = self.rounds.entry(Self::pair(a, b)).or_insert((0, 0));
        let round = so_far.0;
        *so_far = (round + 1, so_far.1 + games);
        let (a_name, b_name) = (self.entrants[a].name(), self.entrants[b].name());
        let wdl = match self.journal.find(a_key, b_key, round, games) {
            Some(kept) => {
                self.kept += 1;
                kept.result.wdl()
            }
            None => {
                (self.on_event)(LadderEvent::Pairing {
                    index: self.played + self.kept,
                    total: self.most_pairings,
                    a: &a_name,
                    b: &b_name,
                    games,
                });
                let game_match = Match::<G> {
                    options: self.options.clone(),
                    a: self.entrants[a],
                    b: self.entrants[b],
                    settings: MatchSettings {
                        games,
                        threads: self.settings.threads,
                        opening_moves: self.settings.opening_moves,
                        sprt: None,
                        seed: played::match_seed(self.settings.seed, a_key, b_key, round),
                    },
                };
                self.played += 1;
                let result = run_pairing(&game_match, &a_name, &b_name, &mut *self.on_event)?;
                self.journal
                    .record(PlayedMatch {
                        result: PairResult::new(a_key.clone(), b_key.clone(), result.wdl),
                        round,
                    })
                    .map_err(LadderError::Run)?;
                result.wdl
            }
        };
        self.table.record(&a_name, &b_name, wdl);
        Ok(wdl.points() / f64::from(wdl.games().max(1)))
    }
}

/// Where adjacent levels are not told apart: fewer than `min_gap` Elo between them, or 95%
/// intervals that overlap. Each problem names the two levels (1 is the weakest).
pub fn spacing_problems(ratings: &[LevelRating], min_gap: f64) -> Vec<String> {
    ratings
        .windows(2)
        .enumerate()
        .filter_map(|(index, pair)| {
            let (lower, upper) = (&pair[0], &pair[1]);
            let gap = upper.elo - lower.elo;
            let overlap = upper.low <= lower.high;
            (gap < min_gap || overlap).then(|| {
                format!(
                    "levels {} and {}: {gap:+.0} Elo apart{}",
                    index + 1,
                    index + 2,
                    if overlap {
                        ", their intervals overlap"
                    } else {
                        ""
                    }
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rated(elo: f64, half_width: f64) -> LevelRating {
        LevelRating {
            elo,
            low: elo - half_width,
            high: elo + half_width,
            zero: "random".into(),
            anchors: vec!["random".into()],
            games: 40,
        }
    }

    #[test]
    fn close_or_overlapping_neighbours_are_named() {
        let ratings = [rated(0.0, 40.0), rated(150.0, 40.0), rated(230.0, 30.0)];
        let problems = spacing_problems(&ratings, 100.0);
        assert_eq!(problems, ["levels 2 and 3: +80 Elo apart"]);
        let wide = [rated(0.0, 80.0), rated(120.0, 80.0)];
        assert_eq!(
            spacing_problems(&wide, 100.0),
            ["levels 1 and 2: +120 Elo apart, their intervals overlap"]
        );
        assert!(spacing_problems(&[rated(0.0, 40.0), rated(200.0, 40.0)], 100.0).is_empty());
    }
}
