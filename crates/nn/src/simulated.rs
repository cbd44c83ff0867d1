//! A simulated accelerator, so that the self-play loop can be measured and tested on any
//! machine (`--device sim`): everything but the forward pass runs for real (encoding, the
//! inference server, replies), and the forward pass costs what the accelerator's would in
//! wall time and nothing in CPU time.

use crate::host_batch::HostBatch;
use crate::outputs::Outputs;
use game::mix64;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// An accelerator that holds a pass of `n` positions for `fixed + n * per_position`, sleeping,
/// and answers with a cheap fixed function of each position: priors over its legal actions,
/// tilted by its hash so that search has moves to prefer, and a value and a score lead from
/// the hash. Equal positions get equal answers in any batch, so games played on it are
/// reproducible from their seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimulatedDevice {
    /// Launch latency: what a pass of one position costs.
    pub fixed: Duration,
    /// What each further position adds.
    pub per_position: Duration,
}

impl SimulatedDevice {
    /// An NVIDIA H100 running the standard net (10x128, bf16) on the size-6 board
    /// (BENCHMARKS.md, "CUDA: one H100"): about 3 ms at batch 1 and 10.3 ms at 1,024.
    pub const H100_STANDARD: SimulatedDevice = SimulatedDevice {
        fixed: Duration::from_millis(3),
        per_position: Duration::from_nanos(7_130),
    };

    /// How long a pass of `positions` positions holds the device.
    pub fn pass_time(&self, positions: usize) -> Duration {
        self.fixed + self.per_position * u32::try_from(positions).unwrap_or(u32::MAX)
    }

    /// Answers the first `used` rows of `batch` into `out` and returns once the pass's time
    /// is up (the answers are computed inside that time, as a device would).
    pub(crate) fn forward(&self, batch: &HostBatch, used: usize, out: &mut Outputs) {
        let deadline = Instant::now() + self.pass_time(used);
        let (_, num_actions) = batch.layout().expect("an encoded batch");
        out.resize(used, num_actions);
        let rows = batch
            .illegal_bias()
            .chunks_exact(num_actions)
            .zip(batch.hashes())
            .zip(out.policy.chunks_exact_mut(num_actions))
            .zip(out.wdl.chunks_exact_mut(3).zip(&mut out.lead))
            .take(used);
        for (((bias, &hash), policy), (wdl, lead)) in rows {
            answer(hash, bias, policy, wdl, lead);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if !left.is_zero() {
            std::thread::sleep(left);
        }
    }
}

/// The simulated network's opinion of the position with `hash` and `illegal_bias` (0 for a
/// legal action): priors between 1 and 2 (before normalising) over the legal actions, a
/// value in [-0.8, 0.8] with a draw probability of 0.1, and a lead of 5 times the value.
fn answer(hash: u64, illegal_bias: &[f32], policy: &mut [f32], wdl: &mut [f32], lead: &mut f32) {
    let mut total = 0.0;
    for (action, (prior, &bias)) in policy.iter_mut().zip(illegal_bias).enumerate() {
        *prior = if bias == 0.0 {
            1.0 + unit(mix64(
                hash ^ (action as u64).wrapping_mul(0xA24B_AED4_963E_E407),
            ))
        } else {
            0.0
        };
        total += *prior;
    }
    if total > 0.0 {
        policy.iter_mut().for_each(|prior| *prior /= total);
    }
    let value = 0.8 * (2.0 * unit(mix64(hash)) - 1.0);
    let draw = 0.1;
    wdl[0] = (1.0 - draw + value) / 2.0;
    wdl[1] = draw;
    wdl[2] = (1.0 - draw - value) / 2.0;
    *lead = 5.0 * value;
}

/// The top 24 bits of `x` as a number in [0, 1).
fn unit(x: u64) -> f32 {
    (x >> 40) as f32 / (1u64 << 24) as f32
}

impl fmt::Display for SimulatedDevice {
    /// As `--device` reads it: `sim:A_MS,B_US`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Nanoseconds are the resolution, so three decimals say everything.
        let decimals = |value: f64| (value * 1e3).round() / 1e3;
        write!(
            f,
            "sim:{},{}",
            decimals(self.fixed.as_secs_f64() * 1e3),
            decimals(self.per_position.as_secs_f64() * 1e6)
        )
    }
}

impl FromStr for SimulatedDevice {
    type Err = String;

    /// `sim` (the H100's profile) or `sim:A_MS,B_US`: `A_MS` milliseconds a pass and `B_US`
    /// microseconds a position, both finite and at least 0, neither above a second.
    fn from_str(text: &str) -> Result<Self, String> {
        let profile = match text.strip_prefix("sim") {
            Some("") => return Ok(SimulatedDevice::H100_STANDARD),
            Some(rest) => rest.strip_prefix(':'),
            None => None,
        }
        .ok_or_else(|| format!("{text:?}: expected sim or sim:A_MS,B_US (e.g. sim:3,7.13)"))?;
        let (fixed, per_position) = profile.split_once(',').ok_or_else(|| {
            format!("{text:?}: expected sim:A_MS,B_US, two numbers after the colon")
        })?;
        let duration = |value: &str, unit: f64, what: &str| -> Result<Duration, String> {
            let number: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("{text:?}: {what} {value:?} is not a number"))?;
            if !(0.0..=1.0).contains(&(number * unit)) {
                return Err(format!(
                    "{text:?}: {what} {value} is out of range: expected 0 to {}",
                    1.0 / unit
                ));
            }
            Ok(Duration::from_secs_f64(number * unit))
        };
        Ok(SimulatedDevice {
            fixed: duration(fixed, 1e-3, "milliseconds a pass")?,
            per_position: duration(per_position, 1e-6, "microseconds a position")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_parse_and_print_back() {
        assert_eq!(
            "sim".parse::<SimulatedDevice>(),
            Ok(SimulatedDevice::H100_STANDARD)
        );
        let device: SimulatedDevice = "sim:1.5,20".parse().unwrap();
        assert_eq!(device.fixed, Duration::from_micros(1_500));
        assert_eq!(device.per_position, Duration::from_micros(20));
        assert_eq!(device.to_string().parse::<SimulatedDevice>(), Ok(device));
        assert_eq!(
            SimulatedDevice::H100_STANDARD.pass_time(1024),
            Duration::from_nanos(3_000_000 + 1024 * 7_130)
        );
        for bad in [
            "cuda",
            "sim:",
            "sim:3",
            "sim:a,1",
            "sim:-1,1",
            "sim:3,NaN",
            "sim:2000,1",
        ] {
            let error = bad.parse::<SimulatedDevice>().unwrap_err();
            assert!(error.contains(bad), "{bad}: {error}");
        }
    }

    #[test]
    fn answers_are_priors_over_the_legal_actions_and_depend_on_the_hash_only() {
        let bias = [0.0, -1e4, 0.0, 0.0];
        let (mut policy, mut wdl, mut lead) = ([0.0; 4], [0.0; 3], 0.0);
        answer(42, &bias, &mut policy, &mut wdl, &mut lead);
        assert_eq!(policy[1], 0.0);
        assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(policy.iter().all(|&p| (0.0..1.0).contains(&p)));
        assert!((wdl.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        let value = wdl[0] - wdl[2];
        assert!((-0.8..=0.8).contains(&value) && (lead - 5.0 * value).abs() < 1e-5);
        let (mut again, mut other) = ([0.0; 4], [0.0; 4]);
        answer(42, &bias, &mut again, &mut wdl, &mut lead);
        answer(43, &bias, &mut other, &mut wdl, &mut lead);
        assert_eq!(policy, again);
        assert_ne!(policy, other);
    }
}
