//! A forward pass's answers on the host, one row a position, and their conversion into the
//! evaluations search reads. Every backend writes them; the evaluator and the server read
//! them.

use game::Evaluation;
use std::ops::Range;

/// Softmaxed policies, WDL probabilities and leads of a batch's positions, one row each;
/// buffers kept from pass to pass.
#[derive(Debug, Default)]
pub(crate) struct Outputs {
    pub policy: Vec<f32>,
    pub wdl: Vec<f32>,
    pub lead: Vec<f32>,
}

impl Outputs {
    /// Room for `rows` rows of `num_actions` actions (allocation kept).
    pub fn resize(&mut self, rows: usize, num_actions: usize) {
        self.policy.resize(rows * num_actions, 0.0);
        self.wdl.resize(rows * 3, 0.0);
        self.lead.resize(rows, 0.0);
    }

    /// Rows `rows` as (policies, WDL, leads), `num_actions` policy entries a row.
    pub fn rows(&self, rows: Range<usize>, num_actions: usize) -> (&[f32], &[f32], &[f32]) {
        (
            &self.policy[rows.start * num_actions..rows.end * num_actions],
            &self.wdl[rows.start * 3..rows.end * 3],
            &self.lead[rows],
        )
    }
}

/// Fills `out` from one row per evaluation of softmaxed policies, WDL probabilities and leads.
pub(crate) fn write_evaluations(policy: &[f32], wdl: &[f32], lead: &[f32], out: &mut [Evaluation]) {
    let num_actions = policy.len() / lead.len().max(1);
    let rows = policy
        .chunks_exact(num_actions.max(1))
        .zip(wdl.chunks_exact(3))
        .zip(lead);
    for (evaluation, ((policy, wdl), &lead)) in out.iter_mut().zip(rows) {
        evaluation.policy.clear();
        evaluation.policy.extend_from_slice(policy);
        evaluation.value = wdl[0] - wdl[2];
        evaluation.lead = lead;
    }
}
