use serde::{Deserialize, Serialize};

/// The temperature of move choice over a game, for [`crate::Tree::choose_action`]: high early
/// so that self-play games differ, low later so that they are played well.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TemperatureSchedule {
    Constant {
        temperature: f32,
    },
    /// `early` for the first `moves` moves, then `late` (AlphaZero: 1 for 30 moves, then 0).
    Step {
        early: f32,
        moves: u32,
        late: f32,
    },
    /// Starts at `early` and halves its distance to `late` every `halflife` moves (KataGo).
    Decay {
        early: f32,
        late: f32,
        halflife: f32,
    },
}

impl Default for TemperatureSchedule {
    /// KataGo's self-play setting, with the halflife scaled down from 19 moves on 361 points
    /// to the 91 hexes of the standard Ghast board.
    fn default() -> Self {
        Self::Decay {
            early: 0.8,
            late: 0.2,
            halflife: 10.0,
        }
    }
}

impl TemperatureSchedule {
    /// Checks that every temperature is finite and not negative and a halflife positive.
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            Self::Constant { temperature } => bounds::non_negative("temperature", temperature),
            Self::Step { early, late, .. } => {
                bounds::non_negative("early", early)?;
                bounds::non_negative("late", late)
            }
            Self::Decay {
                early,
                late,
                halflife,
            } => {
                bounds::non_negative("early", early)?;
                bounds::non_negative("late", late)?;
                bounds::positive("halflife", halflife)
            }
        }
    }

    /// The temperature for move `move_number` (0 for the first move of the game).
    pub fn at(&self, move_number: u32) -> f32 {
        match *self {
            Self::Constant { temperature } => temperature,
            Self::Step { early, moves, late } => {
                if move_number < moves {
                    early
                } else {
                    late
                }
            }
            Self::Decay {
                early,
                late,
                halflife,
            } => {
                late + (early - late)
                    * 0.5f32.powf(move_number as f32 / halflife.max(f32::MIN_POSITIVE))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_switches_after_the_given_moves() {
        let schedule = TemperatureSchedule::Step {
            early: 1.0,
            moves: 3,
            late: 0.0,
        };
        let temperatures: Vec<f32> = (0..5).map(|m| schedule.at(m)).collect();
        assert_eq!(temperatures, [1.0, 1.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn decay_halves_the_distance_every_halflife() {
        let schedule = TemperatureSchedule::Decay {
            early: 1.0,
            late: 0.2,
            halflife: 10.0,
        };
        assert!((schedule.at(0) - 1.0).abs() < 1e-6);
        assert!((schedule.at(10) - 0.6).abs() < 1e-6);
        assert!((schedule.at(20) - 0.4).abs() < 1e-6);
        assert!((schedule.at(1000) - 0.2).abs() < 1e-6);
    }

    #[test]
    fn round_trips_through_serde() {
        let schedule = TemperatureSchedule::default();
        let json = serde_json::to_string(&schedule).unwrap();
        assert!(json.contains("\"kind\":\"decay\""), "{json}");
        assert_eq!(
            serde_json::from_str::<TemperatureSchedule>(&json).unwrap(),
            schedule
        );
    }
}
