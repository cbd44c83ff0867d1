//! A tiny net memorises a handful of positions on every head: gradients reach all of them.

mod common;

use common::{Toy, inputs, options, random_positions, tiny_network, tiny_network_with_soft_policy};
use game::{Game, Planes};
use nn::{LossValues, LossWeights, Targets, losses};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tch::nn::OptimizerConfig;
use tch::{Kind, Tensor};

const POSITIONS: usize = 8;
const MAX_STEPS: usize = 400;
/// Every loss must fall below this fraction of its initial value.
const FACTOR: f64 = 0.25;

/// Arbitrary but fixed targets: one legal action, one outcome, a lead and an owner per cell.
fn targets(positions: &[Toy], seed: u64) -> Targets {
    let mut rng = StdRng::seed_from_u64(seed);
    let shape = positions[0].plane_shape();
    let actions = positions[0].num_actions();
    let (mut policy, mut wdl, mut lead, mut ownership) = (vec![], vec![], vec![], vec![]);
    let (mut legal, mut mask) = (Vec::new(), vec![0.0; shape.cells()]);
    for position in positions {
        position.legal_actions(&mut legal);
        let chosen = legal[rng.random_range(0..legal.len())];
        policy.extend((0..actions).map(|a| f32::from(a == chosen)));
        let outcome = rng.random_range(0..3);
        wdl.extend((0..3).map(|i| f32::from(i == outcome)));
        lead.push(rng.random_range(-8.0f32..8.0));
        position.board_mask(&mut mask);
        ownership.extend(
            mask.iter()
                .map(|&m| m * if rng.random_bool(0.5) { 1.0 } else { -1.0 }),
        );
    }
    let n = positions.len() as i64;
    let (h, w) = (shape.height as i64, shape.width as i64);
    Targets {
        policy: Tensor::from_slice(&policy).view([n, actions as i64]),
        wdl: Tensor::from_slice(&wdl).view([n, 3]),
        lead: Tensor::from_slice(&lead),
        ownership: Tensor::from_slice(&ownership).view([n, h, w]),
    }
}

#[test]
fn tiny_net_overfits_every_head() {
    tch::manual_seed(7);
    let net = tiny_network_with_soft_policy();
    let positions = random_positions(&options(4, 4), POSITIONS, 11);
    let (inputs, targets) = (inputs(&positions), targets(&positions, 12));
    let weights = LossWeights::default();
    let mut optimizer = tch::nn::Adam::default()
        .build(net.var_store(), 1e-2)
        .unwrap();

    let measure =
        || tch::no_grad(|| losses(&net.forward_t(&inputs, false), &targets, &weights).values());
    let initial = measure();
    let below = |now: &LossValues| {
        [
            (now.policy, initial.policy),
            (now.soft_policy, initial.soft_policy),
            (now.wdl, initial.wdl),
            (now.lead, initial.lead),
            (now.ownership, initial.ownership),
        ]
        .into_iter()
        .all(|(now, initial)| now < FACTOR * initial)
    };
    let mut last = initial;
    for step in 1..=MAX_STEPS {
        let loss = losses(&net.forward_t(&inputs, true), &targets, &weights);
        optimizer.backward_step(&loss.total);
        if step % 25 == 0 {
            last = measure();
            if below(&last) {
                return;
            }
        }
    }
    panic!(
        "after {MAX_STEPS} steps, not every loss fell below {FACTOR} x initial:\ninitial {initial:?}\nfinal   {last:?}"
    );
}

#[test]
fn loss_terms_are_zero_for_perfect_predictions() {
    let net = tiny_network();
    let positions = random_positions(&options(3, 3), 2, 5);
    let mut output = net.forward_t(&inputs(&positions), false);
    let targets = Targets {
        policy: output.policy_logits.softmax(-1, Kind::Float),
        wdl: output.wdl_logits.softmax(-1, Kind::Float),
        lead: output.lead.shallow_clone(),
        ownership: output.ownership.shallow_clone(),
    };
    let entropy = |p: &Tensor| {
        -(p * p.clamp_min(1e-30).log())
            .sum(Kind::Float)
            .double_value(&[])
            / 2.0
    };
    let values = losses(&output, &targets, &LossWeights::default()).values();
    assert!(
        (values.policy - entropy(&targets.policy)).abs() < 1e-4,
        "{values:?}"
    );
    assert!(
        (values.wdl - entropy(&targets.wdl)).abs() < 1e-4,
        "{values:?}"
    );
    assert_eq!((values.lead, values.ownership), (0.0, 0.0));
    // Off-board errors do not count: the ownership loss ignores cells outside the mask.
    output.board_mask = output.board_mask.zeros_like();
    assert_eq!(
        losses(&output, &targets, &LossWeights::default())
            .values()
            .ownership,
        0.0
    );
}
