//! TensorBoard scalars for a run.

use std::path::Path;
use tensorboard_rs::summary_writer::SummaryWriter;

/// Writes scalars under `RUN/tensorboard/`; point `tensorboard --logdir RUN/tensorboard` at it.
pub struct Metrics {
    writer: SummaryWriter,
}

impl Metrics {
    pub fn open(dir: &Path) -> Metrics {
        Metrics {
            writer: SummaryWriter::new(dir),
        }
    }

    pub fn scalar(&mut self, tag: &str, value: f64, step: u64) {
        self.writer.add_scalar(tag, value as f32, step as usize);
    }

    pub fn flush(&mut self) {
        self.writer.flush();
    }
}
