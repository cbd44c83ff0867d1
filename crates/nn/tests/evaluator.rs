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
