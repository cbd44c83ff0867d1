use serde::{Deserialize, Serialize};

/// The trainer's settings: the `[training]` table of a run configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainerConfig {
    /// Positions per gradient step.
    pub batch_size: usize,
    pub optimizer: OptimizerKind,
    /// Peak learning rate, reached after the warm-up.
    pub learning_rate: f64,
    /// Steps over which the learning rate rises linearly from a tenth of its peak: early
    /// batch-norm statistics are poor and a full step can blow the net up.
    pub warmup_steps: u64,
    /// After this many steps the learning rate is divided by 10 (0: never).
    pub decay_after_steps: u64,
    /// SGD momentum (ignored by AdamW).
    pub momentum: f64,
    pub weight_decay: f64,
    /// The trainer may consume at most this many samples per position self-play has produced
    /// (KataGo's cap): it keeps the net from overfitting a small store early on and paces the
    /// trainer to the self-play workers.
    pub samples_per_new_position: f64,
    /// Training starts once the store holds this many positions.
    pub min_positions: u64,
    /// A checkpoint (a new generation) every this many steps.
    pub steps_per_generation: u64,
    /// KataGo's policy surprise weighting: this share of the sampling weight is spread
    /// uniformly and the rest in proportion to each position's surprise (how far its policy
    /// target is from the network's prior), so the positions that teach most are seen more
    /// often. 0 samples uniformly; KataGo uses 0.5.
    pub policy_surprise_weight: f64,
    /// Moves after a position at which its score lead target is read; 0 reads it at the
    /// game's end (KataGo's final score). Where the score is material that changes hands all
    /// game (Ghost Chess), a horizon makes the lead say what a move wins or loses soon.
    pub lead_horizon: u32,
    /// The share of the value (win/draw/loss) target taken from the search at the position
    /// (its root value, as a win/loss split) instead of the game's result: the average of
    /// AlphaZero's `z` and `q` that small-compute replications found learns faster, since a
    /// game's result blames every move for the one that lost it. 0 (the default): the result
    /// alone. A reanalysed game carries the newer network's root values, so this share of its
    /// value targets is refreshed too.
    pub search_value_share: f64,
    /// Weights averaged over recent steps (KataGo's SWA): every `every_steps` steps the
    /// average moves toward the trained weights, `average = decay * average + (1 - decay) *
    /// weights`, and each generation self-play, the evaluation and the exported bot play is
    /// the average (the trainer goes on from its own weights). 0 `decay` (the default): off.
    pub weight_average: WeightAverage,
    /// The type the training step's forward pass computes in: `fp32` (the default), or `bf16`
    /// (KataGo's `-use-bf16`): convolutions and matrix products in bf16 under autocast, the
    /// weights, the optimiser and the losses in f32. Fast on a GPU with bf16 units (from
    /// Ampere on) and on a CPU with AMX or AVX512-BF16; far slower than f32 on other CPUs.
    /// `fast`: bf16 where it is fast, f32 elsewhere. Inference's type is `[network]
    /// inference_precision`.
    pub precision: nn::Precision,
    pub loss_weights: nn::LossWeights,
}

/// See [`TrainerConfig::weight_average`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WeightAverage {
    pub decay: f64,
    pub every_steps: u64,
}

impl Default for WeightAverage {
    fn default() -> Self {
        WeightAverage {
            decay: 0.0,
            every_steps: 10,
        }
    }
}

impl WeightAverage {
    pub fn is_on(&self) -> bool {
        self.decay > 0.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// SGD with (Nesterov) momentum, as AlphaZero and KataGo.
    Sgd,
    AdamW,
}

impl Default for TrainerConfig {
    fn default() -> Self {
        Self {
            batch_size: 128,
            optimizer: OptimizerKind::Sgd,
            learning_rate: 0.02,
            warmup_steps: 100,
            decay_after_steps: 0,
            momentum: 0.9,
            weight_decay: 3e-5,
            samples_per_new_position: 4.0,
            min_positions: 2_000,
            steps_per_generation: 200,
            policy_surprise_weight: 0.0,
            lead_horizon: 0,
            search_value_share: 0.0,
            weight_average: WeightAverage::default(),
            precision: nn::Precision::Fp32,
            loss_weights: nn::LossWeights::default(),
        }
    }
}

impl TrainerConfig {
    /// Checks the bounds the types alone cannot; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        bounds::at_least_one("batch_size", self.batch_size)?;
        bounds::at_least_one("steps_per_generation", self.steps_per_generation)?;
        bounds::positive("learning_rate", self.learning_rate)?;
        bounds::positive("samples_per_new_position", self.samples_per_new_position)?;
        bounds::fraction("momentum", self.momentum)?;
        bounds::fraction("policy_surprise_weight", self.policy_surprise_weight)?;
        bounds::fraction("search_value_share", self.search_value_share)?;
        bounds::non_negative("weight_decay", self.weight_decay)?;
        bounds::below_one("weight_average.decay", self.weight_average.decay)?;
        bounds::at_least_one(
            "weight_average.every_steps",
            self.weight_average.every_steps,
        )?;
        self.loss_weights
            .validate()
            .map_err(|e| format!("loss_weights.{e}"))
    }

    /// The learning rate at `step`: linear warm-up, then the peak, then a tenth of it.
    pub fn learning_rate_at(&self, step: u64) -> f64 {
        if step < self.warmup_steps {
            let progress = step as f64 / self.warmup_steps as f64;
            self.learning_rate * (0.1 + 0.9 * progress)
        } else if self.decay_after_steps > 0 && step >= self.decay_after_steps {
            self.learning_rate / 10.0
        } else {
            self.learning_rate
        }
    }

    /// Whether `samples_trained` more samples than this stay within the cap, given the
    /// positions self-play has produced so far.
    pub fn may_train(&self, samples_trained: u64, positions_produced: u64) -> bool {
        if positions_produced < self.min_positions {
            return false;
        }
        let allowance = self.samples_per_new_position * positions_produced as f64;
        (samples_trained + self.batch_size as u64) as f64 <= allowance
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learning_rate_warms_up_then_decays() {
        let config = TrainerConfig {
            learning_rate: 0.1,
            warmup_steps: 10,
            decay_after_steps: 100,
            ..TrainerConfig::default()
        };
        assert!((config.learning_rate_at(0) - 0.01).abs() < 1e-12);
        assert!((config.learning_rate_at(5) - 0.055).abs() < 1e-12);
        assert_eq!(config.learning_rate_at(10), 0.1);
        assert_eq!(config.learning_rate_at(99), 0.1);
        assert!((config.learning_rate_at(100) - 0.01).abs() < 1e-12);
    }

    #[test]
    fn the_cap_paces_training_to_self_play() {
        let config = TrainerConfig {
            batch_size: 100,
            samples_per_new_position: 2.0,
            min_positions: 50,
            ..TrainerConfig::default()
        };
        assert!(!config.may_train(0, 49), "below the minimum store size");
        assert!(config.may_train(0, 50));
        assert!(
            config.may_train(100, 100),
            "200 samples for 100 positions at 2x"
        );
        assert!(!config.may_train(101, 100));
    }

    #[test]
    fn unknown_fields_are_rejected_by_name() {
        let error = toml::from_str::<TrainerConfig>("batch_sise = 3").unwrap_err();
        assert!(error.to_string().contains("batch_sise"), "{error}");
    }
}
