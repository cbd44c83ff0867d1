//! Training losses, shared by the trainer and the tests so both optimise the same thing.

use crate::tensors::Output;
use tch::{Kind, Reduction, Tensor};

/// What a batch should have predicted, from the point of view of the side to move.
#[derive(Debug)]
pub struct Targets {
    /// `[N, num_actions]` a distribution over the legal actions (search visit counts, normalised).
    /// Mass on an illegal action meets [`crate::ILLEGAL_LOGIT`] and makes the loss enormous.
    pub policy: Tensor,
    /// `[N, 3]` a distribution over win/draw/loss (one-hot for a finished game).
    pub wdl: Tensor,
    /// `[N]` final score lead, in the game's score units.
    pub lead: Tensor,
    /// `[N, H, W]` final owner of each cell in [-1, 1].
    pub ownership: Tensor,
}

/// How much each term counts in the total.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LossWeights {
    pub policy: f64,
    /// The soft policy (a net with one only): cross-entropy against the policy target raised
    /// to `1 / SOFT_POLICY_TEMPERATURE` and renormalised. KataGo weighs it 8, since a flat
    /// target's loss moves little.
    pub soft_policy: f64,
    pub wdl: f64,
    pub lead: f64,
    pub ownership: f64,
    /// Score units per unit of the lead loss: leads are divided by this before the Huber loss
    /// (delta 1), so a typical lead error costs about as much as a typical WDL error.
    pub lead_scale: f64,
}

impl Default for LossWeights {
    /// Auxiliary heads count less than the two that search reads (KataGo uses similar ratios).
    fn default() -> Self {
        LossWeights {
            policy: 1.0,
            soft_policy: 8.0,
            wdl: 1.0,
            lead: 0.2,
            ownership: 0.5,
            lead_scale: 10.0,
        }
    }
}

impl LossWeights {
    /// Checks that every weight is finite and not negative, and the lead scale positive.
    pub fn validate(&self) -> Result<(), String> {
        bounds::non_negative("policy", self.policy)?;
        bounds::non_negative("soft_policy", self.soft_policy)?;
        bounds::non_negative("wdl", self.wdl)?;
        bounds::non_negative("lead", self.lead)?;
        bounds::non_negative("ownership", self.ownership)?;
        bounds::positive("lead_scale", self.lead_scale)
    }
}

/// The soft policy's target is the policy target to the power `1 / this` (KataGo's 4).
pub const SOFT_POLICY_TEMPERATURE: f64 = 4.0;

/// Each loss term (unweighted, scalar tensors) and their weighted sum to call `backward` on.
#[derive(Debug)]
pub struct Losses {
    pub total: Tensor,
    pub policy: Tensor,
    /// Zero for a net without a soft policy.
    pub soft_policy: Tensor,
    pub wdl: Tensor,
    pub lead: Tensor,
    pub ownership: Tensor,
}

/// [`Losses`] read back to the host, for logging.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct LossValues {
    pub total: f64,
    pub policy: f64,
    pub soft_policy: f64,
    pub wdl: f64,
    pub lead: f64,
    pub ownership: f64,
}

impl LossValues {
    /// Each loss averaged over `values` (not empty).
    pub fn mean(values: &[LossValues]) -> LossValues {
        let mean = |loss: fn(&LossValues) -> f64| {
            values.iter().map(loss).sum::<f64>() / values.len() as f64
        };
        LossValues {
            total: mean(|v| v.total),
            policy: mean(|v| v.policy),
            soft_policy: mean(|v| v.soft_policy),
            wdl: mean(|v| v.wdl),
            lead: mean(|v| v.lead),
            ownership: mean(|v| v.ownership),
        }
    }
}

impl Losses {
    /// The losses of one batch that went through the network in parts (positions of different
    /// board sizes cannot share a tensor): each term is the parts' mean weighted by `share`,
    /// each part's share of the batch's positions. `parts` is not empty.
    pub fn mix(parts: Vec<(f64, Losses)>) -> Losses {
        let mut parts = parts.into_iter();
        let (share, first) = parts.next().expect("a batch has a part");
        let scaled = |losses: Losses, share: f64| Losses {
            total: losses.total * share,
            policy: losses.policy * share,
            soft_policy: losses.soft_policy * share,
            wdl: losses.wdl * share,
            lead: losses.lead * share,
            ownership: losses.ownership * share,
        };
        parts.fold(scaled(first, share), |sum, (share, part)| {
            let part = scaled(part, share);
            Losses {
                total: sum.total + part.total,
                policy: sum.policy + part.policy,
                soft_policy: sum.soft_policy + part.soft_policy,
                wdl: sum.wdl + part.wdl,
                lead: sum.lead + part.lead,
                ownership: sum.ownership + part.ownership,
            }
        })
    }

    /// Copies the terms to the host (a device synchronisation: do it when logging, not every step).
    pub fn values(&self) -> LossValues {
        let value = |t: &Tensor| t.double_value(&[]);
        LossValues {
            total: value(&self.total),
            policy: value(&self.policy),
            soft_policy: value(&self.soft_policy),
            wdl: value(&self.wdl),
            lead: value(&self.lead),
            ownership: value(&self.ownership),
        }
    }
}

/// Batch-mean losses: policy and WDL cross-entropy against target distributions, Huber loss on
/// the scaled lead, and ownership MSE over on-board cells only. Computed in f32 whatever the
/// output's kind.
pub fn losses(output: &Output, targets: &Targets, weights: &LossWeights) -> Losses {
    let policy = cross_entropy(&output.policy_logits, &targets.policy);
    let soft_policy = match &output.soft_policy_logits {
        Some(logits) => {
            let soft = targets
                .policy
                .to_kind(Kind::Float)
                .pow_tensor_scalar(1.0 / SOFT_POLICY_TEMPERATURE);
            let soft = &soft / soft.sum_dim_intlist(-1, true, Kind::Float).clamp_min(1e-12);
            cross_entropy(logits, &soft)
        }
        None => Tensor::zeros([], (Kind::Float, targets.policy.device())),
    };
    let wdl = cross_entropy(&output.wdl_logits, &targets.wdl);
    let lead = (output.lead.to_kind(Kind::Float) / weights.lead_scale).huber_loss(
        &(targets.lead.to_kind(Kind::Float) / weights.lead_scale),
        Reduction::Mean,
        1.0,
    );
    let mask = output.board_mask.to_kind(Kind::Float);
    let error = output.ownership.to_kind(Kind::Float) - targets.ownership.to_kind(Kind::Float);
    let ownership =
        (error.square() * &mask).sum(Kind::Float) / mask.sum(Kind::Float).clamp_min(1.0);
    let total = &policy * weights.policy
        + &soft_policy * weights.soft_policy
        + &wdl * weights.wdl
        + &lead * weights.lead
        + &ownership * weights.ownership;
    Losses {
        total,
        policy,
        soft_policy,
        wdl,
        lead,
        ownership,
    }
}

/// Mean over the batch of `-sum(target * log_softmax(logits))`.
fn cross_entropy(logits: &Tensor, target: &Tensor) -> Tensor {
    let log_probs = logits.log_softmax(-1, Kind::Float);
    -(target.to_kind(Kind::Float) * log_probs)
        .sum_dim_intlist(-1, false, Kind::Float)
        .mean(Kind::Float)
}
