//! A bundle's levels of play rated against fixed anchors (`ghast ladder --bot DIR --levels`):
//! every level plays every anchor and the levels next to it, the anchors play each other, and
//! one Bradley-Terry fit puts them all on the first anchor's scale. The bot has no human games
//! to be calibrated on, so its levels are worth what they score against players that do not
//! change.

use crate::agent::Entrant;
use crate::ladder::LadderEvent;
use crate::rating::{BradleyTerry, RatingError, ResultTable};
use crate::runner::{Match, MatchError, MatchSettings};
use crate::spec::PlayerSpec;
use game::{Agent, AgentFailure, Planes};
use play::{Bot, Bundle, Level, LevelRating, PlayError, Runtime};
use std::path::Path;
use thiserror::Error;

/// How the levels' matches are played.
#[derive(Clone, Debug)]
pub struct LevelSettings {
    /// Games of each pairing (even: each opening with both colours).
    pub games_per_pair: u32,
    pub threads: usize,
    pub opening_moves: usize,
    pub seed: u64,
}

#[derive(Debug, Error)]
pub enum LevelsError {
    #[error("{a} vs {b}: {source}")]
    Match {
        a: String,
        b: String,
        source: MatchError,
    },
    #[error(transparent)]
    Rating(#[from] RatingError),
    #[error("levels need at least one anchor to be rated against")]
    NoAnchors,
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

/// Rates `levels` (weakest first) of the bundle in `dir` against `anchors` in games of
/// `options`, and returns each level's rating on the first anchor's scale.
pub fn rate_levels<G: Planes>(
    dir: &Path,
    levels: &[Level],
    anchors: &[PlayerSpec],
    options: &G::Options,
    settings: &LevelSettings,
    on_event: &mut dyn FnMut(LadderEvent),
) -> Result<Vec<LevelRating>, LevelsError> {
    let first_anchor = anchors.first().ok_or(LevelsError::NoAnchors)?;
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
    for level in &at_levels {
        entrants.push(level);
    }
    for anchor in anchors {
        entrants.push(anchor);
    }
    let schedule = schedule(levels.len(), anchors.len());
    let mut table = ResultTable::new();
    for entrant in &entrants {
        table.add_player(&entrant.name());
    }
    for (index, &(a, b)) in schedule.iter().enumerate() {
        let (a, b) = (entrants[a], entrants[b]);
        let (a_name, b_name) = (a.name(), b.name());
        on_event(LadderEvent::Pairing {
            index,
            total: schedule.len(),
            a: &a_name,
            b: &b_name,
        });
        let game_match = Match::<G> {
            options: options.clone(),
            a,
            b,
            settings: MatchSettings {
                games: settings.games_per_pair,
                threads: settings.threads,
                opening_moves: settings.opening_moves,
                sprt: None,
                seed: settings.seed.wrapping_add(index as u64),
            },
        };
        let result = game_match
            .run(&mut |record| on_event(LadderEvent::Game(record)))
            .map_err(|source| LevelsError::Match {
                a: a_name.clone(),
                b: b_name.clone(),
                source,
            })?;
        table.record(&a_name, &b_name, result.wdl);
    }
    let ratings = BradleyTerry::new(&first_anchor.name()).fit(&table)?;
    let anchor_names: Vec<String> = anchors.iter().map(PlayerSpec::name).collect();
    Ok(ratings[..levels.len()]
        .iter()
        .map(|rating| LevelRating {
            elo: rating.elo,
            low: rating.lower,
            high: rating.upper,
            anchors: anchor_names.clone(),
            games: rating.games,
        })
        .collect())
}

/// The pairings of `levels` levels (entrants `0..levels`, weakest first) and `anchors`
/// anchors (the entrants after them): every level against every anchor, each level against
/// the next one up, and each anchor against the next one, so that adjacent levels are told
/// apart by their own games and the anchors share one scale.
fn schedule(levels: usize, anchors: usize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for level in 0..levels {
        for anchor in 0..anchors {
            pairs.push((level, levels + anchor));
        }
    }
    for level in 1..levels {
        pairs.push((level - 1, level));
    }
    for anchor in 1..anchors {
        pairs.push((levels + anchor - 1, levels + anchor));
    }
    pairs
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

    #[test]
    fn every_level_meets_every_anchor_and_its_neighbours() {
        let pairs = schedule(3, 2);
        // Levels 0..3, anchors 3 and 4.
        for level in 0..3 {
            assert!(pairs.contains(&(level, 3)) && pairs.contains(&(level, 4)));
        }
        assert!(pairs.contains(&(0, 1)) && pairs.contains(&(1, 2)));
        assert!(!pairs.contains(&(0, 2)), "only neighbours: {pairs:?}");
        assert!(pairs.contains(&(3, 4)));
        assert_eq!(pairs.len(), 3 * 2 + 2 + 1);
    }

    fn rated(elo: f64, half_width: f64) -> LevelRating {
        LevelRating {
            elo,
            low: elo - half_width,
            high: elo + half_width,
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
