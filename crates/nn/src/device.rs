//! Where the networks run: the first CUDA device when there is one, else the CPU.
//!
//! tch names `libtorch_cuda` on the link line, but the linker's `--as-needed` drops it, since
//! no symbol of ours refers to it: a binary built against PyTorch's CUDA wheel would then see
//! no GPU at all. Linking it outright (`--no-as-needed`) would cost every process about a
//! tenth of a second and a third of a gigabyte of mappings on machines without a GPU, which is
//! every test run. So where a CUDA driver is installed, the backend is loaded here, once, by
//! name (`LD_LIBRARY_PATH`, then the rpath that `build/libtorch_rpath.rs` bakes in), before
//! libtorch is first asked about CUDA: it looks its CUDA hooks up once and keeps the answer.

use std::sync::Once;
use tch::Device;

/// The first CUDA device if libtorch sees one, otherwise the CPU.
pub fn best_device() -> Device {
    load_cuda_backend();
    Device::cuda_if_available()
}

/// Whether libtorch sees a CUDA device.
pub fn cuda_is_available() -> bool {
    load_cuda_backend();
    tch::Cuda::is_available()
}

/// Loads libtorch's CUDA backend where a CUDA driver is installed; a no-op after the first
/// call and on machines without the driver. Call it before anything asks libtorch about CUDA
/// (seeding the generators does): [`best_device`] and [`cuda_is_available`] call it first.
pub fn load_cuda_backend() {
    static LOAD: Once = Once::new();
    LOAD.call_once(|| {
        #[cfg(target_os = "linux")]
        linux::load();
    });
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{CStr, CString};

    /// Opens `name` for the life of the process; the loader's message if it cannot.
    fn open(name: &str) -> Result<(), String> {
        let name = CString::new(name).expect("library names have no NUL");
        // SAFETY: `dlopen` takes a NUL-terminated name; the handle is kept open for good, so
        // nothing it loads is ever unmapped. `dlerror` returns null or a NUL-terminated
        // message that stays valid until the next dl call on this thread.
        unsafe {
            if !libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL).is_null() {
                return Ok(());
            }
            let message = libc::dlerror();
            Err(if message.is_null() {
                "unknown error".to_string()
            } else {
                CStr::from_ptr(message).to_string_lossy().into_owned()
            })
        }
    }

    pub(super) fn load() {
        if open("libcuda.so.1").is_err() {
            return; // No CUDA driver: the CPU it is.
        }
        if let Err(error) = open("libtorch_cuda.so") {
            eprintln!(
                "warning: a CUDA driver is installed, but libtorch's CUDA backend did not load, so \
                 the networks run on the CPU: {error}"
            );
        }
    }
}
