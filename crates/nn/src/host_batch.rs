//! Encoding positions into host buffers that are reused from batch to batch.

use crate::tensors::Inputs;
use game::{PlaneShape, Planes};
use tch::{Device, Kind, Tensor};

/// Planes, board masks and legal-action masks of a batch, on the host.
///
/// Buffers keep their allocation between batches, so steady-state encoding allocates nothing.
#[derive(Debug, Default)]
pub struct HostBatch {
    planes: Vec<f32>,
    board_mask: Vec<f32>,
    legal: Vec<bool>,
    actions: Vec<usize>,
    rows: usize,
    shape: Option<PlaneShape>,
    num_actions: usize,
}

impl HostBatch {
    /// Encodes `positions` into the first rows of a `rows`-row batch. The rows after them are
    /// padding: no board, no legal actions. All positions must share one plane shape and
    /// action count (one board size).
    pub fn encode<G: Planes>(&mut self, positions: &[&G], rows: usize) {
        assert!(
            !positions.is_empty() && positions.len() <= rows,
            "{} positions do not fit a {rows}-row batch",
            positions.len()
        );
        let shape = positions[0].plane_shape();
        let num_actions = positions[0].num_actions();
        let (len, cells) = (shape.len(), shape.cells());
        let used = positions.len();
        // Every row is overwritten (`encode` and `board_mask` write all their values), so
        // only the padding rows need clearing, not the whole batch first.
        self.planes.resize(rows * len, 0.0);
        self.board_mask.resize(rows * cells, 0.0);
        self.legal.resize(rows * num_actions, false);
        for (row, position) in positions.iter().enumerate() {
            assert_eq!(
                position.plane_shape(),
                shape,
                "one batch holds one board size"
            );
            position.encode(&mut self.planes[row * len..][..len]);
            position.board_mask(&mut self.board_mask[row * cells..][..cells]);
            position.legal_actions(&mut self.actions);
            let legal = &mut self.legal[row * num_actions..][..num_actions];
            legal.fill(false);
            for &action in &self.actions {
                legal[action] = true;
            }
        }
        self.planes[used * len..].fill(0.0);
        self.board_mask[used * cells..].fill(0.0);
        self.legal[used * num_actions..].fill(false);
        self.rows = rows;
        self.shape = Some(shape);
        self.num_actions = num_actions;
    }

    /// Empties the batch for rows of `shape` with `num_actions` actions, to be filled with
    /// [`HostBatch::append`] (allocations kept).
    pub fn clear(&mut self, shape: PlaneShape, num_actions: usize) {
        self.planes.clear();
        self.board_mask.clear();
        self.legal.clear();
        self.rows = 0;
        self.shape = Some(shape);
        self.num_actions = num_actions;
    }

    /// Appends the first `used` rows of `other`, which holds rows of the same shape: how an
    /// inference server merges the batches of many search threads into one.
    pub fn append(&mut self, other: &HostBatch, used: usize) {
        let shape = other.shape.expect("append an encoded batch");
        assert_eq!(Some(shape), self.shape, "one batch holds one board size");
        assert_eq!(
            other.num_actions, self.num_actions,
            "one batch holds one board size"
        );
        assert!(
            used <= other.rows,
            "{used} rows of a {}-row batch",
            other.rows
        );
        self.planes
            .extend_from_slice(&other.planes[..used * shape.len()]);
        self.board_mask
            .extend_from_slice(&other.board_mask[..used * shape.cells()]);
        self.legal
            .extend_from_slice(&other.legal[..used * self.num_actions]);
        self.rows += used;
    }

    /// Pads the batch with empty rows (no board, no legal actions) to `rows` rows.
    pub fn pad_to(&mut self, rows: usize) {
        let shape = self.shape.expect("pad an encoded batch");
        assert!(rows >= self.rows, "cannot pad {} rows to {rows}", self.rows);
        self.planes.resize(rows * shape.len(), 0.0);
        self.board_mask.resize(rows * shape.cells(), 0.0);
        self.legal.resize(rows * self.num_actions, false);
        self.rows = rows;
    }

    /// Rows in the batch, padding included.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The board shape and action count of the rows, once encoded.
    pub fn layout(&self) -> Option<(PlaneShape, usize)> {
        self.shape.map(|shape| (shape, self.num_actions))
    }

    /// The encoded batch as tensors on `device`, floats in `kind`.
    pub fn inputs(&self, device: Device, kind: Kind) -> Inputs {
        let shape = self.shape.expect("encode a batch before reading it");
        let (rows, c, h, w) = (
            self.rows as i64,
            shape.channels as i64,
            shape.height as i64,
            shape.width as i64,
        );
        let floats = |data: &[f32], dims: &[i64]| {
            Tensor::from_slice(data)
                .view(dims)
                .to_device(device)
                .to_kind(kind)
        };
        Inputs {
            planes: floats(&self.planes, &[rows, c, h, w]),
            board_mask: floats(&self.board_mask, &[rows, h, w]),
            legal: Tensor::from_slice(&self.legal)
                .view([rows, self.num_actions as i64])
                .to_device(device),
        }
    }
}
