use serde::{Deserialize, Serialize};

/// Matches played inside the training loop: the `[evaluation]` table of a run configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvaluationConfig {
    /// Play the newest generation against `baseline` every this many generations, logged to
    /// TensorBoard as `eval/score` and `eval/elo` (0: never).
    pub every_generations: u64,
    /// `random`, `greedy` or `uct:N` (N random-rollout playouts per move).
    pub baseline: String,
    /// Games of each baseline match (even: openings are played with both colours).
    pub games: u32,
    /// Search visits per move of the network in these matches.
    pub visits: u32,
    /// Gating (AlphaGo Zero): a new generation reaches the self-play workers only once it
    /// scores at least `gating_score` against the current one over `gating_games` games.
    pub gating: bool,
    pub gating_games: u32,
    pub gating_score: f64,
}

impl Default for EvaluationConfig {
    fn default() -> Self {
        Self {
            every_generations: 0,
            baseline: "greedy".into(),
            games: 20,
            visits: 64,
            gating: false,
            gating_games: 20,
            gating_score: 0.55,
        }
    }
}

impl EvaluationConfig {
    /// The baseline as a player, or an error naming the field.
    pub fn baseline(&self) -> Result<arena::Baseline, String> {
        let spec = self
            .baseline
            .parse::<arena::PlayerSpec>()
            .map_err(|error| format!("evaluation.baseline: {error}"))?;
        match spec {
            arena::PlayerSpec::Random => Ok(arena::Baseline::Random),
            arena::PlayerSpec::Greedy => Ok(arena::Baseline::Greedy),
            arena::PlayerSpec::Uct { playouts } => Ok(arena::Baseline::Uct(playouts)),
            arena::PlayerSpec::Expectimax { depth } => Ok(arena::Baseline::Expectimax(depth)),
            _ => Err(format!(
                "evaluation.baseline: `{}` is not a baseline; use random, greedy, uct:N or \
                 expectimax:D",
                self.baseline
            )),
        }
    }

    /// Checks the match sizes and the baseline, naming the field at fault.
    pub fn validate(&self) -> Result<(), String> {
        self.baseline()?;
        for (field, games) in [("games", self.games), ("gating_games", self.gating_games)] {
            if games == 0 || games % 2 != 0 {
                return Err(format!(
                    "evaluation.{field} must be even and positive, got {games}"
                ));
            }
        }
        bounds::at_least_one("evaluation.visits", self.visits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baselines_parse_and_other_players_are_refused_by_name() {
        let config = |baseline: &str| EvaluationConfig {
            baseline: baseline.into(),
            ..EvaluationConfig::default()
        };
        assert_eq!(config("uct:50").baseline(), Ok(arena::Baseline::Uct(50)));
        assert_eq!(config("greedy").baseline(), Ok(arena::Baseline::Greedy));
        let error = config("gtp:engine").validate().unwrap_err();
        assert!(error.contains("evaluation.baseline"), "{error}");
        let odd = EvaluationConfig {
            games: 3,
            ..EvaluationConfig::default()
        };
        assert!(odd.validate().unwrap_err().contains("evaluation.games"));
    }
}
