//! The search-facing evaluator: probabilities over legal actions, values, batching.

mod common;

use common::{Toy, assert_close, options, random_positions, tiny_network};
use game::Game;
use game::{Evaluation, Evaluator};
use nn::{EvaluatorSettings, NetError, NetEvaluator};
use tch::Device;

fn evaluator(max_batch: usize) -> NetEvaluator<Toy> {
    let settings = EvaluatorSettings {
        max_batch,
        ..EvaluatorSettings::on(Device::Cpu)
    };
    NetEvaluator::new(tiny_network(), &options(4, 4), settings).unwrap()
}

fn evaluate(evaluator: &mut NetEvaluator<Toy>, positions: &[Toy]) -> Vec<Evaluation> {
    let refs: Vec<&Toy> = positions.iter().collect();
    let mut out = vec![Evaluation::default(); positions.len()];
    evaluator.evaluate(&refs, &mut out).unwrap();
    out
}

#[test]
fn policy_is_a_distribution_over_legal_actions() {
    let mut evaluator = evaluator(8);
    assert_eq!(evaluator.buckets(), [1, 2, 4, 8]);
    let positions = random_positions(&options(4, 4), 5, 1);
    let mut legal = Vec::new();
    for (position, evaluation) in positions.iter().zip(evaluate(&mut evaluator, &positions)) {
        position.legal_actions(&mut legal);
        assert_eq!(evaluation.policy.len(), position.num_actions());
        let total: f32 = legal.iter().map(|&a| evaluation.policy[a]).sum();
        assert!((total - 1.0).abs() < 1e-5, "legal mass {total}");
        assert!(evaluation.policy.iter().all(|&p| p >= 0.0));
        assert!((-1.0..=1.0).contains(&evaluation.value));
    }
}

/// Padding rows, splitting into several passes and mixing board sizes change nothing.
#[test]
fn batching_does_not_change_results() {
    let mut evaluator = evaluator(4);
    let mut positions = random_positions(&options(4, 4), 7, 2);
    positions.extend(random_positions(&options(3, 3), 3, 3));
    let together = evaluate(&mut evaluator, &positions);
    for (position, batched) in positions.iter().zip(&together) {
        assert_close(
            &evaluate(&mut evaluator, std::slice::from_ref(position))[0],
            batched,
        );
    }
}

#[test]
fn a_net_for_another_game_is_refused() {
    let layout = game::PolicyLayout {
        spatial_planes: 2,
        global_actions: 1,
    };
    let config = nn::NetConfig::preset(nn::Preset::Tiny, 3, layout);
    let network = nn::Network::new(config, Device::Cpu);
    let result =
        NetEvaluator::<Toy>::new(network, &options(4, 4), EvaluatorSettings::on(Device::Cpu));
    assert!(matches!(result, Err(NetError::GameMismatch { .. })));
}

/// `inference_precision = "bf16"` on a CPU: the same net evaluated in bf16 gives what f32
/// gives to bf16's precision (three significant digits), and not to the bit, so bf16 ran.
#[test]
fn bf16_inference_on_the_cpu_agrees_with_f32_to_its_precision() {
    let network = tiny_network();
    let in_precision = |precision, network| {
        let settings = EvaluatorSettings {
            max_batch: 8,
            precision,
            ..EvaluatorSettings::on(Device::Cpu)
        };
        NetEvaluator::<Toy>::new(network, &options(4, 4), settings).unwrap()
    };
    let mut f32_evaluator = in_precision(nn::InferencePrecision::Fp32, network.duplicate());
    let mut bf16_evaluator = in_precision(nn::InferencePrecision::Bf16, network);
    let positions = random_positions(&options(4, 4), 8, 4);
    let mut largest_difference = 0.0f32;
    for (f32_eval, bf16_eval) in evaluate(&mut f32_evaluator, &positions)
        .iter()
        .zip(&evaluate(&mut bf16_evaluator, &positions))
    {
        assert!((f32_eval.value - bf16_eval.value).abs() < 0.02);
        assert!((f32_eval.lead - bf16_eval.lead).abs() < 0.05);
        let total: f32 = bf16_eval.policy.iter().sum();
        assert!((total - 1.0).abs() < 1e-3, "bf16 policy mass {total}");
        for (a, b) in f32_eval.policy.iter().zip(&bf16_eval.policy) {
            assert!((a - b).abs() < 0.01, "policy {a} in f32, {b} in bf16");
            largest_difference = largest_difference.max((a - b).abs());
        }
        largest_difference = largest_difference.max((f32_eval.value - bf16_eval.value).abs());
    }
    assert!(
        largest_difference > 0.0,
        "bf16 gave f32's results to the bit"
    );
}
