//! Where the networks run: the first CUDA device when there is one, else the CPU.
//!
//! tch names `libtorch_cuda` on the link line, but the linker's `--as-needed` drops it, since
//! no symbol of ours refers to it: a binary built against PyTorch's CUDA wheel would then see
//! no GPU at all. Linking it outright (`--no-as-needed`) would cost every process about a
//! tenth of a second and a third of a gigabyte of mappings on machines without a GPU, which is
//! every test run. So where a CUDA driver is installed, the backend is loaded here, once, by
//! name (`LD_LIBRARY_PATH`, then the rpath that `build/libtorch_rpath.rs` bakes in), before
//! libtorch is first asked about CUDA: it looks its CUDA hooks up once and keeps the answer.

use crate::SimulatedDevice;
use std::str::FromStr;
#[cfg(feature = "torch")]
use std::sync::Once;
#[cfg(feature = "torch")]
use tch::Device;

/// The first CUDA device if libtorch sees one, otherwise the CPU.
#[cfg(feature = "torch")]
pub fn best_device() -> Device {
    load_cuda_backend();
    Device::cuda_if_available()
}

/// Whether libtorch sees a CUDA device.
#[cfg(feature = "torch")]
pub fn cuda_is_available() -> bool {
    load_cuda_backend();
    tch::Cuda::is_available()
}

/// `cpu` or `cuda:N`, as benchmarks and `--device` name them.
#[cfg(feature = "torch")]
pub fn device_name(device: Device) -> String {
    match device {
        Device::Cuda(index) => format!("cuda:{index}"),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// Where self-play's network runs, as `--device` names it. A build without libtorch runs
/// networks on the CPU alone (`auto` and `cpu` both mean it) or on the simulated device.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum DeviceChoice {
    /// `auto`: the first CUDA device if there is one, otherwise the CPU.
    #[default]
    Best,
    /// `cpu`, `cuda` or `cuda:N`.
    #[cfg(feature = "torch")]
    Torch(Device),
    /// `sim` or `sim:A_MS,B_US`: a simulated accelerator; networks that are trained still
    /// train on the best device.
    Simulated(SimulatedDevice),
}

impl DeviceChoice {
    /// `cpu`: in a build without libtorch, the only device there is ([`DeviceChoice::Best`]).
    pub fn cpu() -> DeviceChoice {
        #[cfg(feature = "torch")]
        return DeviceChoice::Torch(Device::Cpu);
        #[cfg(not(feature = "torch"))]
        return DeviceChoice::Best;
    }

    /// The libtorch device for networks: the chosen one, or the best for `auto` and `sim`.
    #[cfg(feature = "torch")]
    pub fn torch_device(self) -> Device {
        match self {
            DeviceChoice::Torch(device) => device,
            DeviceChoice::Best | DeviceChoice::Simulated(_) => best_device(),
        }
    }

    /// Whether the device wants batches merged by an inference server: a GPU or a simulated
    /// accelerator.
    pub fn is_accelerator(self) -> bool {
        match self {
            DeviceChoice::Simulated(_) => true,
            #[cfg(feature = "torch")]
            _ => self.torch_device().is_cuda(),
            #[cfg(not(feature = "torch"))]
            DeviceChoice::Best => false,
        }
    }
}

#[cfg(not(feature = "torch"))]
impl FromStr for DeviceChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "auto" | "cpu" => Ok(DeviceChoice::Best),
            _ if text.starts_with("sim") => text.parse().map(DeviceChoice::Simulated),
            _ if text.starts_with("cuda") => Err(format!(
                "{text:?}: this ghast was built without libtorch, so networks run on the CPU \
                 (auto or cpu); CUDA needs the libtorch build"
            )),
            _ => Err(format!(
                "{text:?}: expected auto, cpu, sim or sim:A_MS,B_US"
            )),
        }
    }
}

#[cfg(feature = "torch")]
impl FromStr for DeviceChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let cuda = |index: usize| {
            if cuda_is_available() && index < tch::Cuda::device_count() as usize {
                Ok(DeviceChoice::Torch(Device::Cuda(index)))
            } else {
                Err(format!("{text:?}: libtorch sees no such CUDA device"))
            }
        };
        match text {
            "auto" => Ok(DeviceChoice::Best),
            "cpu" => Ok(DeviceChoice::Torch(Device::Cpu)),
            "cuda" => cuda(0),
            _ if text.starts_with("sim") => text.parse().map(DeviceChoice::Simulated),
            _ => match text.strip_prefix("cuda:").map(str::parse) {
                Some(Ok(index)) => cuda(index),
                _ => Err(format!(
                    "{text:?}: expected auto, cpu, cuda, cuda:N, sim or sim:A_MS,B_US"
                )),
            },
        }
    }
}

/// Loads libtorch's CUDA backend where a CUDA driver is installed; a no-op after the first
/// call and on machines without the driver. Call it before anything asks libtorch about CUDA
/// (seeding the generators does): [`best_device`] and [`cuda_is_available`] call it first.
#[cfg(feature = "torch")]
pub fn load_cuda_backend() {
    static LOAD: Once = Once::new();
    LOAD.call_once(|| {
        #[cfg(target_os = "linux")]
        linux::load();
    });
}

#[cfg(all(feature = "torch", target_os = "linux"))]
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
