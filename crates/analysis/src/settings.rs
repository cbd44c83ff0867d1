//! What a search of one position is asked for: the engine's defaults (its KataGo config), with
//! a query's `overrideSettings` on top, both in KataGo's names ([`SearchSettings::set`]); and
//! what a query asks of each of its turns ([`Asked`]).

use game::{Game, Side, parse_colour};
use mcts::SearchConfig;
use std::time::Duration;

/// Whose view results are given from: KataGo's `reportAnalysisWinratesAs`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// The side to move at the analysed position (KataGo's `SIDETOMOVE`, its default).
    SideToMove,
    /// Always this side (`BLACK` is the first side, `WHITE` the second).
    Side(Side),
}

impl Perspective {
    /// +1 where the view is the side to move's, -1 where it is the other side's.
    pub(crate) fn sign(self, to_move: Side) -> f64 {
        match self {
            Perspective::Side(side) if side != to_move => -1.0,
            _ => 1.0,
        }
    }
}

/// How one position is searched and reported.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSettings {
    /// KataGo's `maxVisits` (and `maxPlayouts`: a search here starts from no tree).
    pub visits: u32,
    /// KataGo's `maxTime`: the search stops there with the visits it has.
    pub max_time: Option<Duration>,
    pub perspective: Perspective,
    /// Moves in a principal variation after its first, at most (`analysisPVLen`).
    pub pv_len: usize,
    pub search: SearchConfig,
}

/// What [`SearchSettings::set`] made of a key.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    /// The key's value is the search's now.
    Taken,
    /// The key is KataGo's but has no counterpart here (or only at its neutral value, which
    /// this value is not): the search goes on without it, and this says why.
    NotSupported(String),
    /// Not a key of KataGo's search.
    Unknown,
}

/// KataGo's keys that `set` reads.
pub const KEYS: &[&str] = &[
    "maxVisits",
    "maxPlayouts",
    "maxTime",
    "reportAnalysisWinratesAs",
    "analysisPVLen",
    "cpuctExploration",
    "cpuctExplorationLog",
    "cpuctUtilityStdevScale",
    "fpuReductionMax",
    "rootNoiseEnabled",
    "rootDirichletNoiseTotalConcentration",
    "rootDirichletNoiseWeight",
    "lcbStdevs",
    "numSearchThreads",
    "numSearchThreadsPerAnalysisThread",
    "wideRootNoise",
    "rootPolicyTemperature",
    "playoutDoublingAdvantage",
    "winLossUtilityFactor",
    "staticScoreUtilityFactor",
    "dynamicScoreUtilityFactor",
    "rootFpuReductionMax",
];

impl SearchSettings {
    /// Sets KataGo's `key` to `value`, written as a config file writes it (a JSON value's
    /// text); `G`'s colours may name the perspective too. A value out of its range is an
    /// error naming the key.
    pub fn set<G: Game>(&mut self, key: &str, value: &str) -> Result<Setting, String> {
        let bad = |what: &str| format!("{key} = `{value}`: {what}");
        let number = || -> Result<f64, String> {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad("not a number"))
        };
        let at_least = |least: f64| -> Result<f64, String> {
            let v = number()?;
            (v >= least)
                .then_some(v)
                .ok_or_else(|| bad(&format!("must be at least {least}")))
        };
        let whole = || -> Result<u32, String> {
            let v = at_least(1.0)?;
            (v.fract() == 0.0 && v <= f64::from(u32::MAX))
                .then_some(v as u32)
                .ok_or_else(|| bad("must be a whole number"))
        };
        let neutral = |neutral: f64, why: &str| -> Result<Setting, String> {
            Ok(if number()? == neutral {
                Setting::Taken
            } else {
                Setting::NotSupported(why.to_owned())
            })
        };
        match key {
            "maxVisits" | "maxPlayouts" => self.visits = whole()?,
            "maxTime" => {
                let seconds = at_least(0.0)?;
                // KataGo's own "no limit" is 1e20 seconds.
                self.max_time = (seconds < 1e9).then(|| Duration::from_secs_f64(seconds));
            }
            "reportAnalysisWinratesAs" => {
                self.perspective = match value.to_ascii_uppercase().as_str() {
                    "SIDETOMOVE" => Perspective::SideToMove,
                    "BLACK" => Perspective::Side(Side::First),
                    "WHITE" => Perspective::Side(Side::Second),
                    _ => Perspective::Side(
                        parse_colour::<G>(value)
                            .map_err(|_| bad("write BLACK, WHITE or SIDETOMOVE"))?,
                    ),
                }
            }
            "analysisPVLen" => self.pv_len = at_least(0.0)? as usize,
            "cpuctExploration" => self.search.c_puct = at_least(0.0)? as f32,
            "cpuctExplorationLog" => self.search.c_puct_log = at_least(0.0)? as f32,
            "cpuctUtilityStdevScale" => self.search.c_puct_stdev_scale = at_least(0.0)? as f32,
            "fpuReductionMax" => self.search.fpu_reduction = at_least(0.0)? as f32,
            "rootNoiseEnabled" => {
                self.search.root_noise = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("must be true or false")),
                }
            }
            "rootDirichletNoiseTotalConcentration" => {
                self.search.dirichlet_total_alpha = at_least(0.0)? as f32;
            }
            "rootDirichletNoiseWeight" => {
                let weight = at_least(0.0)?;
                if weight > 1.0 {
                    return Err(bad("must be at most 1"));
                }
                self.search.noise_fraction = weight as f32;
            }
            "lcbStdevs" => self.search.lcb_stdevs = at_least(0.0)? as f32,
            "numSearchThreads" | "numSearchThreadsPerAnalysisThread" => {
                self.search.leaves_per_tree = whole()?;
            }
            "wideRootNoise" => {
                return neutral(0.0, "this search has no wide root noise (0 only)");
            }
            "rootPolicyTemperature" => {
                return neutral(1.0, "this search keeps the root's policy as it is (1 only)");
            }
            "playoutDoublingAdvantage" => {
                return neutral(0.0, "the networks here are not trained for it (0 only)");
            }
            "winLossUtilityFactor" => {
                return neutral(1.0, "this search weighs the win and the loss as 1 and -1");
            }
            "staticScoreUtilityFactor" | "dynamicScoreUtilityFactor" => {
                return Ok(Setting::NotSupported(
                    "the score's weight is the bot's own (its search.score_utility)".to_owned(),
                ));
            }
            "rootFpuReductionMax" => {
                return neutral(
                    f64::from(self.search.fpu_reduction),
                    "the root's first-play reduction is the search's fpuReductionMax",
                );
            }
            _ => return Ok(Setting::Unknown),
        }
        Ok(Setting::Taken)
    }
}

/// What a query asks of every one of its turns.
#[derive(Debug)]
pub(crate) struct Asked {
    pub id: String,
    pub settings: SearchSettings,
    pub include_policy: bool,
    pub include_ownership: bool,
    pub include_moves_ownership: bool,
    pub include_pv_visits: bool,
    pub report_every: Option<Duration>,
}

impl Asked {
    /// Whether the search keeps the ownership of what it evaluates.
    pub fn wants_ownership(&self) -> bool {
        self.include_ownership || self.include_moves_ownership
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ghodak::Ghodak;

    fn settings() -> SearchSettings {
        SearchSettings {
            visits: 100,
            max_time: None,
            perspective: Perspective::SideToMove,
            pv_len: 15,
            search: SearchConfig::play(),
        }
    }

    #[test]
    fn katagos_keys_set_the_search() {
        let mut s = settings();
        for (key, value) in [
            ("maxVisits", "40"),
            ("maxTime", "2.5"),
            ("reportAnalysisWinratesAs", "WHITE"),
            ("analysisPVLen", "3"),
            ("cpuctExploration", "0.9"),
            ("cpuctExplorationLog", "0.45"),
            ("cpuctUtilityStdevScale", "0.85"),
            ("rootNoiseEnabled", "true"),
            ("numSearchThreads", "4"),
            ("wideRootNoise", "0"),
        ] {
            assert_eq!(s.set::<Ghodak>(key, value), Ok(Setting::Taken), "{key}");
        }
        assert_eq!(s.visits, 40);
        assert_eq!(s.max_time, Some(Duration::from_millis(2500)));
        assert_eq!(s.perspective, Perspective::Side(Side::Second));
        assert_eq!(
            (s.pv_len, s.search.c_puct, s.search.root_noise),
            (3, 0.9, true)
        );
        assert_eq!(
            (s.search.c_puct_log, s.search.c_puct_stdev_scale),
            (0.45, 0.85)
        );
        assert_eq!(s.search.leaves_per_tree, 4);
        s.set::<Ghodak>("maxTime", "1e20").unwrap();
        assert_eq!(s.max_time, None, "KataGo's no limit");
    }

    #[test]
    fn what_is_not_supported_or_unknown_says_so_and_bad_values_are_errors() {
        let mut s = settings();
        assert!(matches!(
            s.set::<Ghodak>("wideRootNoise", "0.04"),
            Ok(Setting::NotSupported(_))
        ));
        assert!(matches!(
            s.set::<Ghodak>("playoutDoublingAdvantage", "1.5"),
            Ok(Setting::NotSupported(_))
        ));
        assert_eq!(s.set::<Ghodak>("colour", "x"), Ok(Setting::Unknown));
        for (key, value) in [
            ("maxVisits", "0"),
            ("maxVisits", "1.5"),
            ("maxTime", "-1"),
            ("cpuctExploration", "lots"),
            ("reportAnalysisWinratesAs", "GREEN"),
            ("rootNoiseEnabled", "1"),
            ("rootDirichletNoiseWeight", "2"),
        ] {
            let error = s.set::<Ghodak>(key, value).unwrap_err();
            assert!(error.starts_with(&format!("{key} = `{value}`")), "{error}");
        }
        assert_eq!(s, settings(), "nothing set by a refused value");
    }
}
