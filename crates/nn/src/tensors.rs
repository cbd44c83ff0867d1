//! What goes into and comes out of one forward pass.

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
