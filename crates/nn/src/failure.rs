//! A device that fails, reported instead of crashing a thread: libtorch raises a C++ exception
//! at a CUDA error or when the device runs out of memory, and tch turns it into a panic. Work
//! on a device runs inside [`on_device`], which turns that panic into a [`DeviceError`] that
//! reaches whoever waits for the work, so that a run can stop with one line and not hang.
//!
//! Failures can be injected for tests of this path ([`inject_failure_at_pass`]): every
//! backend made afterwards panics at its Nth forward pass, as libtorch would.

use game::DeviceError;
use std::cell::Cell;
use std::num::NonZeroU64;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::sync::atomic::{AtomicU64, Ordering};

thread_local! {
    /// Whether this thread is inside [`on_device`], whose panics are reported as errors.
    static ON_DEVICE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` on `device` (its name, for the error): a panic in it (a libtorch error) comes
/// back as a [`DeviceError`] holding the panic's first line, and is not printed. Work that
/// failed may have left the device in any state: nothing should run on it again.
pub fn on_device<T>(device: &str, work: impl FnOnce() -> T) -> Result<T, DeviceError> {
    quiet_device_panics();
    let outer = ON_DEVICE.replace(true);
    // The work's state is abandoned with the device when it fails, so no broken invariant
    // is observed after the unwind.
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    ON_DEVICE.set(outer);
    result.map_err(|payload| {
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("a panic without a message");
        DeviceError {
            device: device.to_owned(),
            message: first_line(text),
        }
    })
}

/// libtorch's messages run on with a C++ backtrace ("Exception raised from ..."), and tch's
/// panic shows its error with `{:?}`, so the newlines before it may be written as `\n`. The
/// first line says what went wrong.
fn first_line(text: &str) -> String {
    let text = text.trim_start_matches("called `Result::unwrap()` on an `Err` value: ");
    let text = text.trim_start_matches("Torch(\"");
    let line = text
        .split(['\n'])
        .flat_map(|line| line.split("\\n"))
        .find(|line| !line.trim().is_empty())
        .unwrap_or(text);
    line.trim().trim_end_matches("\")").to_owned()
}

/// Installs, once, a panic hook that stays silent for panics inside [`on_device`] (they are
/// reported as errors) and hands every other panic to the hook it replaces.
fn quiet_device_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !ON_DEVICE.get() {
                previous(info);
            }
        }));
    });
}

/// The forward pass every backend made from now on fails at (0: none).
static INJECTED_FAILURE: AtomicU64 = AtomicU64::new(0);

/// Makes every backend made from now on, in this process, fail at its `pass`th forward pass
/// (warm-up passes count) as a device fails: a panic inside the pass, with the words of
/// libtorch's out-of-memory error. For tests of what a failed device does to a command.
pub fn inject_failure_at_pass(pass: NonZeroU64) {
    INJECTED_FAILURE.store(pass.get(), Ordering::Relaxed);
}

/// The pass a backend made now fails at, if a failure is injected.
pub(crate) fn injected_failure() -> Option<NonZeroU64> {
    NonZeroU64::new(INJECTED_FAILURE.load(Ordering::Relaxed))
}

/// What an injected failure says: the words of libtorch's out-of-memory error, the commonest
/// failure of a GPU run.
pub(crate) fn injected_failure_message(pass: u64) -> String {
    format!("CUDA out of memory (a failure injected at forward pass {pass})")
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "torch")]
    use tch::Tensor;

    #[cfg(feature = "torch")]
    #[test]
    fn a_libtorch_error_comes_back_as_a_device_error_of_one_line() {
        let error = on_device("cpu", || {
            Tensor::zeros([2, 3], tch::kind::FLOAT_CPU)
                .matmul(&Tensor::zeros([4, 5], tch::kind::FLOAT_CPU))
        })
        .unwrap_err();
        assert_eq!(error.device, "cpu");
        assert!(
            error.message.contains("cannot be multiplied"),
            "libtorch's words: {error}"
        );
        assert!(!error.message.contains('\n'), "one line: {error:?}");
        assert!(
            !error.message.contains("Exception raised from"),
            "no backtrace: {error:?}"
        );
    }

    #[test]
    fn work_that_does_not_panic_is_returned() {
        assert_eq!(on_device("cpu", || 7), Ok(7));
        let error = on_device("cuda:0", || -> u8 { panic!("out of memory\nat frame 3") });
        assert_eq!(
            error.unwrap_err().to_string(),
            "the network on cuda:0 failed: out of memory"
        );
    }
}
