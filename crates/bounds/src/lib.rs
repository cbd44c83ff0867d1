//! Named bound checks for configuration values. Every table of a run config checks its
//! fields with these, so a user reads every error the same way, `name = value: expected ...`,
//! with the value printed as it was given.

use std::fmt::Display;

/// A check's outcome: the error names the field, its value and the bound.
pub type Checked = Result<(), String>;

/// A count that must be at least 1 (visits, games, batch sizes).
pub fn at_least_one<T: PartialEq + Default + Display>(name: &str, value: T) -> Checked {
    check(name, &value, value != T::default(), "at least 1")
}

/// A finite number above 0 (learning rates, scales, halflives).
pub fn positive<T: Into<f64> + Copy + Display>(name: &str, value: T) -> Checked {
    let number: f64 = value.into();
    check(
        name,
        &value,
        number.is_finite() && number > 0.0,
        "a positive number",
    )
}

/// A finite number of at least 0 (weights, exploration constants).
pub fn non_negative<T: Into<f64> + Copy + Display>(name: &str, value: T) -> Checked {
    let number: f64 = value.into();
    check(
        name,
        &value,
        number.is_finite() && number >= 0.0,
        "a number of at least 0",
    )
}

/// A number in [0, 1] (probabilities and fractions).
pub fn fraction<T: Into<f64> + Copy + Display>(name: &str, value: T) -> Checked {
    let number: f64 = value.into();
    check(
        name,
        &value,
        (0.0..=1.0).contains(&number),
        "a number in [0, 1]",
    )
}

/// A number in [0, 1) (decays, which must let the present in).
pub fn below_one<T: Into<f64> + Copy + Display>(name: &str, value: T) -> Checked {
    let number: f64 = value.into();
    check(
        name,
        &value,
        (0.0..1.0).contains(&number),
        "a number in [0, 1)",
    )
}

/// Any finite number (thresholds).
pub fn finite<T: Into<f64> + Copy + Display>(name: &str, value: T) -> Checked {
    let number: f64 = value.into();
    check(name, &value, number.is_finite(), "a finite number")
}

/// A count from `low` to `high`, both included (network widths read from a file).
pub fn within(name: &str, value: usize, low: usize, high: usize) -> Checked {
    check(
        name,
        &value,
        (low..=high).contains(&value),
        &format!("{low} to {high}"),
    )
}

/// A count of at most `high`.
pub fn at_most(name: &str, value: usize, high: usize) -> Checked {
    check(name, &value, value <= high, &format!("at most {high}"))
}

fn check(name: &str, value: &dyn Display, holds: bool, expected: &str) -> Checked {
    if holds {
        Ok(())
    } else {
        Err(format!("{name} = {value}: expected {expected}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_check_names_the_field_the_value_and_the_bound() {
        assert_eq!(at_least_one("visits", 3u32), Ok(()));
        assert_eq!(
            at_least_one("workers", 0usize),
            Err("workers = 0: expected at least 1".into())
        );
        assert_eq!(within("channels", 16, 1, 1024), Ok(()));
        assert_eq!(
            within("channels", 0, 1, 1024),
            Err("channels = 0: expected 1 to 1024".into())
        );
        assert_eq!(at_most("actions", 3, 3), Ok(()));
        assert_eq!(
            at_most("actions", 4, 3),
            Err("actions = 4: expected at most 3".into())
        );
        assert_eq!(positive("learning_rate", 0.02f32), Ok(()));
        assert_eq!(
            positive("learning_rate", 0.0f64),
            Err("learning_rate = 0: expected a positive number".into())
        );
        assert_eq!(
            non_negative("c_puct", -0.5f32),
            Err("c_puct = -0.5: expected a number of at least 0".into())
        );
        assert_eq!(fraction("momentum", 1.0f64), Ok(()));
        assert_eq!(
            fraction("momentum", 1.5f64),
            Err("momentum = 1.5: expected a number in [0, 1]".into())
        );
        assert_eq!(
            finite("threshold", f32::NAN),
            Err("threshold = NaN: expected a finite number".into())
        );
    }

    #[test]
    fn infinities_and_nan_fail_every_numeric_bound() {
        for value in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            assert!(positive("x", value).is_err());
            assert!(non_negative("x", value).is_err());
            assert!(fraction("x", value).is_err());
            assert!(finite("x", value).is_err());
        }
    }
}
