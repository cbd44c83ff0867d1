//! Encoding positions into host buffers that are reused from batch to batch.

use game::{PlaneShape, Planes};

/// Logit given to illegal actions: finite, so that a zero target times its log-probability is
/// zero rather than NaN, and still far below any real logit (also in bf16).
pub const ILLEGAL_LOGIT: f64 = -1e9;

/// Planes, board masks and illegal-action biases of a batch, on the host.
///
/// Buffers keep their allocation between batches, so steady-state encoding allocates nothing.
#[derive(Debug, Default)]
pub struct HostBatch {
    planes: Vec<f32>,
    board_mask: Vec<f32>,
    /// Per row and action: 0 for a legal action, [`ILLEGAL_LOGIT`] for an illegal one.
    illegal_bias: Vec<f32>,
    /// Each row's [`game::Game::hash`] (0 for padding): what a simulated accelerator answers
    /// from, since it runs no network on the planes.
    hashes: Vec<u64>,
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
        self.illegal_bias.resize(rows * num_actions, 0.0);
        self.hashes.resize(rows, 0);
        for (row, position) in positions.iter().enumerate() {
            assert_eq!(
                position.plane_shape(),
                shape,
                "one batch holds one board size"
            );
            position.encode(&mut self.planes[row * len..][..len]);
            position.board_mask(&mut self.board_mask[row * cells..][..cells]);
            position.legal_actions(&mut self.actions);
            let bias = &mut self.illegal_bias[row * num_actions..][..num_actions];
            bias.fill(ILLEGAL_LOGIT as f32);
            for &action in &self.actions {
                bias[action] = 0.0;
            }
            self.hashes[row] = position.hash();
        }
        self.planes[used * len..].fill(0.0);
        self.board_mask[used * cells..].fill(0.0);
        self.illegal_bias[used * num_actions..].fill(ILLEGAL_LOGIT as f32);
        self.hashes[used..].fill(0);
        self.rows = rows;
        self.shape = Some(shape);
        self.num_actions = num_actions;
    }

    /// Empties the batch for rows of `shape` with `num_actions` actions, to be filled with
    /// [`HostBatch::append`] (allocations kept).
    pub fn clear(&mut self, shape: PlaneShape, num_actions: usize) {
        self.planes.clear();
        self.board_mask.clear();
        self.illegal_bias.clear();
        self.hashes.clear();
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
        self.illegal_bias
            .extend_from_slice(&other.illegal_bias[..used * self.num_actions]);
        self.hashes.extend_from_slice(&other.hashes[..used]);
        self.rows += used;
    }

    /// Pads the batch with empty rows (no board, no legal actions) to `rows` rows.
    pub fn pad_to(&mut self, rows: usize) {
        let shape = self.shape.expect("pad an encoded batch");
        assert!(rows >= self.rows, "cannot pad {} rows to {rows}", self.rows);
        self.planes.resize(rows * shape.len(), 0.0);
        self.board_mask.resize(rows * shape.cells(), 0.0);
        self.illegal_bias
            .resize(rows * self.num_actions, ILLEGAL_LOGIT as f32);
        self.hashes.resize(rows, 0);
        self.rows = rows;
    }

    /// Each row's planes, channel-major, `PlaneShape::len` a row.
    pub(crate) fn planes(&self) -> &[f32] {
        &self.planes
    }

    /// Each row's board mask, a value a cell.
    pub(crate) fn board_mask(&self) -> &[f32] {
        &self.board_mask
    }

    /// Each row's illegal-action biases, `num_actions` a row.
    pub(crate) fn illegal_bias(&self) -> &[f32] {
        &self.illegal_bias
    }

    /// Each row's position hash.
    pub(crate) fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Rows in the batch, padding included.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The board shape and action count of the rows, once encoded.
    pub fn layout(&self) -> Option<(PlaneShape, usize)> {
        self.shape.map(|shape| (shape, self.num_actions))
    }
}

/// Where positions of several grids are interleaved (self-play of a run that mixes board
/// sizes: its games' leaves come in slot order), the order that groups them by grid, each
/// grid's positions in their own order; `None` when they already come grid by grid. Sent in
/// this order, a request goes to the device as one batch a grid instead of one a run.
pub fn grouped_by_grid<G: Planes>(positions: &[&G]) -> Option<Vec<usize>> {
    let grid = |index: usize| {
        let shape = positions[index].plane_shape();
        (shape.height, shape.width, shape.channels)
    };
    let runs = (1..positions.len())
        .filter(|&i| grid(i) != grid(i - 1))
        .count();
    let mut seen = Vec::new();
    for index in 0..positions.len() {
        if !seen.contains(&grid(index)) {
            seen.push(grid(index));
        }
    }
    if positions.is_empty() || runs + 1 == seen.len() {
        return None;
    }
    let mut order: Vec<usize> = (0..positions.len()).collect();
    order.sort_by_key(|&index| seen.iter().position(|&g| g == grid(index)));
    Some(order)
}

/// The runs of consecutive positions that share a grid, each of at most `max` positions: one
/// [`HostBatch`] holds one board size, so a request that mixes sizes (self-play of a run
/// that mixes board sizes) goes to the device as several batches.
pub fn runs_of_one_grid<'a, G: Planes>(
    positions: &'a [&'a G],
    max: usize,
) -> impl Iterator<Item = std::ops::Range<usize>> + 'a {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= positions.len() {
            return None;
        }
        let shape = positions[start].plane_shape();
        let end = (start + 1..positions.len())
            .find(|&i| i - start == max || positions[i].plane_shape() != shape)
            .unwrap_or(positions.len());
        let run = start..end;
        start = end;
        Some(run)
    })
}
