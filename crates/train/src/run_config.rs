use crate::{EvaluationConfig, TrainerConfig};
use nn::Preset;
use replay::WindowConfig;
use selfplay::SelfplayConfig;
use serde::{Deserialize, Serialize};

/// A whole run configuration (a TOML file under configs/). Every table but `[game]` and
/// `[network]` may be left out for its defaults; an unknown field anywhere is an error that
/// names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig<O> {
    /// The game's options (for Ghast: size, win_margin, komi, vetoes, max_turns, tile).
    pub game: O,
    pub network: NetworkConfig,
    #[serde(default)]
    pub selfplay: SelfplayConfig,
    /// The replay window (KataGo's power law over positions produced).
    #[serde(default)]
    pub window: WindowConfig,
    #[serde(default)]
    pub training: TrainerConfig,
    /// Baseline matches and gating inside the loop.
    #[serde(default)]
    pub evaluation: EvaluationConfig,
    #[serde(default)]
    pub run: RunLimits,
}

/// The network trained from scratch when a run starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    /// `tiny` (2x16), `small` (6x64) or `standard` (10x128).
    pub preset: Preset,
}

/// When the run stops, and what it writes how often.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunLimits {
    /// Stop after this many minutes of this process (0: no limit).
    pub minutes: f64,
    /// Stop once this generation is written (0: no limit).
    pub generations: u64,
    /// Finished games per replay shard. Games finished since the last shard survive a kill in
    /// the journal, so this trades file count against nothing but listing cost.
    pub games_per_shard: usize,
    /// Seed of the network's initial weights and of every random choice.
    pub seed: u64,
}

impl Default for RunLimits {
    fn default() -> Self {
        Self {
            minutes: 0.0,
            generations: 0,
            games_per_shard: 50,
            seed: 1,
        }
    }
}
