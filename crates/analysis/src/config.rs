//! KataGo's analysis config file (`-config FILE`, `-override-config K=V,...`), read as KataGo
//! reads it: `key = value` lines, `#` comments. The settings this engine has are taken; every
//! other key is named in a warning and ignored, so that KataGo's own configs work unchanged.

use crate::settings::{KEYS, SearchSettings, Setting};
use game::Game;

/// What a KataGo config sets of the engine itself; `None` where it says nothing. Its search
/// settings go into the [`SearchSettings`] it is read onto.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KataGoConfig {
    /// `numAnalysisThreads`: positions searched at once.
    pub positions_in_flight: Option<usize>,
    /// `nnMaxBatchSize`.
    pub max_batch: Option<usize>,
    /// `nnCacheSizePowerOfTwo`, as the count of positions it makes.
    pub cache_entries: Option<usize>,
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
    /// may also name); the search's keys are set in `search`. `source` names the text in
    /// errors.
    pub fn parse<G: Game>(
        text: &str,
        overrides: &str,
        source: &str,
        search: &mut SearchSettings,
    ) -> Result<Self, String> {
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
                search,
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
            config.set::<G>(key.trim(), value.trim(), "-override-config", search)?;
        }
        Ok(config)
    }

    fn set<G: Game>(
        &mut self,
        key: &str,
        value: &str,
        place: &str,
        search: &mut SearchSettings,
    ) -> Result<(), String> {
        let at_least_one = || -> Result<usize, String> {
            match value.parse::<usize>() {
                Ok(0) => Err(format!("{place}: {key} must be at least 1")),
                Ok(n) => Ok(n),
                Err(_) => Err(format!("{place}: {key} = `{value}` is not a whole number")),
            }
        };
        match key {
            "numAnalysisThreads" => self.positions_in_flight = Some(at_least_one()?),
            "nnMaxBatchSize" => self.max_batch = Some(at_least_one()?),
            "nnRandSeed" => self.seed = value.parse().ok(),
            "nnCacheSizePowerOfTwo" => {
                let power = value
                    .parse::<u32>()
                    .ok()
                    .filter(|&power| power <= 30)
                    .ok_or_else(|| format!("{place}: {key} = `{value}`: expected 0 to 30"))?;
                self.cache_entries = Some(1 << power);
            }
            _ if KEYS.contains(&key) => match search.set::<G>(key, value) {
                Ok(Setting::Taken) => {}
                Ok(Setting::NotSupported(why)) => self.warnings.push(format!(
                    "{place}: `{key}` = {value} is not supported: {why}; ignored"
                )),
                Ok(Setting::Unknown) => unreachable!("a key of the search's"),
                Err(why) => return Err(format!("{place}: {why}")),
            },
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
    use crate::settings::Perspective;
    use game::Side;
    use ghodak::Ghodak;
    use mcts::SearchConfig;

    fn search() -> SearchSettings {
        SearchSettings {
            visits: 100,
            max_time: None,
            perspective: Perspective::SideToMove,
            pv_len: 15,
            search: SearchConfig::play(),
        }
    }

    #[test]
    fn reads_katagos_settings_and_warns_of_the_rest() {
        let text = "# analysis\nmaxVisits = 500\nnumAnalysisThreads = 32 # positions\n\
                    reportAnalysisWinratesAs = BLACK\nlogDir = x\nwideRootNoise = 0.04\nnnCacheSizePowerOfTwo = 12\n";
        let mut search = search();
        let config = KataGoConfig::parse::<Ghodak>(
            text,
            "maxVisits=40, analysisPVLen=7",
            "a.cfg",
            &mut search,
        )
        .unwrap();
        assert_eq!(search.visits, 40, "the override wins");
        assert_eq!(config.positions_in_flight, Some(32));
        assert_eq!(search.pv_len, 7);
        assert_eq!(search.perspective, Perspective::Side(Side::First));
        assert_eq!(config.warnings.len(), 2, "{:?}", config.warnings);
        assert!(config.warnings[0].contains("a.cfg line 5: `logDir`"));
        assert_eq!(config.cache_entries, Some(4096));
        assert!(
            config.warnings[1].contains("a.cfg line 6: `wideRootNoise` = 0.04 is not supported")
        );
    }

    #[test]
    fn bad_lines_and_values_are_errors_naming_them() {
        for (text, overrides, wanted) in [
            ("maxVisits 5", "", "a.cfg line 1"),
            ("maxVisits = lots", "", "a.cfg line 1: maxVisits = `lots`"),
            ("numAnalysisThreads = 0", "", "at least 1"),
            (
                "reportAnalysisWinratesAs = GREEN",
                "",
                "BLACK, WHITE or SIDETOMOVE",
            ),
            ("", "maxVisits", "-override-config: `maxVisits`"),
        ] {
            let error =
                KataGoConfig::parse::<Ghodak>(text, overrides, "a.cfg", &mut search()).unwrap_err();
            assert!(error.contains(wanted), "{text}: {error}");
        }
    }
}
