use game::Side;
use mcts::{ResignRule, SearchConfig, TemperatureSchedule};
use serde::{Deserialize, Serialize};

/// How self-play games are played: the `[selfplay]` table of a run configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfplayConfig {
    /// Worker threads, each with its own games (and, without an inference server, its own
    /// copy of the network).
    pub workers: usize,
    /// How the workers reach the network: see [`Inference`].
    pub inference: Inference,
    /// Games each worker keeps in flight.
    pub games_in_flight: usize,
    /// Batches each worker keeps in flight through an inference server: its games are split
    /// into this many lanes, and while the device evaluates one lane's leaves the worker
    /// walks the others' trees (KataGo's two batches in flight per search thread). 1 waits
    /// for every batch. A worker with its own copy of the network (on the CPU) evaluates on
    /// its own thread, so there it is always 1.
    pub batches_in_flight: usize,
    /// Root visits of a full search, whose visit counts become a policy target.
    pub full_visits: u32,
    /// Root visits of a cheap search (playout cap randomisation, KataGo): it only picks the
    /// move, so games get longer searches where they teach the policy and short ones elsewhere.
    pub cheap_visits: u32,
    /// Probability that a move gets a full search.
    pub full_search_probability: f64,
    /// Positions the evaluation cache of each worker remembers (KataGo's NN cache): a
    /// position reached again (a transposition, or the same opening in another game) costs
    /// no network evaluation. Memory: this many times the action count times 4 bytes.
    pub eval_cache: usize,
    /// Up to this many uniformly random decisions open each game (the number itself is drawn
    /// uniformly from 0 to this), so games start from varied positions: the referee's
    /// [`game::Opening`], which never ends the game and finishes the move it stops in.
    pub random_opening_moves: u32,
    pub temperature: TemperatureSchedule,
    pub resign: ResignConfig,
    /// Games in which one side plays worse on purpose: see [`Handicap`].
    pub handicap: Handicap,
    /// A folder of records whose positions games may start from ([`crate::StartPositions`]):
    /// SGF files for a game SGF records (Go), `ghast arena --out` move files for every game.
    /// Each self-play machine reads it from its own disk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_positions: Option<std::path::PathBuf>,
    /// The share of games that start from a position of those records (0: none).
    pub start_position_share: f64,
    /// Board sizes self-play mixes (KataGo's `bSizes`), the run's own (`[game] size`) among
    /// them: one network learns them all, and what a small board teaches cheaply carries to
    /// the large one. Empty: the run's own board only. Each size's games go to shards of its
    /// own; the run rates, gates and exports its own size.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<u32>,
    /// Each of `sizes`' share of the games, in its order (any positive numbers, normalised);
    /// empty: equal shares.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub size_shares: Vec<f64>,
    /// The share of one core a reanalyse thread spends (MuZero Reanalyze, LightZero's
    /// `reanalyze_ratio`; 0: none). It searches the window's oldest games again with the
    /// newest network, as self-play's full searches do, and stores them with the fresh policy
    /// targets: an old game's positions stay in the window with the targets a better net's
    /// search gives, at the cost of the self-play that core would have played.
    pub reanalyse_share: f64,
    /// The search itself (root noise applies to full searches only).
    pub search: SearchConfig,
}

/// How self-play threads reach the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Inference {
    /// An inference server on a GPU (or a simulated accelerator); copies per thread on a CPU.
    #[default]
    Auto,
    /// One network on the device, serving every thread's leaves in merged batches while the
    /// threads search: what a GPU wants, whose throughput grows with the batch.
    Server,
    /// A copy of the network in each thread, which evaluates its own batches: no hand-off
    /// between threads, the faster choice on a CPU.
    PerThread,
}

impl Inference {
    /// Whether to run a server, on an accelerator (a GPU, or a simulated one) or not.
    pub fn uses_server(self, accelerator: bool) -> bool {
        match self {
            Inference::Auto => accelerator,
            Inference::Server => true,
            Inference::PerThread => false,
        }
    }
}

/// When a side gives up, and how often games are played through anyway to check that
/// giving up was right.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResignConfig {
    /// A side resigns when its searched game value (win minus loss probability, no score
    /// term) stays below this...
    pub threshold: f64,
    /// ...for this many of its moves in a row (0 turns resignation off).
    pub consecutive_moves: u32,
    /// Share of games that never resign; the would-have-resigned outcomes of these games
    /// measure how often resigning throws away a game that was not lost.
    pub playthrough_fraction: f64,
    /// Above 0: the threshold is calibrated from the played-through games instead (AlphaGo
    /// Zero), as high as `threshold` but no higher than keeps this share of would-be
    /// resignations, of games the side did not lose, or fewer; no game resigns, and every
    /// game is played through, until 20 would-be resignations are known. 0: `threshold` is
    /// fixed.
    pub false_positive_target: f64,
}

impl ResignConfig {
    /// When a side gives up, the rule a bot in play follows too.
    pub fn rule(&self) -> ResignRule {
        ResignRule {
            threshold: self.threshold,
            consecutive_moves: self.consecutive_moves,
        }
    }
}

impl Default for ResignConfig {
    fn default() -> Self {
        Self {
            threshold: -0.9,
            consecutive_moves: 3,
            playthrough_fraction: 0.1,
            false_positive_target: 0.0,
        }
    }
}

/// Handicap games: in a share of the games, one side replaces some of its searched decisions
/// by uniformly random ones, each game at its own rate drawn uniformly from
/// `random_decisions`, so that the handicapped side ranges from nearly its best to nearly
/// random. Where self-play between equals is decided by the colours (Ghost Chess's White wins
/// every game), the other side's value target says "lost" whatever it does and teaches it
/// nothing; against a side that blunders, its play decides its result, and it learns to take
/// what it is given (as KataGo's handicap games teach play far from even). Every decision
/// keeps its search's policy target, the random ones too.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Handicap {
    /// The side that gets the handicap: `none` (no handicap games), `first` or `second`.
    pub side: HandicapSide,
    /// Share of games played with the handicap.
    pub games: f64,
    /// The range, `[least, most]`, of a handicap game's rate: the probability that a decision
    /// of the handicapped side is a uniformly random legal one instead of its search's choice.
    pub random_decisions: [f64; 2],
}

/// Which side a handicap game weakens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HandicapSide {
    #[default]
    None,
    First,
    Second,
}

impl HandicapSide {
    /// The side weakened, if any.
    pub fn side(self) -> Option<Side> {
        match self {
            HandicapSide::None => None,
            HandicapSide::First => Some(Side::First),
            HandicapSide::Second => Some(Side::Second),
        }
    }
}

impl Default for SelfplayConfig {
    fn default() -> Self {
        Self {
            workers: 1,
            inference: Inference::Auto,
            games_in_flight: 32,
            batches_in_flight: 2,
            full_visits: 100,
            cheap_visits: 20,
            full_search_probability: 0.25,
            eval_cache: 1 << 15,
            random_opening_moves: 2,
            temperature: TemperatureSchedule::default(),
            resign: ResignConfig::default(),
            handicap: Handicap::default(),
            start_positions: None,
            start_position_share: 0.0,
            sizes: Vec::new(),
            size_shares: Vec::new(),
            reanalyse_share: 0.0,
            search: SearchConfig::default(),
        }
    }
}

impl SelfplayConfig {
    /// This config for a worker that evaluates on its own thread (a copy of the network
    /// each): one batch in flight, since nothing would evaluate the others meanwhile.
    pub fn evaluating_on_own_thread(mut self) -> Self {
        self.batches_in_flight = 1;
        self
    }

    /// The largest forward pass of one inference server for `workers` threads. With one
    /// batch in flight per thread, room for every thread's games at once, so that the server
    /// can merge all their batches into one pass. With two or more, half of them (KataGo's
    /// advice for pipelining: a batch of half the search threads): a pass that took every
    /// game would leave no thread anything to search while it runs, and the device nothing
    /// to run after it; capped at half, the device runs one half of the games while the
    /// threads search the other (measured in BENCHMARKS.md: device busy 0.80 uncapped, 0.90
    /// capped, on a simulated H100).
    pub fn served_batch(&self, workers: usize) -> usize {
        let games = workers.max(1) * self.games_in_flight;
        let share = if self.batches_in_flight > 1 { 2 } else { 1 };
        games.div_ceil(share).next_power_of_two()
    }

    /// Checks the bounds the types alone cannot; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        bounds::at_least_one("workers", self.workers)?;
        bounds::at_least_one("games_in_flight", self.games_in_flight)?;
        bounds::at_least_one("batches_in_flight", self.batches_in_flight)?;
        if self.batches_in_flight > self.games_in_flight {
            return Err(format!(
                "batches_in_flight = {}: expected at most games_in_flight ({}), a game or more a batch",
                self.batches_in_flight, self.games_in_flight
            ));
        }
        bounds::at_least_one("full_visits", self.full_visits)?;
        bounds::at_least_one("cheap_visits", self.cheap_visits)?;
        bounds::fraction("full_search_probability", self.full_search_probability)?;
        bounds::fraction(
            "resign.playthrough_fraction",
            self.resign.playthrough_fraction,
        )?;
        bounds::finite("resign.threshold", self.resign.threshold)?;
        bounds::fraction(
            "resign.false_positive_target",
            self.resign.false_positive_target,
        )?;
        bounds::fraction("handicap.games", self.handicap.games)?;
        bounds::fraction("start_position_share", self.start_position_share)?;
        if self.start_position_share > 0.0 && self.start_positions.is_none() {
            return Err(format!(
                "start_position_share = {}: games start from records only with a folder of \
                 them, start_positions = \"DIR\"",
                self.start_position_share
            ));
        }
        bounds::fraction("reanalyse_share", self.reanalyse_share)?;
        if !self.size_shares.is_empty() && self.size_shares.len() != self.sizes.len() {
            return Err(format!(
                "size_shares: {} shares for {} sizes; give one per size, or none for equal \
                 shares",
                self.size_shares.len(),
                self.sizes.len()
            ));
        }
        for (index, &share) in self.size_shares.iter().enumerate() {
            bounds::finite(&format!("size_shares[{index}]"), share)?;
            if share <= 0.0 {
                return Err(format!(
                    "size_shares[{index}] = {share}: expected a positive share"
                ));
            }
        }
        // Each size's shards are written under a writer id of its own, a hundred of them
        // below the reanalysed games' (`rundir::REANALYSED_WRITER_IDS`).
        if self.sizes.len() > 100 {
            return Err(format!(
                "sizes: {} sizes; a run mixes at most 100",
                self.sizes.len()
            ));
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(size) = self.sizes.iter().find(|&&size| !seen.insert(size)) {
            return Err(format!("sizes: {size} is listed twice"));
        }
        if self.search.opponent_random_decisions != 0.0 {
            return Err(
                "search.opponent_random_decisions: self-play expects random decisions \
                        only of a handicapped side ([selfplay.handicap]); set the bot's in \
                        [bot]"
                    .to_owned(),
            );
        }
        let [least, most] = self.handicap.random_decisions;
        bounds::fraction("handicap.random_decisions[0]", least)?;
        bounds::fraction("handicap.random_decisions[1]", most)?;
        if least > most {
            return Err(format!(
                "handicap.random_decisions: [{least}, {most}] is no range (least above most)"
            ));
        }
        self.temperature
            .validate()
            .map_err(|e| format!("temperature: {e}"))?;
        self.search
            .validate_guided()
            .map_err(|e| format!("search: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_false_positive_target_is_a_share() {
        let mut config = SelfplayConfig::default();
        config.resign.false_positive_target = 0.05;
        assert_eq!(config.validate(), Ok(()));
        config.resign.false_positive_target = 1.5;
        let error = config.validate().unwrap_err();
        assert!(error.contains("resign.false_positive_target"), "{error}");
    }

    #[test]
    fn self_play_searches_with_the_network_so_ucb1_is_refused() {
        let mut config = SelfplayConfig::default();
        config.search.formula = mcts::Formula::Ucb1;
        let error = config.validate().unwrap_err();
        assert!(error.contains("search: formula = \"ucb1\""), "{error}");
    }

    #[test]
    fn a_server_has_room_for_every_threads_games_or_half_of_them_when_pipelined() {
        let config = SelfplayConfig {
            games_in_flight: 256,
            ..SelfplayConfig::default()
        };
        let waiting = config.clone().evaluating_on_own_thread();
        assert_eq!(waiting.served_batch(1), 256);
        assert_eq!(waiting.served_batch(3), 1024);
        assert_eq!(waiting.served_batch(4), 1024);
        assert_eq!(waiting.served_batch(12), 4096);
        // Pipelined, half of them.
        assert_eq!(config.batches_in_flight, 2);
        assert_eq!(config.served_batch(1), 128);
        assert_eq!(config.served_batch(3), 512);
        assert_eq!(config.served_batch(4), 512);
        let lanes = SelfplayConfig {
            batches_in_flight: 4,
            ..config
        };
        assert_eq!(lanes.served_batch(4), 512);
    }
}
