//! The network's shapes, masking and board-size independence.

mod common;

use common::{Toy, inputs, options, random_positions, tiny_network};
use game::Game;
use nn::{Activation, ILLEGAL_LOGIT, NetConfig, Network};
use tch::{Device, Kind, Tensor};

#[test]
fn tensors_are_created_through_libtorch() {
    let t = Tensor::from_slice(&[1.0f32, 2.0, 3.0]) * 2.0;
    assert_eq!(Vec::<f32>::try_from(&t).unwrap(), vec![2.0, 4.0, 6.0]);
}

#[test]
fn one_net_runs_on_two_board_sizes() {
    let net = tiny_network();
    for size in [3, 5] {
        let positions = random_positions(&options(size, size), 4, 1);
        let output = net.forward_t(&inputs(&positions), false);
        let actions = positions[0].num_actions() as i64;
        assert_eq!(output.policy_logits.size(), [4, actions]);
        assert_eq!(actions, (size * size + 1) as i64);
        assert_eq!(output.wdl_logits.size(), [4, 3]);
        assert_eq!(output.lead.size(), [4]);
        assert_eq!(output.ownership.size(), [4, size as i64, size as i64]);
        let ownership_range = output.ownership.abs().max().double_value(&[]);
        assert!(
            ownership_range <= 1.0,
            "ownership is a tanh: {ownership_range}"
        );
    }
}

/// A policy head silenced the way the 2-hour standard-board run silenced its own (batch-norm
/// scales zero, shifts negative) gets no gradient back under ReLU, so it stays silent, and
/// does under SiLU, so it can learn again.
#[test]
fn a_silenced_policy_head_gets_gradient_back_only_under_silu() {
    let positions = random_positions(&options(4, 4), 8, 5);
    for (activation, recovers) in [(Activation::Relu, false), (Activation::Silu, true)] {
        let config = NetConfig {
            policy_activation: activation,
            ..tiny_network().config().clone()
        };
        let net = Network::new(config, Device::Cpu);
        let variables = net.var_store().variables();
        let (scale, shift) = (
            &variables["policy.norm.weight"],
            &variables["policy.norm.bias"],
        );
        tch::no_grad(|| {
            let _ = scale.shallow_clone().fill_(0.0);
            let _ = shift.shallow_clone().fill_(-1.0);
        });
        let output = net.forward_t(&inputs(&positions), true);
        // Any target but the head's own prediction: the first legal action of each position.
        let target: Vec<i64> = positions
            .iter()
            .map(|position| {
                let mut legal = Vec::new();
                position.legal_actions(&mut legal);
                legal[0] as i64
            })
            .collect();
        output
            .policy_logits
            .cross_entropy_for_logits(&Tensor::from_slice(&target))
            .backward();
        let gradient = scale.grad().abs().sum(Kind::Float).double_value(&[]);
        assert_eq!(
            gradient > 0.0,
            recovers,
            "{activation:?}: gradient {gradient} on the silenced scales"
        );
    }
}

#[test]
fn illegal_actions_are_masked() {
    let net = tiny_network();
    let positions = random_positions(&options(4, 4), 6, 2);
    let output = net.forward_t(&inputs(&positions), false);
    let probabilities = output.policy_logits.softmax(-1, Kind::Float);
    let mut legal = Vec::new();
    for (row, position) in positions.iter().enumerate() {
        position.legal_actions(&mut legal);
        for action in 0..position.num_actions() {
            let logit = output
                .policy_logits
                .double_value(&[row as i64, action as i64]);
            let p = probabilities.double_value(&[row as i64, action as i64]);
            if legal.contains(&action) {
                assert!(logit > ILLEGAL_LOGIT / 2.0, "legal action {action} masked");
            } else {
                assert!(
                    logit < ILLEGAL_LOGIT / 2.0,
                    "illegal action {action} not masked"
                );
                assert_eq!(p, 0.0);
            }
        }
    }
}

/// Off-board padding must not change anything on the board: the same 3x3 game drawn in a 3x3
/// and in a 5x5 grid gets the same value, lead, ownership and cell logits.
#[test]
fn padding_is_invisible() {
    let net = tiny_network();
    // Train-mode passes give batch norm non-trivial running statistics to use in eval mode.
    let warm = random_positions(&options(5, 5), 8, 3);
    tch::no_grad(|| net.forward_t(&inputs(&warm), true));

    let tight = random_positions(&options(3, 3), 4, 4);
    let padded: Vec<Toy> = random_positions(&options(3, 5), 4, 4);
    let (a, b) = tch::no_grad(|| {
        (
            net.forward_t(&inputs(&tight), false),
            net.forward_t(&inputs(&padded), false),
        )
    });

    let close = |x: &Tensor, y: &Tensor, what: &str| {
        let diff = (x - y).abs().max().double_value(&[]);
        assert!(diff < 1e-4, "{what} differs by {diff}");
    };
    close(&a.wdl_logits, &b.wdl_logits, "wdl");
    close(&a.lead, &b.lead, "lead");
    close(
        &a.ownership,
        &b.ownership.narrow(1, 0, 3).narrow(2, 0, 3),
        "ownership",
    );
    let spatial = b
        .policy_logits
        .narrow(1, 0, 25)
        .view([4, 5, 5])
        .narrow(1, 0, 3)
        .narrow(2, 0, 3);
    close(
        &a.policy_logits.narrow(1, 0, 9).view([4, 3, 3]),
        &spatial,
        "cell logits",
    );
    close(
        &a.policy_logits.narrow(1, 9, 1),
        &b.policy_logits.narrow(1, 25, 1),
        "pass logit",
    );
    assert_eq!(
        b.ownership
            .narrow(1, 3, 2)
            .abs()
            .sum(Kind::Float)
            .double_value(&[]),
        0.0
    );
}

#[test]
fn flops_grow_with_the_tower() {
    let layout = game::PolicyLayout {
        spatial_planes: 6,
        global_actions: 3,
    };
    let shape = game::PlaneShape {
        channels: 20,
        height: 11,
        width: 11,
    };
    let flops: Vec<u64> = nn::Preset::ALL
        .iter()
        .map(|&p| nn::NetConfig::preset(p, 20, layout).flops(shape))
        .collect();
    assert!(flops.windows(2).all(|w| w[0] < w[1]), "{flops:?}");
    // Standard: 10 blocks of two 128x128 3x3 convolutions on 121 cells dominate.
    let tower = 10 * 2 * 2 * 9 * 128 * 128 * 121;
    assert!(
        flops[2] > tower && flops[2] < tower * 11 / 10,
        "{}",
        flops[2]
    );
}

#[test]
fn preset_flops_match_the_documented_figures() {
    let layout = game::PolicyLayout {
        spatial_planes: 6,
        global_actions: 3,
    };
    let shape = game::PlaneShape {
        channels: 20,
        height: 11,
        width: 11,
    };
    let mflops = |p| nn::NetConfig::preset(p, 20, layout).flops(shape) as f64 / 1e6;
    assert!(
        (mflops(nn::Preset::Tiny) - 3.5).abs() < 0.5,
        "{}",
        mflops(nn::Preset::Tiny)
    );
    assert_eq!(mflops(nn::Preset::Small).round(), 115.0);
    assert_eq!(mflops(nn::Preset::Standard).round(), 749.0);
}

/// Folding batch norm into the convolutions changes how inference computes, not what: after
/// training passes have moved the running statistics away from the identity, the folded net
/// gives the unfolded net's outputs, and training passes still use batch statistics.
#[test]
fn folded_batch_norm_gives_the_same_inference() {
    let mut net = tiny_network();
    let positions = random_positions(&options(4, 4), 8, 5);
    let batch = inputs(&positions);
    for _ in 0..5 {
        let _ = net.forward_t(&batch, true);
    }
    // A training pass moves the running statistics but its own output depends only on the
    // batch's, so it goes first.
    let training_before = net.forward_t(&batch, true);
    let before = net.forward_t(&batch, false);
    net.fold_batch_norm();
    let after = net.forward_t(&batch, false);
    let training_after = net.forward_t(&batch, true);
    let largest_difference = |a: &Tensor, b: &Tensor| (a - b).abs().max().double_value(&[]);
    let legal_logits = |t: &Tensor| t.clamp_min(ILLEGAL_LOGIT / 2.0);
    assert!(
        largest_difference(
            &legal_logits(&before.policy_logits),
            &legal_logits(&after.policy_logits)
        ) < 1e-4
    );
    assert!(largest_difference(&before.wdl_logits, &after.wdl_logits) < 1e-4);
    assert!(largest_difference(&before.lead, &after.lead) < 1e-4);
    assert!(largest_difference(&before.ownership, &after.ownership) < 1e-4);
    assert!(largest_difference(&training_before.wdl_logits, &training_after.wdl_logits) < 1e-4);
    assert!(
        largest_difference(&before.wdl_logits, &training_before.wdl_logits) > 1e-4,
        "the running statistics moved, so folding them was tested"
    );
}

/// A duplicate has the same weights and variables of its own; averaging toward another net
/// moves every variable (batch-norm statistics too) by `1 - decay` of the gap.
#[test]
fn averaging_weights_moves_every_variable_by_its_share_of_the_gap() {
    let (first, second) = (tiny_network(), tiny_network());
    let mut averaged = first.duplicate();
    let mine = averaged.var_store().variables();
    let (a, b) = (
        first.var_store().variables(),
        second.var_store().variables(),
    );
    assert!(a.len() > 10 && a.keys().any(|name| name.contains("running_mean")));
    for (name, tensor) in &a {
        assert!(mine[name].equal(tensor), "{name} duplicated");
    }
    averaged.average_toward(&second, 0.75);
    let mut moved = 0;
    for (name, tensor) in averaged.var_store().variables() {
        let expected = &a[&name] * 0.75 + &b[&name] * 0.25;
        assert!(tensor.allclose(&expected, 1e-6, 1e-6, false), "{name}");
        moved += usize::from(!tensor.equal(&a[&name]));
    }
    assert!(moved > 0);
    assert!(first.var_store().variables()["stem.conv.weight"].equal(&a["stem.conv.weight"]));
}

/// Measured batch-norm statistics are those of the net they were measured on (what averaged
/// weights need before they play): the stem's running mean and variance are its convolution's
/// over the batches together, inference on a batch measured alone gives what a training pass
/// (the batch's own statistics) gives, and measuring again changes nothing, so the statistics
/// there before leave no trace.
#[test]
fn measured_batch_norm_statistics_are_the_batches_statistics() {
    let (first, second) = (tiny_network(), tiny_network());
    let mut averaged = first.duplicate();
    averaged.average_toward(&second, 0.5);
    let (big, small) = (
        random_positions(&options(4, 4), 64, 5),
        random_positions(&options(4, 4), 32, 6),
    );
    let largest_difference = |a: &Tensor, b: &Tensor| (a - b).abs().max().double_value(&[]);

    averaged.measure_batch_norm(&[inputs(&big), inputs(&small)]);
    let variables = averaged.var_store().variables();
    let planes = Tensor::cat(&[inputs(&big).planes, inputs(&small).planes], 0);
    let stem = planes.conv2d(
        &variables["stem.conv.weight"],
        None::<Tensor>,
        [1, 1],
        [1, 1],
        [1, 1],
        1,
    );
    let mean = stem.mean_dim([0, 2, 3].as_slice(), false, Kind::Float);
    let difference = largest_difference(&variables["stem.norm.running_mean"], &mean);
    assert!(difference < 1e-5, "the stem's mean is off by {difference}");
    let variance = |t: &Tensor| t.var_dim([0, 2, 3].as_slice(), true, false);
    let (big_rows, small_rows) = (64.0, 32.0);
    let split = stem.split_with_sizes([64, 32], 0);
    let expected = (variance(&split[0]) * big_rows + variance(&split[1]) * small_rows)
        / (big_rows + small_rows);
    let difference = largest_difference(&variables["stem.norm.running_var"], &expected);
    assert!(
        difference < 1e-4,
        "the stem's variance is off by {difference}"
    );

    let big = inputs(&big);
    let unmeasured = second.forward_t(&big, false);
    let training = second.forward_t(&big, true);
    let mut measured = second.duplicate();
    measured.measure_batch_norm(std::slice::from_ref(&big));
    let statistics = measured.var_store().variables();
    let inference = measured.forward_t(&big, false);
    let before = largest_difference(&unmeasured.wdl_logits, &training.wdl_logits);
    let after = largest_difference(&inference.wdl_logits, &training.wdl_logits);
    // Not 0: a training pass normalises by the batch's biased variance, the running variance
    // is unbiased (1,024 cells a channel, a thousandth apart), and that compounds layer by layer.
    assert!(
        after < 2e-2 && before > 100.0 * after,
        "inference after measuring is off a training pass by {after}, before by {before}"
    );
    measured.measure_batch_norm(std::slice::from_ref(&big));
    for (name, tensor) in measured.var_store().variables() {
        assert!(
            tensor.allclose(&statistics[&name], 1e-5, 1e-6, false),
            "{name}"
        );
    }
}
