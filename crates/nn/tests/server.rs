//! The inference server: many threads' batches merged into shared forward passes give each
//! thread the results it would get alone, across board sizes and network swaps.

mod common;

use common::{Toy, assert_close, options, random_positions, tiny_network};
use game::{Evaluation, Evaluator, PipelinedEvaluator};
use nn::{EvaluatorSettings, InferenceServer, NetEvaluator, SimulatedDevice};
use std::time::Duration;
use tch::Device;

fn server(max_batch: usize) -> InferenceServer<Toy> {
    let settings = EvaluatorSettings {
        max_batch,
        ..EvaluatorSettings::on(Device::Cpu)
    };
    InferenceServer::start(NetEvaluator::new(tiny_network(), &options(4, 4), settings).unwrap())
}

fn evaluate(evaluator: &mut impl Evaluator<Toy>, positions: &[Toy]) -> Vec<Evaluation> {
    let refs: Vec<&Toy> = positions.iter().collect();
    let mut out = vec![Evaluation::default(); positions.len()];
    evaluator.evaluate(&refs, &mut out);
    out
}

/// Each position of each set evaluated alone, through a client of its own.
fn one_at_a_time(server: &InferenceServer<Toy>, sets: &[Vec<Toy>]) -> Vec<Vec<Evaluation>> {
    let mut alone = server.client();
    sets.iter()
        .map(|set| {
            set.iter()
                .map(|position| evaluate(&mut alone, std::slice::from_ref(position)).remove(0))
                .collect()
        })
        .collect()
}

#[test]
fn merged_batches_of_many_threads_give_each_the_results_it_gets_alone() {
    let server = server(32);
    // Threads on two board sizes, with more positions than one pass holds in all.
    let sets: Vec<Vec<Toy>> = (0..6)
        .map(|thread| {
            let grid = if thread % 2 == 0 { 4 } else { 3 };
            random_positions(&options(grid, grid), 5, thread)
        })
        .collect();
    let expected = one_at_a_time(&server, &sets);
    let passes_alone = server.mean_requests_per_pass();
    assert!(
        (passes_alone - 1.0).abs() < 1e-9,
        "one request at a time: {passes_alone}"
    );

    std::thread::scope(|scope| {
        for (set, expected) in sets.iter().zip(&expected) {
            let mut client = server.client();
            scope.spawn(move || {
                for _ in 0..40 {
                    for (got, want) in evaluate(&mut client, set).iter().zip(expected) {
                        assert_close(got, want);
                    }
                }
            });
        }
    });
    // Whether these passes merged batches depends on how the threads were scheduled (a free
    // device takes whatever is waiting, without waiting for more);
    // `batches_sent_while_the_device_is_busy_share_the_next_pass` makes a merge certain.
}

/// While the device runs one pass, the batches that threads send are gathered by the other
/// server thread and run together in the next pass, as soon as the device is free: a
/// simulated device holds the first batch for a second while five threads send theirs.
#[test]
fn batches_sent_while_the_device_is_busy_share_the_next_pass() {
    let device: SimulatedDevice = "sim:1000,0".parse().unwrap();
    let server = InferenceServer::<Toy>::start(NetEvaluator::simulated(device, 32));
    let mut first = server.client();
    let positions = random_positions(&options(4, 4), 5, 0);
    let refs: Vec<&Toy> = positions.iter().collect();
    first.submit(&refs);
    std::thread::sleep(Duration::from_millis(50));
    let clients: Vec<_> = (1..6).map(|_| server.client()).collect();
    std::thread::scope(|scope| {
        for (thread, mut client) in clients.into_iter().enumerate() {
            scope.spawn(move || {
                let positions = random_positions(&options(4, 4), 5, thread as u64 + 1);
                evaluate(&mut client, &positions);
            });
        }
        let mut out = vec![Evaluation::default(); refs.len()];
        first.receive(&mut out);
    });
    assert_eq!(server.forward_passes(), 2);
    assert_eq!(server.mean_requests_per_pass(), 3.0);
    assert_eq!(server.mean_batch(), 15.0);
    let busy = server.device_time();
    assert!(
        busy >= Duration::from_millis(2000) && busy < Duration::from_millis(2500),
        "two passes of a second: {busy:?}"
    );
}

/// A client with several batches in flight gets each its own evaluations back, whatever order
/// the server threads answer in; a simulated device answers from the position alone.
#[test]
fn batches_in_flight_come_back_to_their_own_positions() {
    let device: SimulatedDevice = "sim:1,10".parse().unwrap();
    let server = InferenceServer::<Toy>::start(NetEvaluator::simulated(device, 8));
    let sets: Vec<Vec<Toy>> = (0..4)
        .map(|set| random_positions(&options(4, 4), 3 + 4 * set, set as u64))
        .collect();
    let expected = one_at_a_time(&server, &sets);
    let mut client = server.client();
    for _ in 0..20 {
        for set in &sets {
            let refs: Vec<&Toy> = set.iter().collect();
            client.submit(&refs);
        }
        for expected in &expected {
            let mut out = vec![Evaluation::default(); expected.len()];
            client.receive(&mut out);
            assert_eq!(&out, expected);
        }
    }
}

#[test]
fn a_replaced_network_serves_from_the_next_pass_on() {
    let server = server(8);
    let positions = random_positions(&options(4, 4), 3, 9);
    let mut client = server.client();
    let before = evaluate(&mut client, &positions);
    assert_close(&evaluate(&mut client, &positions)[0], &before[0]);
    server.replace_network(tiny_network());
    let after = evaluate(&mut client, &positions);
    assert!(
        (after[0].value - before[0].value).abs() > 1e-6 || after[0].policy != before[0].policy,
        "new weights give new evaluations"
    );
    assert_close(&evaluate(&mut client, &positions)[0], &after[0]);
}

#[test]
fn a_request_larger_than_a_pass_is_split() {
    let server = server(4);
    let positions = random_positions(&options(4, 4), 11, 4);
    let mut client = server.client();
    let together = evaluate(&mut client, &positions);
    for (position, batched) in positions.iter().zip(&together) {
        assert_close(
            &evaluate(&mut client, std::slice::from_ref(position))[0],
            batched,
        );
    }
}
