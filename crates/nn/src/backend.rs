//! What runs a forward pass (Lc0's word): a network on a libtorch device (with the `torch`
//! feature), a bundle's `model.onnx` on tract, or a simulated accelerator. The evaluator owns
//! one; the inference server shares one between its threads
//! behind a lock, which is the device. Every pass runs inside [`on_device`], so a failed device
//! comes back as a [`DeviceError`] and not as a panic.

use crate::failure::{injected_failure, injected_failure_message, on_device};
use crate::host_batch::HostBatch;
#[cfg(feature = "torch")]
use crate::model::Network;
use crate::onnx_model::OnnxModel;
use crate::outputs::Outputs;
use crate::simulated::SimulatedDevice;
use game::DeviceError;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(feature = "torch")]
use tch::{Device, Kind};

/// A network or a simulated accelerator, with its passes counted.
#[derive(Debug)]
pub(crate) struct Backend {
    compute: Compute,
    /// `cpu`, `cuda:N` or the simulated device's `sim:A_MS,B_US`: what errors name.
    name: String,
    /// Forward passes run so far.
    passes: AtomicU64,
    /// The pass from which on every pass fails, where a failure is injected
    /// ([`crate::inject_failure_at_pass`]).
    fails_from: Option<NonZeroU64>,
}

#[derive(Debug)]
enum Compute {
    #[cfg(feature = "torch")]
    Network {
        network: Box<Network>,
        device: Device,
        kind: Kind,
    },
    Onnx(Box<OnnxModel>),
    Simulated(SimulatedDevice),
}

impl Backend {
    /// `network` moved to `device` in `kind`, batch norm folded: ready for inference.
    #[cfg(feature = "torch")]
    pub fn network(network: Network, device: Device, kind: Kind) -> Backend {
        Backend::with(Compute::network(network, device, kind))
    }

    pub fn simulated(device: SimulatedDevice) -> Backend {
        Backend::with(Compute::Simulated(device))
    }

    /// A `model.onnx` run by tract on the CPU.
    pub fn onnx(model: OnnxModel) -> Backend {
        Backend::with(Compute::Onnx(Box::new(model)))
    }

    fn with(compute: Compute) -> Backend {
        let name = match &compute {
            #[cfg(feature = "torch")]
            Compute::Network { device, .. } => crate::device_name(*device),
            Compute::Onnx(_) => ONNX_DEVICE.to_owned(),
            Compute::Simulated(simulated) => simulated.to_string(),
        };
        Backend {
            compute,
            name,
            passes: AtomicU64::new(0),
            fails_from: injected_failure(),
        }
    }

    /// This backend fails at its `pass`th forward pass and every one after it, as a device
    /// that failed does.
    pub fn fail_from_pass(&mut self, pass: NonZeroU64) {
        self.fails_from = Some(pass);
    }

    /// Whether batches are padded to powers of two and every bucket is warmed up: a GPU's
    /// kernels are tuned per shape (the simulated one stands in for a GPU).
    pub fn is_accelerator(&self) -> bool {
        match &self.compute {
            #[cfg(feature = "torch")]
            Compute::Network { device, .. } => device.is_cuda(),
            Compute::Onnx(_) => false,
            Compute::Simulated(_) => true,
        }
    }

    /// Whether the backend is simulated: it needs no warm-up and predicts no ownership.
    pub fn is_simulated(&self) -> bool {
        matches!(self.compute, Compute::Simulated(_))
    }

    /// `cpu`, `cuda:N`, `onnx:cpu` or the simulated device's `sim:A_MS,B_US`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs the batch in `host`, whose first `used` rows are positions (the rest padding),
    /// leaving their policies, WDL and leads in `out`, and with `ownership` (a network's
    /// head, which runs anyway) their ownership too.
    pub fn forward(
        &self,
        host: &HostBatch,
        used: usize,
        ownership: bool,
        out: &mut Outputs,
    ) -> Result<(), DeviceError> {
        self.pass(|compute| match compute {
            #[cfg(feature = "torch")]
            Compute::Network {
                network,
                device,
                kind,
            } => {
                torch_forward(network, *device, *kind, host, used, ownership, out);
                Ok(())
            }
            Compute::Onnx(model) => model.forward(host, used, ownership, out),
            Compute::Simulated(simulated) => {
                simulated.forward(host, used, out);
                Ok(())
            }
        })?
        .map_err(|message| DeviceError {
            device: self.name.clone(),
            message,
        })
    }

    /// Whether passes can give ownership: a network's head; a simulated device has none.
    pub fn predicts_ownership(&self) -> bool {
        !self.is_simulated()
    }

    /// One pass on the device, counted, failing where a failure is injected.
    fn pass<T>(&self, run: impl FnOnce(&Compute) -> T) -> Result<T, DeviceError> {
        let pass = self.passes.fetch_add(1, Ordering::Relaxed) + 1;
        on_device(&self.name, || {
            if self.fails_from.is_some_and(|from| pass >= from.get()) {
                panic!("{}", injected_failure_message(pass));
            }
            run(&self.compute)
        })
    }

    /// Swaps in new weights of the same architecture, moved to this backend's device and
    /// precision (a simulated device has no weights: it keeps answering as it did).
    #[cfg(feature = "torch")]
    pub fn replace_network(&mut self, replacement: Network) {
        if let Compute::Network { device, kind, .. } = self.compute {
            self.compute = Compute::network(replacement, device, kind);
        }
    }
}

#[cfg(feature = "torch")]
impl Compute {
    fn network(mut network: Network, device: Device, kind: Kind) -> Compute {
        network.to(device, kind);
        network.fold_batch_norm();
        Compute::Network {
            network: Box::new(network),
            device,
            kind,
        }
    }
}

/// What errors name a `model.onnx` backend's device by.
const ONNX_DEVICE: &str = "onnx:cpu";

/// One pass of `network` on libtorch: the first `used` rows' policies, WDL and leads into
/// `out`, with `ownership` their ownership too.
#[cfg(feature = "torch")]
fn torch_forward(
    network: &Network,
    device: Device,
    kind: Kind,
    host: &HostBatch,
    used: usize,
    ownership: bool,
    out: &mut Outputs,
) {
    let inputs = host.inputs(device, kind);
    let output = tch::no_grad(|| network.forward_t(&inputs, false));
    let n = used as i64;
    let policy = output
        .policy_logits
        .narrow(0, 0, n)
        .softmax(-1, Kind::Float);
    let wdl = output.wdl_logits.narrow(0, 0, n).softmax(-1, Kind::Float);
    let lead = output.lead.narrow(0, 0, n).to_kind(Kind::Float);
    copy_to_host(&policy, &mut out.policy);
    copy_to_host(&wdl, &mut out.wdl);
    copy_to_host(&lead, &mut out.lead);
    if ownership {
        let cells = output.ownership.narrow(0, 0, n).to_kind(Kind::Float);
        copy_to_host(&cells, &mut out.ownership);
    } else {
        out.ownership.clear();
    }
}

/// Copies a float tensor into `buffer` (resized, allocation kept).
#[cfg(feature = "torch")]
fn copy_to_host(tensor: &tch::Tensor, buffer: &mut Vec<f32>) {
    let numel = tensor.numel();
    buffer.resize(numel, 0.0);
    tensor.to_device(Device::Cpu).copy_data(buffer, numel);
}

/// The smallest of `buckets` (ascending) that holds `len` rows.
pub(crate) fn bucket_for(buckets: &[usize], len: usize) -> usize {
    *buckets
        .iter()
        .find(|&&bucket| bucket >= len)
        .expect("len is at most the largest bucket")
}

/// Batch sizes a request is padded to, up to `max_batch` rounded up to a bucket: powers of
/// two on a GPU, whose kernels are tuned per shape; on the CPU powers of two up to
/// [`CPU_BUCKET_STEP`], then its multiples, because there padding costs time in proportion
/// (a batch of 54 padded to 64 wastes 16%).
pub(crate) fn buckets(max_batch: usize, accelerator: bool) -> Vec<usize> {
    let max_batch = max_batch.max(1);
    let next = |b: usize| {
        if accelerator || b < CPU_BUCKET_STEP {
            b * 2
        } else {
            b + CPU_BUCKET_STEP
        }
    };
    let mut buckets = vec![1];
    while *buckets.last().expect("not empty") < max_batch {
        let bucket = next(*buckets.last().expect("not empty"));
        buckets.push(bucket);
    }
    buckets
}

/// See [`buckets`].
const CPU_BUCKET_STEP: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_buckets_step_by_eight_and_gpu_buckets_double() {
        assert_eq!(buckets(40, false), [1, 2, 4, 8, 16, 24, 32, 40]);
        assert_eq!(buckets(33, false), [1, 2, 4, 8, 16, 24, 32, 40]);
        assert_eq!(buckets(40, true), [1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(buckets(0, false), [1]);
    }
}
