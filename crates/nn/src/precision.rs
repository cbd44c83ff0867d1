//! Mixed-precision training: the forward pass under libtorch's autocast in bf16, as PyTorch's
//! `torch.autocast(device_type, dtype=torch.bfloat16)` and KataGo's `-use-bf16` run it; and the
//! type inference passes run in ([`InferencePrecision`]), where the whole folded net is cast.
//!
//! Autocast runs the matrix work (convolutions, linear layers) in bf16 and keeps what needs the
//! range in f32 (softmax, the losses, batch norm's statistics); the weights stay f32, so the
//! optimiser and the checkpoints are unchanged. bf16 has f32's exponent, so unlike fp16 it
//! needs no loss scaling.
//!
//! tch binds only `at::autocast::set_enabled`, which turns on CUDA's autocast at its default
//! type, fp16. The type and the CPU's autocast are set through four functions of libtorch's C++
//! API, bound below by their (Itanium ABI) names; both enums they take are `int8_t`-based.

use serde::{Deserialize, Serialize};
use tch::{Device, Kind};

/// The type a training step's forward pass computes in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// Everything in f32.
    #[default]
    Fp32,
    /// Convolutions and matrix products in bf16 under autocast, weights and losses in f32.
    /// Fast where the device has bf16 units (a GPU from Ampere on, recent Xeons); on other
    /// CPUs it runs, slower than f32.
    Bf16,
    /// bf16 where the device computes it faster than f32 ([`bf16_is_fast_on`]), f32
    /// elsewhere: one config that trains at its best on a GPU, a CPU with bf16 instructions
    /// and any other CPU.
    Fast,
}

impl Precision {
    pub fn name(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Bf16 => "bf16",
            Precision::Fast => "fast",
        }
    }

    /// `fp32` or `bf16`: what a step on `device` computes in.
    pub fn resolved_on(self, device: Device) -> Precision {
        match self {
            Precision::Fast if bf16_is_fast_on(device) => Precision::Bf16,
            Precision::Fast => Precision::Fp32,
            exact => exact,
        }
    }
}

impl std::str::FromStr for Precision {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        [Precision::Fp32, Precision::Bf16, Precision::Fast]
            .into_iter()
            .find(|precision| precision.name() == text)
            .ok_or_else(|| format!("`{text}`: expected fp32, bf16 or fast"))
    }
}

/// The type a network's inference passes (search's evaluations) compute in. Batch norm is
/// folded into the convolutions first, so a bf16 pass is bf16 throughout, its softmaxes and
/// outputs read back in f32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InferencePrecision {
    /// bf16 on CUDA, f32 on a CPU: the choice every run and bot made before this switch.
    #[default]
    Auto,
    /// f32 on every device.
    Fp32,
    /// bf16 on every device: on a CPU with bf16 instructions (Intel's AMX, from Sapphire
    /// Rapids on; AVX-512's bf16, an AMD EPYC of Zen 4) oneDNN runs the convolutions on them;
    /// on other CPUs it runs, far slower than f32 (`ghast bench nn --precision fp32,bf16`
    /// tells which a machine is).
    Bf16,
    /// bf16 where the device computes it faster than f32 ([`bf16_is_fast_on`]: CUDA, or a
    /// CPU with AMX or AVX512-BF16), f32 elsewhere. Unlike `auto`, a CPU's choice depends on
    /// the CPU, so bots, whose games should not, keep `auto`.
    Fast,
}

impl InferencePrecision {
    /// The tensor kind the weights and inputs take on `device`.
    pub fn kind_on(self, device: Device) -> Kind {
        match self {
            InferencePrecision::Auto if device.is_cuda() => Kind::BFloat16,
            InferencePrecision::Fast if bf16_is_fast_on(device) => Kind::BFloat16,
            InferencePrecision::Auto | InferencePrecision::Fp32 | InferencePrecision::Fast => {
                Kind::Float
            }
            InferencePrecision::Bf16 => Kind::BFloat16,
        }
    }

    /// What the passes on `device` compute in, as logs and reports name it: `bf16` or `f32`.
    pub fn type_name_on(self, device: Device) -> &'static str {
        match self.kind_on(device) {
            Kind::BFloat16 => "bf16",
            _ => "f32",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            InferencePrecision::Auto => "auto",
            InferencePrecision::Fp32 => "fp32",
            InferencePrecision::Bf16 => "bf16",
            InferencePrecision::Fast => "fast",
        }
    }
}

impl std::str::FromStr for InferencePrecision {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        use InferencePrecision::*;
        [Auto, Fp32, Bf16, Fast]
            .into_iter()
            .find(|precision| precision.name() == text)
            .ok_or_else(|| format!("`{text}`: expected auto, fp32, bf16 or fast"))
    }
}

/// Whether `device` runs bf16 convolutions faster than f32: a CUDA GPU, or a CPU with bf16
/// instructions, which libtorch's oneDNN uses: AMX's bf16 tiles (Xeon from Sapphire Rapids
/// on: 1.3x self-play's evaluations and 1.65x the training steps on Go's 4 x 32 net,
/// BENCHMARKS.md) or AVX-512's (an AMD EPYC with `avx512_bf16`: 1.38x and 1.55x). On a CPU
/// with neither (AVX2 only) bf16 is 18 to 30 times slower than f32.
pub fn bf16_is_fast_on(device: Device) -> bool {
    device.is_cuda() || cpu_has_bf16_instructions()
}

/// CPUID's AMX-BF16 (leaf 7, sub-leaf 0, EDX bit 22) or AVX512-BF16 (leaf 7, sub-leaf 1, EAX
/// bit 5), read once: under a hypervisor each CPUID is a trap, and [`autocast`] asks at every
/// training step. `is_x86_feature_detected!` knows neither in this Rust.
fn cpu_has_bf16_instructions() -> bool {
    static HAS_BF16: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS_BF16.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__cpuid, __cpuid_count};
            const AMX_BF16: u32 = 1 << 22;
            const AVX512_BF16: u32 = 1 << 5;
            // Leaf 7 is read only where leaf 0 says it is there, and its sub-leaf 1 where
            // sub-leaf 0's EAX (the last sub-leaf) does.
            if __cpuid(0).eax < 7 {
                return false;
            }
            let features = __cpuid_count(7, 0);
            features.edx & AMX_BF16 != 0
                || (features.eax >= 1 && __cpuid_count(7, 1).eax & AVX512_BF16 != 0)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// `c10::DeviceType`'s values for the two devices autocast is set for here.
const DEVICE_TYPE_CPU: i8 = 0;
const DEVICE_TYPE_CUDA: i8 = 1;
/// `c10::ScalarType::BFloat16`.
const SCALAR_TYPE_BFLOAT16: i8 = 15;

unsafe extern "C" {
    #[link_name = "_ZN2at8autocast19is_autocast_enabledEN3c1010DeviceTypeE"]
    fn is_autocast_enabled(device_type: i8) -> bool;
    #[link_name = "_ZN2at8autocast20set_autocast_enabledEN3c1010DeviceTypeEb"]
    fn set_autocast_enabled(device_type: i8, enabled: bool);
    #[link_name = "_ZN2at8autocast18get_autocast_dtypeEN3c1010DeviceTypeE"]
    fn get_autocast_dtype(device_type: i8) -> i8;
    #[link_name = "_ZN2at8autocast18set_autocast_dtypeEN3c1010DeviceTypeENS1_10ScalarTypeE"]
    fn set_autocast_dtype(device_type: i8, dtype: i8);
}

/// Runs `f` (a forward pass on `device`) in `precision`: under autocast in bf16, or as it is in
/// f32. Autocast is per thread; it is restored as it was when `f` returns or panics.
pub fn autocast<T>(precision: Precision, device: Device, f: impl FnOnce() -> T) -> T {
    if precision.resolved_on(device) == Precision::Bf16 {
        let _autocast = Autocast::enter(device, SCALAR_TYPE_BFLOAT16);
        f()
    } else {
        f()
    }
}

/// Autocast switched on for one device type in one type, until dropped.
struct Autocast {
    device_type: i8,
    was_enabled: bool,
    old_dtype: i8,
}

impl Autocast {
    fn enter(device: Device, dtype: i8) -> Autocast {
        let device_type = device_type(device);
        // SAFETY: the functions only read and write autocast's thread-local state, and both
        // values are valid `c10` enum values; none of them throws for CPU or CUDA.
        unsafe {
            let was_enabled = is_autocast_enabled(device_type);
            let old_dtype = get_autocast_dtype(device_type);
            set_autocast_dtype(device_type, dtype);
            set_autocast_enabled(device_type, true);
            torch_sys::at_autocast_increment_nesting();
            Autocast {
                device_type,
                was_enabled,
                old_dtype,
            }
        }
    }
}

impl Drop for Autocast {
    fn drop(&mut self) {
        // SAFETY: as in `enter`. The cache of weights cast to bf16 is freed when the outermost
        // autocast region ends, as PyTorch's context manager does: the weights change at the
        // next optimiser step.
        unsafe {
            if torch_sys::at_autocast_decrement_nesting() == 0 {
                torch_sys::at_autocast_clear_cache();
            }
            set_autocast_enabled(self.device_type, self.was_enabled);
            set_autocast_dtype(self.device_type, self.old_dtype);
        }
    }
}

/// Whether autocast is on for `device`'s type on this thread.
pub fn autocast_is_on(device: Device) -> bool {
    // SAFETY: reads thread-local state.
    unsafe { is_autocast_enabled(device_type(device)) }
}

fn device_type(device: Device) -> i8 {
    if device.is_cuda() {
        DEVICE_TYPE_CUDA
    } else {
        DEVICE_TYPE_CPU
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::{Kind, Tensor};

    #[test]
    fn bf16_runs_matrix_products_in_bf16_and_restores_autocast() {
        let device = Device::Cpu;
        let a = Tensor::ones([4, 4], (Kind::Float, device));
        let f32_product = autocast(Precision::Fp32, device, || a.matmul(&a));
        assert_eq!(f32_product.kind(), Kind::Float);
        assert!(!autocast_is_on(device));
        let bf16_product = autocast(Precision::Bf16, device, || {
            assert!(autocast_is_on(device));
            a.matmul(&a)
        });
        assert_eq!(bf16_product.kind(), Kind::BFloat16);
        assert!(!autocast_is_on(device), "autocast left on after the region");
        assert_eq!(a.matmul(&a).kind(), Kind::Float);
    }

    /// CUDA's autocast type is fp16 until set: seen here on the CPU's, made fp16 first.
    #[test]
    fn bf16_is_set_whatever_autocast_type_was_there_and_the_old_one_comes_back() {
        const SCALAR_TYPE_HALF: i8 = 5;
        let device = Device::Cpu;
        // SAFETY: as in `Autocast::enter`.
        unsafe { set_autocast_dtype(DEVICE_TYPE_CPU, SCALAR_TYPE_HALF) };
        let a = Tensor::ones([4, 4], (Kind::Float, device));
        let product = autocast(Precision::Bf16, device, || a.matmul(&a));
        assert_eq!(product.kind(), Kind::BFloat16);
        // SAFETY: as above.
        let restored = unsafe { get_autocast_dtype(DEVICE_TYPE_CPU) };
        unsafe { set_autocast_dtype(DEVICE_TYPE_CPU, SCALAR_TYPE_BFLOAT16) };
        assert_eq!(restored, SCALAR_TYPE_HALF);
    }

    #[test]
    fn autocast_is_restored_after_a_panic() {
        let device = Device::Cpu;
        let result = std::panic::catch_unwind(|| {
            autocast(Precision::Bf16, device, || panic!("a failing forward pass"))
        });
        assert!(result.is_err());
        assert!(!autocast_is_on(device));
    }

    #[test]
    fn inference_runs_in_bf16_on_cuda_by_default_and_where_asked() {
        use InferencePrecision::*;
        assert_eq!(Auto.kind_on(Device::Cpu), Kind::Float);
        assert_eq!(Auto.kind_on(Device::Cuda(0)), Kind::BFloat16);
        assert_eq!(Fp32.kind_on(Device::Cuda(0)), Kind::Float);
        assert_eq!(Bf16.kind_on(Device::Cpu), Kind::BFloat16);
        assert_eq!(Fast.kind_on(Device::Cuda(0)), Kind::BFloat16);
        let on_this_cpu = if cpu_has_bf16_instructions() {
            Kind::BFloat16
        } else {
            Kind::Float
        };
        assert_eq!(Fast.kind_on(Device::Cpu), on_this_cpu);
        for precision in [Auto, Fp32, Bf16, Fast] {
            assert_eq!(
                precision.name().parse::<InferencePrecision>(),
                Ok(precision)
            );
        }
        assert!("f32".parse::<InferencePrecision>().is_err());
    }

    /// The kernel lists `amx_bf16` or `avx512_bf16` among a CPU's flags when CPUID says they
    /// are there.
    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn bf16_instructions_are_read_as_the_kernel_reads_them() {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo");
        let flags = cpuinfo
            .lines()
            .find(|line| line.starts_with("flags"))
            .expect("a flags line in /proc/cpuinfo");
        let listed = flags
            .split_whitespace()
            .any(|flag| flag == "amx_bf16" || flag == "avx512_bf16");
        assert_eq!(cpu_has_bf16_instructions(), listed, "{flags}");
    }

    #[test]
    fn precision_names_parse_back() {
        for precision in [Precision::Fp32, Precision::Bf16, Precision::Fast] {
            assert_eq!(precision.name().parse::<Precision>(), Ok(precision));
        }
        assert_eq!(
            Precision::Fast.resolved_on(Device::Cuda(0)),
            Precision::Bf16
        );
        assert_eq!(Precision::Bf16.resolved_on(Device::Cpu), Precision::Bf16);
        let on_this_cpu = Precision::Fast.resolved_on(Device::Cpu);
        assert_eq!(on_this_cpu == Precision::Bf16, cpu_has_bf16_instructions());
        assert!("fp16".parse::<Precision>().is_err());
    }
}
