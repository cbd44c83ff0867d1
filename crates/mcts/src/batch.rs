use crate::tree::Tree;
use game::Game;
use game::{DeviceError, Evaluation, Evaluator, PipelinedEvaluator};

/// Runs search steps over many trees with one evaluator call per step, and keeps the buffers
/// of that call from step to step so a step allocates nothing once they have grown.
///
/// A step is [`Batch::step`] with an [`Evaluator`], or, to keep the batch in flight while the
/// caller does other work, [`Batch::submit`] and later [`Batch::receive`] with a
/// [`PipelinedEvaluator`]; the trees must not be touched in between. A step the evaluator
/// fails (its device failed) leaves the trees mid-step: drop them.
#[derive(Debug)]
pub struct Batch<G: Game> {
    /// Always empty between steps; only its allocation is kept (see [`recycle`]).
    positions: Vec<&'static G>,
    evaluations: Vec<Evaluation>,
    /// Positions of the batch submitted and not yet received.
    in_flight: Option<usize>,
}

impl<G: Game> Default for Batch<G> {
    fn default() -> Self {
        Self {
            positions: Vec::new(),
            evaluations: Vec::new(),
            in_flight: None,
        }
    }
}

impl<G: Game> Batch<G> {
    pub fn new() -> Self {
        Self::default()
    }

    /// One step: every tree that is not done walks to its new leaves, all leaves go to
    /// `evaluator` in one call, and each tree expands its leaves and backs their values up.
    /// Returns the number of positions evaluated (0 when every tree is done).
    pub fn step<E: Evaluator<G> + ?Sized>(
        &mut self,
        trees: &mut [Tree<G>],
        evaluator: &mut E,
    ) -> Result<usize, DeviceError> {
        let count = self.collect(trees, |positions, evaluations| {
            evaluator.evaluate(positions, evaluations)
        })?;
        self.finish(trees, count);
        Ok(count)
    }

    /// The first half of a step: every tree that is not done walks to its new leaves, which
    /// go to `evaluator` in one batch (none when every tree is done). Returns their number.
    pub fn submit<E: PipelinedEvaluator<G> + ?Sized>(
        &mut self,
        trees: &mut [Tree<G>],
        evaluator: &mut E,
    ) -> Result<usize, DeviceError> {
        assert!(self.in_flight.is_none(), "one batch in flight at a time");
        let count = self.collect(trees, |positions, _| evaluator.submit(positions))?;
        self.in_flight = Some(count);
        Ok(count)
    }

    /// The second half: waits for the batch [`Batch::submit`] sent (if it sent one), and
    /// each tree expands its leaves and backs their values up. Returns the positions it
    /// evaluated.
    pub fn receive<E: PipelinedEvaluator<G> + ?Sized>(
        &mut self,
        trees: &mut [Tree<G>],
        evaluator: &mut E,
    ) -> Result<usize, DeviceError> {
        let count = self.in_flight.take().expect("receive follows a submit");
        if count > 0 {
            evaluator.receive(&mut self.evaluations[..count])?;
            self.finish(trees, count);
        }
        Ok(count)
    }

    /// Whether a submitted batch waits to be received.
    pub fn is_in_flight(&self) -> bool {
        self.in_flight.is_some()
    }

    /// Walks every tree that is not done to its leaves and hands them to `send` with room for
    /// their evaluations, unless there are none; returns their number.
    fn collect(
        &mut self,
        trees: &mut [Tree<G>],
        send: impl FnOnce(&[&G], &mut [Evaluation]) -> Result<(), DeviceError>,
    ) -> Result<usize, DeviceError> {
        let count: usize = trees
            .iter_mut()
            .filter(|tree| !tree.is_done())
            .map(|tree| tree.collect())
            .sum();
        if count == 0 {
            return Ok(0);
        }
        if self.evaluations.len() < count {
            self.evaluations.resize_with(count, Evaluation::default);
        }
        let mut positions = recycle(std::mem::take(&mut self.positions));
        positions.extend(trees.iter().flat_map(|tree| tree.pending_states()));
        let sent = send(&positions, &mut self.evaluations[..count]);
        self.positions = recycle(positions);
        sent.map(|()| count)
    }

    /// Hands the first `count` evaluations to the trees whose leaves they are, in order.
    fn finish(&mut self, trees: &mut [Tree<G>], count: usize) {
        let evaluations = &self.evaluations[..count];
        let mut offset = 0;
        for tree in trees.iter_mut() {
            let pending = tree.pending_count();
            if pending > 0 {
                tree.finish(&evaluations[offset..offset + pending]);
                offset += pending;
            }
        }
    }

    /// Steps until every tree is done.
    pub fn run<E: Evaluator<G> + ?Sized>(
        &mut self,
        trees: &mut [Tree<G>],
        evaluator: &mut E,
    ) -> Result<(), DeviceError> {
        while trees.iter().any(|tree| !tree.is_done()) {
            self.step(trees, evaluator)?;
        }
        Ok(())
    }
}

/// Empties a vector of references and hands its allocation back under another lifetime (and
/// type): the evaluator takes `&[&G]` borrowed from the trees, and this lets one buffer serve
/// every step. (An in-place `collect` between types of one layout reuses the buffer.)
pub(crate) fn recycle<'b, T: ?Sized, U: ?Sized>(mut refs: Vec<&T>) -> Vec<&'b U> {
    refs.clear();
    refs.into_iter()
        .map(|_| unreachable!("the vector is empty"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recycle_keeps_the_allocation() {
        let values = [1, 2, 3];
        let mut refs: Vec<&i32> = Vec::with_capacity(64);
        refs.extend(values.iter());
        let pointer = refs.as_ptr() as usize;
        let recycled: Vec<&'static u32> = recycle(refs);
        assert!(recycled.is_empty());
        assert_eq!(recycled.capacity(), 64);
        assert_eq!(recycled.as_ptr() as usize, pointer);
    }
}
