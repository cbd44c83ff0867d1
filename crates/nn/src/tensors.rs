//! What goes into and comes out of one forward pass.

use crate::host_batch::HostBatch;
use std::marker::PhantomData;
use std::ops::Deref;
use tch::{Device, Kind, Tensor};

/// A batch of positions, as the network reads it. All tensors share the batch size `N` and the
/// grid `H` x `W`; positions on smaller boards are padded and masked.
#[derive(Debug)]
pub struct Inputs {
    /// `[N, C, H, W]` planes from [`game::Planes::encode`], in the network's kind.
    pub planes: Tensor,
    /// `[N, H, W]` 1 on the board, 0 on padding, in the network's kind.
    pub board_mask: Tensor,
    /// `[N, num_actions]` in the network's kind: 0 for a legal action, [`crate::ILLEGAL_LOGIT`]
    /// for an illegal one, added to the policy logits. An addition is a vectorised kernel;
    /// selecting by a bool mask (`where`, `masked_fill`) branches per action and mispredicts
    /// on a real position's mix of legal and illegal moves (3.5% of a tiny net's pass).
    pub illegal_bias: Tensor,
}

impl Inputs {
    pub fn batch_size(&self) -> i64 {
        self.planes.size()[0]
    }

    /// The same batch on `device`, with the float tensors cast to `kind`.
    pub fn to(&self, device: Device, kind: Kind) -> Inputs {
        Inputs {
            planes: self.planes.to_device(device).to_kind(kind),
            board_mask: self.board_mask.to_device(device).to_kind(kind),
            illegal_bias: self.illegal_bias.to_device(device).to_kind(kind),
        }
    }
}

/// The network's predictions for a batch, all from the point of view of the side to move.
#[derive(Debug)]
pub struct Output {
    /// `[N, num_actions]` policy logits, illegal actions shifted by [`crate::ILLEGAL_LOGIT`].
    pub policy_logits: Tensor,
    /// `[N, num_actions]` logits of the soft policy, masked alike, if the net has one.
    pub soft_policy_logits: Option<Tensor>,
    /// `[N, 3]` win/draw/loss logits.
    pub wdl_logits: Tensor,
    /// `[N]` predicted final score lead, in the game's score units.
    pub lead: Tensor,
    /// `[N, H, W]` predicted final owner of each cell in [-1, 1]; 0 off the board.
    pub ownership: Tensor,
    /// `[N, H, W]` the board mask the network pooled with, for losses over on-board cells.
    pub board_mask: Tensor,
}

impl HostBatch {
    /// The encoded batch as tensors on `device`, floats in `kind`. On the CPU in f32 the
    /// tensors read this batch's buffers in place: copying the planes into fresh tensors (about
    /// 600 KB per 64-position batch on size 4) was a twentieth of a tiny net's forward pass.
    pub fn inputs(&self, device: Device, kind: Kind) -> BatchInputs<'_> {
        let (shape, num_actions) = self.layout().expect("encode a batch before reading it");
        let (rows, c, h, w) = (
            self.rows() as i64,
            shape.channels as i64,
            shape.height as i64,
            shape.width as i64,
        );
        assert_eq!(
            self.planes().len(),
            (rows * c * h * w) as usize,
            "planes fill the batch"
        );
        assert_eq!(
            self.board_mask().len(),
            (rows * h * w) as usize,
            "masks fill the batch"
        );
        assert_eq!(
            self.illegal_bias().len(),
            self.rows() * num_actions,
            "biases fill the batch"
        );
        let floats = |data: &[f32], dims: &[i64]| {
            // SAFETY: `data` holds exactly `dims`' elements, contiguous, and outlives the
            // tensor: `BatchInputs` borrows the batch for as long as the tensors live.
            unsafe { borrowed(data.as_ptr().cast(), dims, Kind::Float) }
                .to_device(device)
                .to_kind(kind)
        };
        BatchInputs {
            inputs: Inputs {
                planes: floats(self.planes(), &[rows, c, h, w]),
                board_mask: floats(self.board_mask(), &[rows, h, w]),
                illegal_bias: floats(self.illegal_bias(), &[rows, num_actions as i64]),
            },
            batch: PhantomData,
        }
    }
}

/// A contiguous tensor over memory it does not own.
///
/// # Safety
/// `data` must point to `dims`' product of `kind` elements, valid and unchanged for as long
/// as the tensor or any view of it lives.
unsafe fn borrowed(data: *const u8, dims: &[i64], kind: Kind) -> Tensor {
    let mut strides = vec![1i64; dims.len()];
    for axis in (0..dims.len().saturating_sub(1)).rev() {
        strides[axis] = strides[axis + 1] * dims[axis + 1];
    }
    // SAFETY: the caller's promise.
    unsafe { Tensor::from_blob(data, dims, &strides, kind, Device::Cpu) }
}

/// A [`HostBatch`]'s tensors, which may read its buffers in place (see [`HostBatch::inputs`]):
/// the borrow keeps the batch unchanged while they live. Whatever the network computes from
/// them (its outputs' `board_mask` is a view of the input mask) must be dropped with them, or
/// copied out with [`BatchInputs::to_owned`] first.
#[derive(Debug)]
pub struct BatchInputs<'batch> {
    inputs: Inputs,
    batch: PhantomData<&'batch HostBatch>,
}

impl BatchInputs<'_> {
    /// Tensors of their own, free of the batch.
    pub fn to_owned(&self) -> Inputs {
        Inputs {
            planes: self.inputs.planes.copy(),
            board_mask: self.inputs.board_mask.copy(),
            illegal_bias: self.inputs.illegal_bias.copy(),
        }
    }
}

impl Deref for BatchInputs<'_> {
    type Target = Inputs;

    fn deref(&self) -> &Inputs {
        &self.inputs
    }
}
