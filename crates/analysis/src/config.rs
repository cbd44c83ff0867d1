//! KataGo's analysis config file (`-config FILE`, `-override-config K=V,...`), read as KataGo
//! reads it: `key = value` lines, `#` comments. The settings this engine has are taken; every
//! other key is named in a warning and ignored, so that KataGo's own configs work unchanged.

use crate::report::Perspective;
use game::{Game, Side, parse_colour};

/// What a KataGo config sets that this engine uses; `None` where it says nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KataGoConfig {
    /// `maxVisits`.
    pub visits: Option<u32>,
    /// `numAnalysisThreads`: positions searched at once.
    pub positions_in_flight: Option<usize>,
    /// `numSearchThreadsPerAnalysisThread`: leaves one position adds to a batch.
    pub leaves_per_position: Option<u32>,
    /// `nnMaxBatchSize`.
    pub max_batch: Option<usize>,
    /// `reportAnalysisWinratesAs`.
    pub perspective: Option<Perspective>,
    /// `analysisPVLen`.
    pub pv_len: Option<usize>,
    /// `nnRandSeed`, where it is a number.
    pub seed: Option<u64>,
    /// One line per key that was ignored.
    pub warnings: Vec<String>,
}

/// Keys that only tune KataGo's own machinery (logs, caches, threads of its GPU backends):
/// ignored with a warning like any other unknown key, listed here only so that the warning
/// can say they have no counterpart.
const KATAGO_ONLY: &[&str] = &[
    "logDir",
    "logFile",
    "logAllRequests",
    "logAllResponses",
    "logErrorsAndWarnings",
    "logSearchInfo",
    "logToStderr",
    "nnCacheSizePowerOfTwo",
    "nnMutexPoolSizePowerOfTwo",
    "numNNServerThreadsPerModel",
    "nnRandomize",
    "cudaUseFP16",
    "cudaUseNHWC",
    "openclUseFP16",
    "trtPrecision",
    "homeDataDir",
];

impl KataGoConfig {
    /// Reads a config file's text, then `overrides` (`key=value` pairs separated by commas,
    /// KataGo's `-override-config`), for game `G` (whose colours `reportAnalysisWinratesAs`
    /// may also name). `source` names the text in errors.
    pub fn parse<G: Game>(text: &str, overrides: &str, source: &str) -> Result<Self, String> {
        let mut config = KataGoConfig::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let (key, value) = line.split_once('=').ok_or_else(|| {
                format!(
                    "{source} line {}: `{line}` is not `key = value`",
                    number + 1
                )
            })?;
            config.set::<G>(
                key.trim(),
                value.trim(),
                &format!("{source} line {}", number + 1),
            )?;
        }
        for pair in overrides
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("-override-config: `{pair}` is not `key=value`"))?;
            config.set::<G>(key.trim(), value.trim(), "-override-config")?;
        }
        Ok(config)
    }

    fn set<G: Game>(&mut self, key: &str, value: &str, place: &str) -> Result<(), String> {
        fn number<T: std::str::FromStr>(key: &str, value: &str, place: &str) -> Result<T, String> {
            value
                .parse()
                .map_err(|_| format!("{place}: {key} = `{value}` is not a whole number"))
        }
        let at_least_one = |n: usize| {
            if n == 0 {
                Err(format!("{place}: {key} must be at least 1"))
            } else {
                Ok(n)
            }
        };
        match key {
            "maxVisits" => self.visits = Some(at_least_one(number(key, value, place)?)? as u32),
            "numAnalysisThreads" => {
                self.positions_in_flight = Some(at_least_one(number(key, value, place)?)?);
            }
            "numSearchThreadsPerAnalysisThread" | "numSearchThreads" => {
                self.leaves_per_position = Some(at_least_one(number(key, value, place)?)? as u32);
            }
            "nnMaxBatchSize" => self.max_batch = Some(at_least_one(number(key, value, place)?)?),
            "analysisPVLen" => self.pv_len = Some(number(key, value, place)?),
            "nnRandSeed" => self.seed = value.parse().ok(),
            "reportAnalysisWinratesAs" => {
                self.perspective = Some(match value.to_ascii_uppercase().as_str() {
                    "SIDETOMOVE" => Perspective::SideToMove,
                    "BLACK" => Perspective::Side(Side::First),
                    "WHITE" => Perspective::Side(Side::Second),
                    _ => Perspective::Side(parse_colour::<G>(value).map_err(|_| {
                        format!(
                            "{place}: reportAnalysisWinratesAs = `{value}`: write BLACK, WHITE \
                             or SIDETOMOVE"
                        )
                    })?),
                });
            }
            _ if KATAGO_ONLY.contains(&key) => self.warnings.push(format!(
                "{place}: `{key}` tunes KataGo's own machinery and has no counterpart here; ignored"
            )),
            _ => self
                .warnings
                .push(format!("{place}: unknown setting `{key}`, ignored")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ghodak::Ghodak;

    #[test]
    fn reads_katagos_settings_and_warns_of_the_rest() {
        let text = "# analysis\nmaxVisits = 500\nnumAnalysisThreads = 32 # positions\n\
                    reportAnalysisWinratesAs = BLACK\nnnCacheSizePowerOfTwo = 23\nwideRootNoise = 0.0\n";
        let config =
            KataGoConfig::parse::<Ghodak>(text, "maxVisits=40, analysisPVLen=7", "a.cfg").unwrap();
        assert_eq!(config.visits, Some(40), "the override wins");
        assert_eq!(config.positions_in_flight, Some(32));
        assert_eq!(config.pv_len, Some(7));
        assert_eq!(config.perspective, Some(Perspective::Side(Side::First)));
        assert_eq!(config.warnings.len(), 2, "{:?}", config.warnings);
        assert!(config.warnings[0].contains("a.cfg line 5: `nnCacheSizePowerOfTwo`"));
        assert!(config.warnings[1].contains("unknown setting `wideRootNoise`"));
    }

    #[test]
    fn bad_lines_and_values_are_errors_naming_them() {
        for (text, overrides, wanted) in [
            ("maxVisits 5", "", "a.cfg line 1"),
            ("maxVisits = lots", "", "`lots` is not a whole number"),
            ("numAnalysisThreads = 0", "", "at least 1"),
            (
                "reportAnalysisWinratesAs = GREEN",
                "",
                "BLACK, WHITE or SIDETOMOVE",
            ),
            ("", "maxVisits", "-override-config: `maxVisits`"),
        ] {
            let error = KataGoConfig::parse::<Ghodak>(text, overrides, "a.cfg").unwrap_err();
            assert!(error.contains(wanted), "{text}: {error}");
        }
    }
}
