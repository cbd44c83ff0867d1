use crate::{EvaluationConfig, TrainerConfig};
use mcts::{Formula, MoveChoice, ResignRule, SearchConfig};
use nn::{NetSize, Preset};
use replay::WindowConfig;
use selfplay::{Boards, ResignConfig, SelfplayConfig};
use serde::{Deserialize, Serialize};

/// A whole run configuration (a TOML file under configs/). Every table but `[game]` and
/// `[network]` may be left out for its defaults; an unknown field anywhere is an error that
/// names it. `[game] name` says which game the options are for ([`game_name`]); it is read
/// before the rest, which is then parsed as that game's options.
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
    /// The bot `ghast train` exports from the final generation.
    #[serde(default)]
    pub bot: BotConfig,
}

impl<O: Clone + Serialize + serde::de::DeserializeOwned> RunConfig<O> {
    /// The boards self-play plays: `[game]`, and with `[selfplay] sizes` the game's options
    /// at each other size (every other option as `[game]`'s), with their shares. An error
    /// says what is wrong with `sizes`: a game without a `size` option, a list that leaves
    /// out the run's own size, or a size the game refuses.
    pub fn boards(&self) -> Result<Boards<O>, String> {
        let selfplay = &self.selfplay;
        if selfplay.sizes.is_empty() {
            return Ok(Boards::one(self.game.clone()));
        }
        let own = serde_json::to_value(&self.game).map_err(|e| e.to_string())?;
        let own_size = own
            .get("size")
            .and_then(serde_json::Value::as_u64)
            .ok_or("sizes: this game's options have no `size`")?;
        if !selfplay
            .sizes
            .iter()
            .any(|&size| u64::from(size) == own_size)
        {
            return Err(format!(
                "sizes = {:?} leaves out [game] size = {own_size}, the board the run rates and \
                 exports",
                selfplay.sizes
            ));
        }
        let share = |index: usize| selfplay.size_shares.get(index).copied().unwrap_or(1.0);
        let own_index = selfplay
            .sizes
            .iter()
            .position(|&size| u64::from(size) == own_size)
            .expect("checked above");
        let mut boards = vec![(self.game.clone(), share(own_index))];
        for (index, &size) in selfplay.sizes.iter().enumerate() {
            if index == own_index {
                continue;
            }
            let mut options = own.clone();
            options["size"] = size.into();
            let options =
                serde_json::from_value(options).map_err(|e| format!("sizes: size {size}: {e}"))?;
            boards.push((options, share(index)));
        }
        Boards::mix(boards).map_err(|e| format!("sizes: {e}"))
    }
}

/// How the exported bot (`RUN/bot`) plays: self-play's search ([`BotConfig::search`]) with
/// these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BotConfig {
    /// Search visits per move of the exported bot.
    pub visits: u32,
    /// How it reads its move off the search: `most_visits` or `lcb`.
    pub move_choice: MoveChoice,
    /// How the bot searches, `puct` or `gumbel`; left out, as self-play did
    /// (`[selfplay.search] formula`). A Gumbel root suits self-play's few visits; a Go bot
    /// searching 3,200 visits with a net whose policy is good plays far better with PUCT,
    /// which follows the policy deep (`models/ghodak9`: 57 of 80 against GNU Go level 10
    /// against 28 with a Gumbel root, BENCHMARKS.md).
    pub formula: Option<Formula>,
    /// The moves a Gumbel root considers in play; left out, self-play's
    /// (`[selfplay.search] gumbel_actions`). Self-play's few suit its small budget; a bot that
    /// searches hundreds of visits or more over a policy that has learned little (the standard
    /// board's tiny net) plays far better considering more of the moves: 48 instead of 16
    /// took `models/ghast-size6` at 1,600 visits from 66% to 89% against `uct:10000`
    /// (BENCHMARKS.md).
    pub gumbel_actions: Option<u32>,
    /// PUCT's exploration weight in the bot's search ([`SearchConfig::c_puct`]); left out,
    /// self-play's (`[selfplay.search] c_puct`).
    pub c_puct: Option<f32>,
    /// How the exploration weight grows with a node's visits
    /// ([`SearchConfig::c_puct_log`]); left out, self-play's. KataGo plays with 0.45: a
    /// search of thousands of visits keeps looking at its second choices.
    pub c_puct_log: Option<f32>,
    /// How the exploration weight follows the spread of a node's values
    /// ([`SearchConfig::c_puct_stdev_scale`]); left out, self-play's. KataGo plays with 0.85:
    /// positions whose lines disagree are searched wider, settled ones deeper.
    pub c_puct_stdev_scale: Option<f32>,
    /// In a game with hidden information, samples of the hidden part per search, sharing the
    /// visits ([`SearchConfig::hidden_samples`]).
    pub hidden_samples: u32,
    /// The share of the opponent's decisions the bot expects to be random blunders
    /// ([`SearchConfig::opponent_random_decisions`]; 0: none).
    pub opponent_random_decisions: f32,
    /// Whether the bot resigns lost games, by self-play's rule (`[selfplay.resign]`), whose
    /// false resignations the run measures in the games it plays through.
    pub resign: bool,
    /// Whether the bot's search leaves out the moves the game calls futile (Go: filling its
    /// own true eye; [`SearchConfig::skip_futile`]). Self-play's search is left as it is.
    pub skip_futile: bool,
    /// The bot plays the uniform average of the run's latest this many generations, with
    /// batch-norm statistics measured on the run's games (`ghast export --average`); 0 or 1:
    /// the latest generation alone. Self-play never plays the average. At most `[run]
    /// keep_newest_generations`, the generations a run keeps.
    pub averaged_generations: u64,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            visits: 800,
            move_choice: MoveChoice::MostVisits,
            formula: None,
            gumbel_actions: None,
            c_puct: None,
            c_puct_log: None,
            c_puct_stdev_scale: None,
            hidden_samples: 1,
            opponent_random_decisions: 0.0,
            resign: false,
            skip_futile: false,
            averaged_generations: 0,
        }
    }
}

impl BotConfig {
    /// The exported bot's search settings: it searches as self-play did (`selfplay`: the
    /// formula, its Gumbel settings and the weight of the score lead) as play runs a search
    /// ([`SearchConfig::for_play`]: no noise), reading its move as this table says. The
    /// network's policy was trained on that search's targets and its value under that utility;
    /// where they differ from the defaults (Fakerghast) the bot plays far better with them
    /// than with plain PUCT (BENCHMARKS.md).
    pub fn search(&self, selfplay: &SearchConfig) -> SearchConfig {
        SearchConfig {
            move_choice: self.move_choice,
            formula: self.formula.unwrap_or(selfplay.formula),
            gumbel_actions: self.gumbel_actions.unwrap_or(selfplay.gumbel_actions),
            c_puct: self.c_puct.unwrap_or(selfplay.c_puct),
            c_puct_log: self.c_puct_log.unwrap_or(selfplay.c_puct_log),
            c_puct_stdev_scale: self
                .c_puct_stdev_scale
                .unwrap_or(selfplay.c_puct_stdev_scale),
            hidden_samples: self.hidden_samples,
            opponent_random_decisions: self.opponent_random_decisions,
            skip_futile: self.skip_futile,
            ..selfplay.for_play()
        }
    }

    /// When the exported bot gives a game up: self-play's rule with its configured threshold
    /// (where self-play calibrates its own, the most eager it may get), or never.
    pub fn resignation(&self, selfplay: &ResignConfig) -> ResignRule {
        if self.resign {
            selfplay.rule()
        } else {
            ResignRule::NEVER
        }
    }
}

/// The game a configuration names in `[game] name`; `None` when it is left out (the
/// registry's default game then: configurations predate the other games).
pub fn game_name(text: &str) -> Result<Option<String>, String> {
    let table: toml::Table = toml::from_str(text).map_err(|error| error.to_string())?;
    match table.get("game").and_then(|game| game.get("name")) {
        None => Ok(None),
        Some(toml::Value::String(name)) => Ok(Some(name.clone())),
        Some(other) => Err(format!("[game] name must be a string, got {other}")),
    }
}

impl<O: Clone + Serialize + serde::de::DeserializeOwned> RunConfig<O> {
    /// Parses and checks a configuration file's text, whose `[game] name` (see [`game_name`])
    /// the caller has matched to `O`; the error names the table and field.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut table: toml::Table = toml::from_str(text).map_err(|error| error.to_string())?;
        if let Some(toml::Value::Table(game)) = table.get_mut("game") {
            game.remove("name");
        }
        let config: Self = toml::Value::Table(table)
            .try_into()
            .map_err(|error: toml::de::Error| error.to_string().trim().replace('\n', " "))?;
        config.validate()?;
        config.boards().map_err(|e| format!("[selfplay] {e}"))?;
        Ok(config)
    }
}

impl<O> RunConfig<O> {
    /// Checks what the types alone cannot; the error names the table and field.
    pub fn validate(&self) -> Result<(), String> {
        self.network.size()?;
        self.selfplay
            .validate()
            .map_err(|e| format!("[selfplay] {e}"))?;
        self.training
            .validate()
            .map_err(|e| format!("[training] {e}"))?;
        bounds::at_least_one("visits", self.bot.visits).map_err(|e| format!("[bot] {e}"))?;
        // The bot's own search fields (formula, gumbel_actions, the exploration's three,
        // hidden_samples, opponent_random_decisions) are checked in the search they make.
        self.bot
            .search(&self.selfplay.search)
            .validate_guided()
            .map_err(|e| format!("[bot] {e}"))?;
        bounds::at_least_one("keep_newest_generations", self.run.keep_newest_generations)
            .and(bounds::at_least_one(
                "games_per_shard",
                self.run.games_per_shard,
            ))
            .map_err(|e| format!("[run] {e}"))?;
        if self.bot.averaged_generations > self.run.keep_newest_generations {
            return Err(format!(
                "[bot] averaged_generations = {}: at most [run] keep_newest_generations = {}, \
                 the generations the run keeps",
                self.bot.averaged_generations, self.run.keep_newest_generations
            ));
        }
        self.evaluation.validate()
    }
}

/// The network trained from scratch when a run starts: a preset, whose depth and width
/// `blocks` and `channels` may override.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    /// `tiny` (2x16), `small` (6x64) or `standard` (10x128).
    pub preset: Preset,
    /// Residual blocks, instead of the preset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<usize>,
    /// Channels of the tower, instead of the preset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels: Option<usize>,
    /// Train an auxiliary soft-policy output (see `[training.loss_weights] soft_policy`).
    #[serde(default)]
    pub soft_policy: bool,
    /// A warm start: generation 0 takes the weights of this checkpoint (a `.safetensors` file
    /// with its sidecar) instead of fresh ones. Same game and architecture; the board size
    /// may differ. `ghast train --init-from` finds the checkpoint in a run or a bot bundle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_from: Option<std::path::PathBuf>,
    /// The type self-play's and reanalyse's network passes compute in: `auto` (bf16 on CUDA,
    /// f32 on a CPU), `fp32`, `bf16` (on a CPU with AMX or AVX512-BF16, oneDNN's bf16
    /// convolutions) or `fast` (bf16 on CUDA and on such a CPU, f32 on other CPUs).
    /// Training's own type is `[training] precision`.
    #[serde(default)]
    pub inference_precision: nn::InferencePrecision,
}

impl NetworkConfig {
    /// The tower this table asks for; the error names the field out of bounds.
    pub fn size(&self) -> Result<NetSize, String> {
        let preset = self.preset.size();
        NetSize {
            blocks: self.blocks.unwrap_or(preset.blocks),
            channels: self.channels.unwrap_or(preset.channels),
        }
        .validate()
        .map_err(|reason| format!("[network]: {reason}"))
    }
}

/// When the run stops, and what it writes how often.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunLimits {
    /// Stop after this many minutes of this process (0: no limit).
    pub minutes: f64,
    /// Stop once this generation is written and its evaluation matches are played (0: no
    /// limit).
    pub generations: u64,
    /// Finished games per replay shard. Games finished since the last shard survive a kill in
    /// the journal, so this trades file count against nothing but listing cost.
    pub games_per_shard: usize,
    /// Seed of the network's initial weights and of every random choice.
    pub seed: u64,
    /// Checkpoints kept for good: every this many generations (0: keep every generation).
    /// `ghast ladder --every` should be a multiple of it.
    pub keep_every_generation: u64,
    /// The newest generations, kept whatever their number (self-play, the in-loop matches
    /// and gating read them); at least 1.
    pub keep_newest_generations: u64,
    /// Positions per merged shard: all but the newest this many positions are merged into
    /// shards of about this many positions, so a long run keeps few files (0: never merge).
    pub merged_shard_positions: u64,
}

impl Default for RunLimits {
    fn default() -> Self {
        Self {
            minutes: 0.0,
            generations: 0,
            games_per_shard: 50,
            seed: 1,
            keep_every_generation: 25,
            keep_newest_generations: 8,
            merged_shard_positions: 50_000,
        }
    }
}

impl RunLimits {
    /// Whether generation `generation` stays on disk once `newest` is written.
    pub fn keeps(&self, generation: u64, newest: u64) -> bool {
        let every = self.keep_every_generation;
        (every == 0 || generation.is_multiple_of(every))
            || generation + self.keep_newest_generations > newest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ghast_config(extra_selfplay: &str) -> Result<RunConfig<ghast::GhastOptions>, String> {
        RunConfig::parse(&format!(
            "[game]\nsize = 4\nwin_margin = 3\n[network]\npreset = \"tiny\"\n\
             [selfplay]\n{extra_selfplay}"
        ))
    }

    /// `[selfplay] sizes`: the run's own board first, each other size with every other option
    /// as `[game]`'s, at the shares asked.
    #[test]
    fn sizes_make_the_boards_self_play_mixes() {
        let one = ghast_config("").unwrap().boards().unwrap();
        assert_eq!(one.len(), 1);
        let config = ghast_config("sizes = [3, 4]\nsize_shares = [1.0, 3.0]\n").unwrap();
        let boards = config.boards().unwrap();
        let sizes: Vec<u8> = boards.all().iter().map(|options| options.size()).collect();
        assert_eq!(sizes, [4, 3], "the run's own first");
        assert_eq!(boards.options(1).win_margin(), 3, "[game]'s other options");
        assert_eq!(*boards.options(0), config.game);
    }

    #[test]
    fn sizes_the_run_cannot_mix_are_refused_with_why() {
        let refused = |extra: &str| ghast_config(extra).unwrap_err();
        assert!(
            refused("sizes = [3, 5]\n").contains("leaves out [game] size = 4"),
            "{}",
            refused("sizes = [3, 5]\n")
        );
        assert!(refused("sizes = [4, 9]\n").contains("size 9"));
        assert!(refused("sizes = [4, 3]\nsize_shares = [1.0]\n").contains("1 shares for 2 sizes"));
        assert!(refused("sizes = [4, 3]\nsize_shares = [1.0, 0.0]\n").contains("size_shares[1]"));
        assert!(refused("sizes = [4, 4]\n").contains("4 is listed twice"));
    }

    #[test]
    fn inference_precision_reads_each_type_and_refuses_others_by_name() {
        let network = |extra: &str| {
            RunConfig::<ghast::GhastOptions>::parse(&format!(
                "[game]\nsize = 4\n[network]\npreset = \"tiny\"\n{extra}"
            ))
        };
        let precision = |extra: &str| network(extra).unwrap().network.inference_precision;
        assert_eq!(precision(""), nn::InferencePrecision::Auto);
        assert_eq!(
            precision("inference_precision = \"bf16\""),
            nn::InferencePrecision::Bf16
        );
        assert_eq!(
            precision("inference_precision = \"fp32\""),
            nn::InferencePrecision::Fp32
        );
        let refused = network("inference_precision = \"fp16\"").unwrap_err();
        assert!(refused.contains("fp16"), "{refused}");
    }

    #[test]
    fn the_bot_searches_as_self_play_did_without_its_noise() {
        let selfplay = SearchConfig {
            formula: Formula::Gumbel,
            gumbel_actions: 32,
            score_utility: 0.5,
            score_scale: 7.0,
            root_noise: true,
            ..SearchConfig::default()
        };
        let bot = BotConfig {
            hidden_samples: 4,
            ..BotConfig::default()
        };
        let search = bot.search(&selfplay);
        assert_eq!(search.formula, Formula::Gumbel);
        assert_eq!(
            search.gumbel_actions, 32,
            "self-play's, where [bot] is silent"
        );
        assert_eq!((search.score_utility, search.score_scale), (0.5, 7.0));
        assert_eq!(search.hidden_samples, 4);
        assert!(!search.root_noise, "a bot plays without noise");
        assert_eq!(search.leaves_per_tree, SearchConfig::play().leaves_per_tree);
    }

    #[test]
    fn the_bot_may_consider_more_moves_at_its_gumbel_root_than_self_play() {
        let selfplay = SearchConfig {
            formula: Formula::Gumbel,
            gumbel_actions: 16,
            ..SearchConfig::default()
        };
        let bot = BotConfig {
            gumbel_actions: Some(48),
            ..BotConfig::default()
        };
        assert_eq!(bot.search(&selfplay).gumbel_actions, 48);
    }

    #[test]
    fn the_bot_may_search_with_another_formula_than_self_play() {
        let selfplay = SearchConfig {
            formula: Formula::Gumbel,
            ..SearchConfig::default()
        };
        let bot = BotConfig {
            formula: Some(Formula::Puct),
            ..BotConfig::default()
        };
        assert_eq!(bot.search(&selfplay).formula, Formula::Puct);
        assert_eq!(
            BotConfig::default().search(&selfplay).formula,
            Formula::Gumbel,
            "self-play's, where [bot] is silent"
        );
    }

    #[test]
    fn the_bot_may_explore_as_katago_plays_while_self_play_keeps_its_own() {
        let selfplay = SearchConfig {
            c_puct: 1.1,
            c_puct_log: 0.2,
            ..SearchConfig::default()
        };
        let silent = BotConfig::default().search(&selfplay);
        assert_eq!(
            (silent.c_puct, silent.c_puct_log, silent.c_puct_stdev_scale),
            (1.1, 0.2, 0.0),
            "self-play's, where [bot] is silent"
        );
        let bot = BotConfig {
            c_puct: Some(1.0),
            c_puct_log: Some(0.45),
            c_puct_stdev_scale: Some(0.85),
            ..BotConfig::default()
        };
        let search = bot.search(&selfplay);
        assert_eq!(
            (search.c_puct, search.c_puct_log, search.c_puct_stdev_scale),
            (1.0, 0.45, 0.85)
        );
    }

    #[test]
    fn a_negative_exploration_for_the_bot_is_refused_naming_its_table() {
        let error = ghast_config("[bot]\nc_puct_stdev_scale = -0.5").unwrap_err();
        assert!(
            error.contains("[bot]") && error.contains("c_puct_stdev_scale"),
            "{error}"
        );
    }

    #[test]
    fn the_bot_skips_futile_moves_only_when_told_to() {
        let selfplay = SearchConfig::default();
        assert!(!BotConfig::default().search(&selfplay).skip_futile);
        let bot = BotConfig {
            skip_futile: true,
            ..BotConfig::default()
        };
        assert!(bot.search(&selfplay).skip_futile);
    }

    #[test]
    fn the_bot_resigns_by_self_plays_rule_only_when_told_to() {
        let selfplay = ResignConfig {
            threshold: -0.8,
            consecutive_moves: 5,
            playthrough_fraction: 0.1,
            false_positive_target: 0.0,
        };
        assert!(BotConfig::default().resignation(&selfplay).is_never());
        let bot = BotConfig {
            resign: true,
            ..BotConfig::default()
        };
        assert_eq!(
            bot.resignation(&selfplay),
            ResignRule {
                threshold: -0.8,
                consecutive_moves: 5
            }
        );
    }
}
