//! One gradient step at a time over samples from the replay window.

use crate::config::{OptimizerKind, TrainerConfig};
use crate::examples::{Example, example_at};
use game::{DeviceError, Planes};
use nn::{HostBatch, LossValues, Losses, Network, Targets};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use replay::{ShardHeader, ShardStore, Window};
use std::collections::HashMap;
use tch::nn::{Adam, OptimizerConfig, Sgd};
use tch::{Kind, Tensor};

/// Why a training step failed.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// The device failed (out of memory strikes here too).
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// The step's loss is not a finite number.
    #[error(
        "training step {step}: the loss is not a number ({losses:?}), so the run stops with \
         the generations written before it; a learning rate too high for the network, or a \
         bug, makes weights that are not numbers either"
    )]
    NotFinite { step: u64, losses: LossValues },
}

pub struct Trainer<G: Planes> {
    network: Network,
    /// The weights averaged over recent steps, where the config asks for them: what each
    /// generation plays ([`Trainer::played`]).
    averaged: Option<Network>,
    optimizer: tch::nn::Optimizer,
    config: TrainerConfig,
    options: G::Options,
    /// The options of each shard origin sampled so far (a run that mixes board sizes has
    /// several), read from its header's JSON, with their symmetry count.
    sampled_options: HashMap<String, Option<(G::Options, usize)>>,
    host: HostBatch,
    rng: ChaCha8Rng,
    /// Running mean of the surprise of sampled positions, which surprise weighting scales by.
    mean_surprise: f64,
}

/// A position's sampling weight may be at most this many times the mean: one freak position
/// must not dominate, and rejection sampling needs a bound.
const MAX_SURPRISE_WEIGHT: f64 = 4.0;
/// How many training batches the averaged weights' batch-norm statistics are measured on.
const BATCH_NORM_BATCHES: usize = 4;
/// How fast the running mean of the surprise follows the data.
const SURPRISE_MEAN_RATE: f64 = 0.01;

impl<G: Planes> Trainer<G> {
    /// A trainer of `network`; where the config averages weights, the average starts at
    /// `averaged` (a resumed run's last generation) or at `network`.
    pub fn new(
        network: Network,
        averaged: Option<Network>,
        config: TrainerConfig,
        options: G::Options,
        rng: ChaCha8Rng,
    ) -> anyhow::Result<Self> {
        let averaged = config
            .weight_average
            .is_on()
            .then(|| averaged.unwrap_or_else(|| network.duplicate()));
        let optimizer = match config.optimizer {
            OptimizerKind::Sgd => Sgd {
                momentum: config.momentum,
                wd: config.weight_decay,
                nesterov: config.momentum > 0.0,
                ..Sgd::default()
            }
            .build(network.var_store(), config.learning_rate)?,
            OptimizerKind::AdamW => Adam {
                wd: config.weight_decay,
                ..Adam::default()
            }
            .build(network.var_store(), config.learning_rate)?,
        };
        Ok(Trainer {
            network,
            averaged,
            optimizer,
            config,
            options,
            sampled_options: HashMap::new(),
            host: HostBatch::default(),
            rng,
            mean_surprise: 0.0,
        })
    }

    /// The weights the trainer trains.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The weights a generation plays: the average where the config asks for one, else the
    /// trained weights.
    pub fn played(&self) -> &Network {
        self.averaged.as_ref().unwrap_or(&self.network)
    }

    /// Whether [`Trainer::played`] is an average, so that the trained weights must be kept
    /// beside it for a resumed run.
    pub fn averages(&self) -> bool {
        self.averaged.is_some()
    }

    pub fn config(&self) -> &TrainerConfig {
        &self.config
    }

    pub fn options(&self) -> &G::Options {
        &self.options
    }

    /// Samples a batch from `window`, takes one optimiser step at the learning rate for
    /// `step`, and returns the losses; `None` when the window has no usable position. A
    /// device that fails (out of memory strikes here too) fails the step, and so does a loss
    /// that is not a number; the trainer should not step again: the weights may be half
    /// updated, or not numbers either.
    pub fn step<S: ShardStore>(
        &mut self,
        window: &Window<S>,
        step: u64,
    ) -> Result<Option<LossValues>, StepError> {
        let examples = self.sample_examples(window);
        if examples.is_empty() {
            return Ok(None);
        }
        let losses = self.learn(&examples, step)?;
        let average = self.config.weight_average;
        if let Some(averaged) = &mut self.averaged
            && (step + 1).is_multiple_of(average.every_steps)
        {
            let device = self.network.device();
            nn::on_device(&nn::device_name(device), || {
                averaged.average_toward(&self.network, average.decay)
            })?;
        }
        Ok(Some(losses))
    }

    /// Measures the averaged weights' batch-norm statistics again on a few batches of
    /// `window` ([`Trainer::measure_batch_norm_of`]), before they are written as a generation:
    /// early in a run the nets an average spans differ enough that their averaged statistics
    /// misdescribe the averaged net. Nothing happens (`None`) without averaged weights, or
    /// while the window has no usable position. The batches cost a few forward passes, about
    /// one training step in a hundred-step generation.
    pub fn measure_averaged_batch_norm<S: ShardStore>(
        &mut self,
        window: &Window<S>,
    ) -> Result<Option<(f64, usize)>, DeviceError> {
        let Some(mut averaged) = self.averaged.take() else {
            return Ok(None);
        };
        let measured = self.measure_batch_norm_of(&mut averaged, window, BATCH_NORM_BATCHES);
        self.averaged = Some(averaged);
        measured
    }

    /// Measures `network`'s batch-norm statistics on `batches` training batches of `window`
    /// ([`Network::measure_batch_norm`]), drawn as the trainer draws them. `network` must be
    /// on the trainer's device. Returns how far the variances moved
    /// ([`Network::measure_batch_norm`]) and on how many positions; `None` while the window
    /// has no usable position.
    pub fn measure_batch_norm_of<S: ShardStore>(
        &mut self,
        network: &mut Network,
        window: &Window<S>,
        batches: usize,
    ) -> Result<Option<(f64, usize)>, DeviceError> {
        let sampled: Vec<Vec<Example<G>>> =
            (0..batches).map(|_| self.sample_examples(window)).collect();
        let positions = sampled.iter().map(Vec::len).sum();
        if positions == 0 {
            return Ok(None);
        }
        let device = self.network.device();
        nn::on_device(&nn::device_name(device), || {
            let batches: Vec<nn::Inputs> = sampled
                .iter()
                .flat_map(|examples| parts_by_shape(examples))
                .map(|part| self.encode(&part))
                .collect();
            Some((network.measure_batch_norm(&batches), positions))
        })
    }

    /// The network's inputs for `part` (not empty, one board shape), on the network's device
    /// in f32. Tensors of their own: autograd keeps a step's inputs until its backward pass,
    /// after the next part has encoded over the batch's buffers (on the CPU borrowed tensors
    /// would read those, and a mix of sizes learnt garbage).
    fn encode(&mut self, part: &[&Example<G>]) -> nn::Inputs {
        let positions: Vec<&G> = part.iter().map(|example| &example.position).collect();
        self.host.encode(&positions, positions.len());
        self.host
            .inputs(self.network.device(), Kind::Float)
            .to_owned()
    }

    /// One optimiser step on `examples` (not empty) at the learning rate for `step`.
    /// Positions of different shapes (a mix of board sizes) go through the network in one
    /// part per shape, and the step follows the parts' losses weighted by their positions.
    /// A loss that is not a finite number is an error: a run that went on would write
    /// generations of NaN weights, which self-play would play and the window would refuse.
    pub(crate) fn learn(
        &mut self,
        examples: &[Example<G>],
        step: u64,
    ) -> Result<LossValues, StepError> {
        let device = self.network.device();
        let parts = parts_by_shape(examples);
        let losses = nn::on_device(&nn::device_name(device), || {
            let mut losses = Vec::with_capacity(parts.len());
            for part in &parts {
                let inputs = self.encode(part);
                let targets = targets(
                    part,
                    &part[0].position,
                    self.config.search_value_share as f32,
                    device,
                );
                let output = nn::autocast(self.config.precision, device, || {
                    self.network.forward_t(&inputs, true)
                });
                let share = part.len() as f64 / examples.len() as f64;
                losses.push((
                    share,
                    nn::losses(&output, &targets, &self.config.loss_weights),
                ));
            }
            let losses = Losses::mix(losses);
            self.optimizer.set_lr(self.config.learning_rate_at(step));
            self.optimizer.backward_step(&losses.total);
            losses.values()
        })?;
        if !losses.total.is_finite() {
            return Err(StepError::NotFinite { step, losses });
        }
        Ok(losses)
    }

    /// A batch of examples from `window`: fewer where the window runs dry or its records do
    /// not replay. The positions are drawn here, one after the other from the trainer's seed,
    /// and their games replayed to them, on every core where the network runs on a GPU:
    /// there, replaying was most of a step's time.
    pub(crate) fn sample_examples<S: ShardStore>(&mut self, window: &Window<S>) -> Vec<Example<G>> {
        let batch_size = self.config.batch_size;
        let horizon = self.config.lead_horizon as usize;
        // On a CPU the step costs more than the replays, and the other cores are self-play's.
        let on_gpu = self.network.device().is_cuda();
        let mut examples = Vec::with_capacity(batch_size);
        // Bounded retries: a window full of unreadable records must not spin forever, and
        // surprise weighting rejects some draws.
        let mut attempts = batch_size * (2 + 2 * MAX_SURPRISE_WEIGHT as usize);
        let mut dry = false;
        while examples.len() < batch_size && attempts > 0 && !dry {
            let mut draws = Vec::with_capacity(batch_size - examples.len());
            while draws.len() < batch_size - examples.len() && attempts > 0 {
                attempts -= 1;
                let Some(sample) = window.sample(&mut self.rng, replay::Targets::PolicyTarget)
                else {
                    dry = true;
                    break;
                };
                if !self.accept_by_surprise(f64::from(sample.played().surprise)) {
                    continue;
                }
                let Some((_, symmetries)) =
                    options_of::<G>(&mut self.sampled_options, sample.header)
                else {
                    continue;
                };
                let symmetry = self.rng.random_range(0..*symmetries);
                draws.push((sample, symmetry));
            }
            let known = &self.sampled_options;
            let replay = |(sample, symmetry): &(replay::Position<'_>, usize)| {
                let (options, _) = known[&sample.header.options_json]
                    .as_ref()
                    .expect("drawn only where the options read");
                example_at::<G>(
                    options,
                    sample.record,
                    sample.move_index,
                    *symmetry,
                    horizon,
                )
            };
            let replayed: Vec<_> = if on_gpu {
                draws.par_iter().map(replay).collect()
            } else {
                draws.iter().map(replay).collect()
            };
            for example in replayed {
                match example {
                    Ok(example) => examples.push(example),
                    Err(reason) => tracing::warn!("skipping a training sample: {reason}"),
                }
            }
        }
        examples
    }
}

impl<G: Planes> Trainer<G> {
    /// Rejection sampling for policy surprise weighting: a position of surprise `s` is kept
    /// with probability `((1 - a) + a * s / mean) / MAX`, so kept positions follow the weights.
    fn accept_by_surprise(&mut self, surprise: f64) -> bool {
        let share = self.config.policy_surprise_weight;
        if share == 0.0 {
            return true;
        }
        self.mean_surprise += SURPRISE_MEAN_RATE * (surprise - self.mean_surprise);
        let relative = surprise / self.mean_surprise.max(1e-6);
        let weight = ((1.0 - share) + share * relative).min(MAX_SURPRISE_WEIGHT);
        self.rng
            .random_bool((weight / MAX_SURPRISE_WEIGHT).clamp(0.0, 1.0))
    }
}

/// `examples` in parts of one board shape each (a mix of board sizes has several), each in
/// the examples' order: a pass through the network takes one shape.
fn parts_by_shape<G: Planes>(examples: &[Example<G>]) -> Vec<Vec<&Example<G>>> {
    let shape = |e: &Example<G>| (e.position.plane_shape(), e.position.num_actions());
    let mut parts: Vec<Vec<&Example<G>>> = Vec::new();
    for example in examples {
        match parts
            .iter_mut()
            .find(|part| shape(part[0]) == shape(example))
        {
            Some(part) => part.push(example),
            None => parts.push(vec![example]),
        }
    }
    parts
}

/// The options a shard's games were played under, with their symmetry count, from `known` or
/// read from its header's JSON; `None` (warned once) when they do not read as this game's.
fn options_of<'a, G: Planes>(
    known: &'a mut HashMap<String, Option<(G::Options, usize)>>,
    header: &ShardHeader,
) -> Option<&'a (G::Options, usize)> {
    known
        .entry(header.options_json.clone())
        .or_insert_with(
            || match serde_json::from_str::<G::Options>(&header.options_json) {
                Ok(options) => {
                    let symmetries = G::new(&options).symmetry_count();
                    Some((options, symmetries))
                }
                Err(error) => {
                    tracing::warn!(
                        "skipping samples of options {}: {error}",
                        header.options_json
                    );
                    None
                }
            },
        )
        .as_ref()
}

/// The target tensors of a batch, on `device`. The value target is the game's result, with
/// `search_value_share` of it the search's value split between win and loss.
fn targets<G: Planes>(
    examples: &[&Example<G>],
    first: &G,
    search_value_share: f32,
    device: tch::Device,
) -> Targets {
    let n = examples.len();
    let actions = first.num_actions();
    let shape = first.plane_shape();
    let mut policy = vec![0f32; n * actions];
    let mut wdl = vec![0f32; n * 3];
    let mut lead = Vec::with_capacity(n);
    let mut ownership = Vec::with_capacity(n * shape.cells());
    for (row, example) in examples.iter().enumerate() {
        for &(action, probability) in &example.policy {
            policy[row * actions + action] = probability;
        }
        let value = &mut wdl[row * 3..row * 3 + 3];
        value[example.wdl_index] = 1.0 - search_value_share;
        value[0] += search_value_share * (1.0 + example.search_value) / 2.0;
        value[2] += search_value_share * (1.0 - example.search_value) / 2.0;
        lead.push(example.lead);
        ownership.extend_from_slice(&example.ownership);
    }
    let (n, h, w) = (n as i64, shape.height as i64, shape.width as i64);
    Targets {
        policy: Tensor::from_slice(&policy)
            .view([n, actions as i64])
            .to_device(device),
        wdl: Tensor::from_slice(&wdl).view([n, 3]).to_device(device),
        lead: Tensor::from_slice(&lead).to_device(device),
        ownership: Tensor::from_slice(&ownership)
            .view([n, h, w])
            .to_device(device),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game;
    use ghast::{Ghast, GhastOptions};
    use nn::{NetConfig, Preset};
    use rand::SeedableRng;

    /// A fresh tiny network for Ghast of `options`, reading `extra_planes` planes more than
    /// the game has (a mismatch that fails the step).
    fn tiny_network(options: &GhastOptions, extra_planes: usize) -> Network {
        let start = Ghast::new(options);
        let config = NetConfig::sized(
            Preset::Tiny.size(),
            start.plane_shape().channels + extra_planes,
            start.policy_layout(),
        );
        Network::new(config, tch::Device::Cpu)
    }

    /// A trainer of `network` for Ghast of `options`, without averaged weights.
    fn trainer(network: Network, config: TrainerConfig, options: &GhastOptions) -> Trainer<Ghast> {
        Trainer::new(
            network,
            None,
            config,
            options.clone(),
            ChaCha8Rng::seed_from_u64(1),
        )
        .unwrap()
    }

    /// The start position of `options`, its first legal move the whole policy target.
    fn first_move_example(options: &GhastOptions) -> Example<Ghast> {
        let start = Ghast::new(options);
        let mut legal = Vec::new();
        start.legal_actions(&mut legal);
        Example {
            policy: vec![(legal[0], 1.0)],
            wdl_index: 0,
            search_value: 0.0,
            lead: 1.0,
            ownership: vec![0.5; start.plane_shape().cells()],
            position: start,
        }
    }

    /// `search_value_share` moves that share of the value target from the game's result to
    /// the search's value, split between win and loss; at 0 the result stays one-hot.
    #[test]
    fn the_value_target_mixes_the_result_with_the_search_value_by_its_share() {
        let options = ghast::RawOptions {
            size: 3,
            ..ghast::RawOptions::default()
        }
        .validate()
        .unwrap();
        let mut lost = first_move_example(&options);
        lost.wdl_index = 2;
        lost.search_value = 0.6;
        let start = Ghast::new(&options);
        let wdl = |share: f32| {
            let targets = targets(&[&lost], &start, share, tch::Device::Cpu);
            Vec::<f32>::try_from(targets.wdl.view([-1])).unwrap()
        };
        assert_eq!(wdl(0.0), [0.0, 0.0, 1.0]);
        let mixed = wdl(0.5);
        for (got, expected) in mixed.iter().zip([0.4, 0.0, 0.6]) {
            assert!((got - expected).abs() < 1e-6, "{mixed:?}");
        }
    }

    /// A batch that mixes board sizes goes through the network one size at a time: its
    /// losses are each size's weighted by its positions, and so is its step (a first SGD step
    /// is linear in the gradient). The large board comes first, so that the small one's
    /// encoding overwrites the buffers the large one's inputs were read from before the
    /// backward pass runs: a step that kept reading them learnt from the wrong planes.
    #[test]
    fn a_batch_of_two_board_sizes_is_learnt_in_one_step() {
        let sized = |size| {
            ghast::RawOptions {
                size,
                win_margin: 3,
                ..ghast::RawOptions::default()
            }
            .validate()
            .unwrap()
        };
        let (small, large) = (sized(3), sized(4));
        // One set of weights for every trainer: the three steps start from the same network.
        let network = tiny_network(&large, 0);
        let step = |options: &[&GhastOptions]| {
            let config = TrainerConfig {
                learning_rate: 0.5,
                ..TrainerConfig::default()
            };
            let mut trainer = trainer(network.duplicate(), config, &large);
            let examples: Vec<_> = options.iter().map(|o| first_move_example(o)).collect();
            let losses = trainer.learn(&examples, 0).unwrap();
            (losses, moved_weights(&trainer, &network))
        };
        let (small_alone, small_moved) = step(&[&small]);
        let (large_alone, large_moved) = step(&[&large, &large, &large]);
        let (mixed, mixed_moved) = step(&[&large, &small, &large, &large]);
        let expected = 0.25 * small_alone.policy + 0.75 * large_alone.policy;
        assert!(
            (mixed.policy - expected).abs() < 1e-4,
            "{mixed:?} against {small_alone:?} and {large_alone:?}"
        );
        assert!(
            (mixed.ownership - (0.25 * small_alone.ownership + 0.75 * large_alone.ownership)).abs()
                < 1e-4
        );
        let mut largest_move = 0.0f64;
        for (name, moved) in &mixed_moved {
            let expected = &small_moved[name] * 0.25 + &large_moved[name] * 0.75;
            let error = (moved - &expected).abs().max().double_value(&[]);
            largest_move = largest_move.max(moved.abs().max().double_value(&[]));
            assert!(
                error < 1e-5,
                "{name} moved {error} away from the sizes' mix"
            );
        }
        assert!(
            largest_move > 1e-3,
            "the step moved no weight: {largest_move}"
        );
    }

    /// A loss that is not a number (here from a lead target that is not one) fails the step
    /// with an error that says which step and which losses.
    #[test]
    fn a_loss_that_is_not_a_number_fails_the_step() {
        let options = GhastOptions::default();
        let mut trainer = trainer(
            tiny_network(&options, 0),
            TrainerConfig::default(),
            &options,
        );
        let fine = first_move_example(&options);
        assert!(trainer.learn(&[fine], 7).unwrap().total.is_finite());
        let broken = Example {
            lead: f32::NAN,
            ..first_move_example(&options)
        };
        let error = trainer.learn(&[broken], 8).unwrap_err();
        let StepError::NotFinite { step, losses } = &error else {
            panic!("a loss that is not a number: {error}");
        };
        assert_eq!(*step, 8);
        assert!(
            losses.lead.is_nan() && losses.policy.is_finite(),
            "{losses:?}"
        );
        assert!(
            error
                .to_string()
                .starts_with("training step 8: the loss is not a number")
        );
    }

    /// How far a step moved each trained variable of `trainer` from `start`'s, by name.
    fn moved_weights(trainer: &Trainer<Ghast>, start: &Network) -> HashMap<String, tch::Tensor> {
        let before = start.var_store().variables();
        trainer
            .network()
            .var_store()
            .variables()
            .into_iter()
            .filter(|(_, tensor)| tensor.requires_grad())
            .map(|(name, tensor)| {
                let moved = tch::no_grad(|| &tensor - &before[&name]);
                (name, moved)
            })
            .collect()
    }

    /// A bf16 step computes the losses of an f32 step to bf16's precision, steps the f32
    /// weights, and leaves them f32.
    #[test]
    fn a_bf16_step_matches_an_f32_step_and_keeps_the_weights_f32() {
        let options = GhastOptions::default();
        let network = tiny_network(&options, 0);
        let examples: Vec<_> = (0..8).map(|_| first_move_example(&options)).collect();
        let step = |precision| {
            let config = TrainerConfig {
                precision,
                ..TrainerConfig::default()
            };
            let mut trainer = trainer(network.duplicate(), config, &options);
            let losses = trainer.learn(&examples, 0).unwrap();
            (losses, trainer)
        };
        let (f32_losses, _) = step(nn::Precision::Fp32);
        let (bf16_losses, bf16_trainer) = step(nn::Precision::Bf16);
        for (name, f32_loss, bf16_loss) in [
            ("policy", f32_losses.policy, bf16_losses.policy),
            ("wdl", f32_losses.wdl, bf16_losses.wdl),
            ("total", f32_losses.total, bf16_losses.total),
        ] {
            assert!(
                (f32_loss - bf16_loss).abs() <= 0.02 * f32_loss.abs().max(0.1),
                "{name}: f32 {f32_loss}, bf16 {bf16_loss}"
            );
        }
        assert_ne!(
            f32_losses.policy, bf16_losses.policy,
            "the same to the bit: the bf16 step ran in f32"
        );
        let weights = bf16_trainer.network().var_store().trainable_variables();
        assert!(weights.iter().all(|w| w.kind() == Kind::Float));
        let moved = weights
            .iter()
            .zip(network.var_store().trainable_variables())
            .any(|(after, before)| after.not_equal_tensor(&before).any().int64_value(&[]) != 0);
        assert!(moved, "the bf16 step changed no weight");
        assert!(!nn::autocast_is_on(tch::Device::Cpu));
    }

    /// A libtorch error in a training step (here a network that reads one plane more than the
    /// game has, as a device out of memory would fail the same call) comes back as the
    /// step's error, in one line, with the device named.
    #[test]
    fn a_failed_training_step_is_an_error_naming_the_device() {
        let options = GhastOptions::default();
        let mut trainer = trainer(
            tiny_network(&options, 1),
            TrainerConfig::default(),
            &options,
        );
        let example = first_move_example(&options);
        let StepError::Device(error) = trainer.learn(&[example], 0).unwrap_err() else {
            panic!("the device's error");
        };
        assert_eq!(error.device, "cpu");
        assert!(
            error.message.contains("channels"),
            "libtorch's words: {error}"
        );
        assert!(!error.message.contains('\n'), "one line: {error:?}");
    }
}
