//! Benchmarks of the two loops of a run: self-play's use of the hardware, and the trainer's
//! steps in each precision.

mod self_play;
mod training;

pub use self_play::{SelfplayBench, selfplay};
pub use training::{TrainingBench, training};

use std::time::Duration;

/// User and system CPU time of the whole process so far.
pub(super) fn cpu_time() -> Duration {
    // SAFETY: getrusage writes one `rusage` into the zeroed value it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |time: libc::timeval| {
        Duration::from_secs(time.tv_sec as u64) + Duration::from_micros(time.tv_usec as u64)
    };
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Peak resident memory of the process (VmHWM) in MiB; `None` where /proc is missing.
pub(super) fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
