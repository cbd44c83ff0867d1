//! A forward pass's answers on the host, one row a position, and their conversion into the
//! evaluations search reads. Every backend writes them; the evaluator and the server read
//! them.

use game::Evaluation;
use std::ops::Range;

/// Softmaxed policies, WDL probabilities, leads and (where asked) ownership of a batch's
/// positions, one row each; buffers kept from pass to pass.
#[derive(Debug, Default)]
pub(crate) struct Outputs {
    pub policy: Vec<f32>,
    pub wdl: Vec<f32>,
    pub lead: Vec<f32>,
    /// Empty unless the pass was asked for ownership.
    pub ownership: Vec<f32>,
}

/// One or more rows of [`Outputs`].
pub(crate) struct Rows<'a> {
    pub policy: &'a [f32],
    pub wdl: &'a [f32],
    pub lead: &'a [f32],
    pub ownership: &'a [f32],
}

impl Outputs {
    /// Room for `rows` rows of `num_actions` actions and no ownership (allocation kept).
    pub fn resize(&mut self, rows: usize, num_actions: usize) {
        self.policy.resize(rows * num_actions, 0.0);
        self.wdl.resize(rows * 3, 0.0);
        self.lead.resize(rows, 0.0);
        self.ownership.clear();
    }

    /// All the rows.
    pub fn all(&self) -> Rows<'_> {
        self.rows(
            0..self.lead.len(),
            self.policy.len() / self.lead.len().max(1),
        )
    }

    /// Rows `rows`, `num_actions` policy entries a row.
    pub fn rows(&self, rows: Range<usize>, num_actions: usize) -> Rows<'_> {
        let cells = self.ownership.len() / self.lead.len().max(1);
        Rows {
            policy: &self.policy[rows.start * num_actions..rows.end * num_actions],
            wdl: &self.wdl[rows.start * 3..rows.end * 3],
            lead: &self.lead[rows.clone()],
            ownership: &self.ownership[rows.start * cells..rows.end * cells],
        }
    }
}

/// Fills `out` from `rows`, one an evaluation (ownership left empty where the rows have none).
pub(crate) fn write_evaluations(rows: Rows<'_>, out: &mut [Evaluation]) {
    let count = rows.lead.len().max(1);
    let num_actions = (rows.policy.len() / count).max(1);
    let cells = rows.ownership.len() / count;
    for (index, evaluation) in out.iter_mut().enumerate().take(rows.lead.len()) {
        evaluation.policy.clear();
        evaluation
            .policy
            .extend_from_slice(&rows.policy[index * num_actions..][..num_actions]);
        let wdl = &rows.wdl[index * 3..][..3];
        evaluation.value = wdl[0] - wdl[2];
        evaluation.lead = rows.lead[index];
        evaluation.ownership.clear();
        evaluation
            .ownership
            .extend_from_slice(&rows.ownership[index * cells..][..cells]);
    }
}
