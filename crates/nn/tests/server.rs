//! The inference server: many threads' batches merged into shared forward passes give each
//! thread the results it would get alone, across board sizes and network swaps.

mod common;

use common::{Toy, assert_close, options, random_positions, tiny_network};
use game::{DeviceError, Evaluation, Evaluator, PipelinedEvaluator};
use nn::{EvaluatorSettings, InferenceServer, NetEvaluator, SimulatedDevice};
use std::num::NonZeroU64;
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
    evaluator.evaluate(&refs, &mut out).unwrap();
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
    first.submit(&refs).unwrap();
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
        first.receive(&mut out).unwrap();
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
            client.submit(&refs).unwrap();
        }
        for expected in &expected {
            let mut out = vec![Evaluation::default(); expected.len()];
            client.receive(&mut out).unwrap();
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

/// Self-play of a run that mixes board sizes sends one request of positions of both sizes,
/// interleaved: each gets what it gets alone, through the server and through an evaluator
/// on the caller's thread.
#[test]
fn a_request_that_mixes_board_sizes_is_answered_position_by_position() {
    let server = server(4);
    let small = random_positions(&options(3, 3), 5, 8);
    let large = random_positions(&options(4, 4), 6, 9);
    let mixed: Vec<Toy> = large
        .iter()
        .zip(small.iter().chain(std::iter::repeat(&small[0])))
        .flat_map(|(a, b)| [a.clone(), b.clone()])
        .collect();
    let expected = one_at_a_time(&server, std::slice::from_ref(&mixed)).remove(0);
    let mut client = server.client();
    for (got, want) in evaluate(&mut client, &mixed).iter().zip(&expected) {
        assert_close(got, want);
    }
    // Grouped by size, the 12 interleaved positions take 4 passes of up to 4, not 12 of one.
    let fresh = self::server(4);
    evaluate(&mut fresh.client(), &mixed);
    assert!(fresh.mean_batch() > 2.5, "{} a pass", fresh.mean_batch());
    let settings = EvaluatorSettings {
        max_batch: 4,
        ..EvaluatorSettings::on(Device::Cpu)
    };
    let mut inline = NetEvaluator::new(tiny_network(), &options(4, 4), settings).unwrap();
    let alone: Vec<Evaluation> = mixed
        .iter()
        .map(|position| evaluate(&mut inline, std::slice::from_ref(position)).remove(0))
        .collect();
    for (got, want) in evaluate(&mut inline, &mixed).iter().zip(&alone) {
        assert_close(got, want);
    }
}

/// Each client keeps `in_flight` batches in flight on a device that fails at its `fail_at`th
/// pass, until a submit or a receive fails: what each client met.
fn run_until_the_device_fails(
    server: &InferenceServer<Toy>,
    clients: usize,
    in_flight: usize,
) -> Vec<DeviceError> {
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..clients)
            .map(|thread| {
                let mut client = server.client();
                scope.spawn(move || -> DeviceError {
                    let positions = random_positions(&options(4, 4), 3, thread as u64);
                    let refs: Vec<&Toy> = positions.iter().collect();
                    let mut out = vec![Evaluation::default(); refs.len()];
                    let mut run = || -> Result<(), DeviceError> {
                        for _ in 0..in_flight {
                            client.submit(&refs)?;
                        }
                        loop {
                            client.receive(&mut out)?;
                            client.submit(&refs)?;
                        }
                    };
                    let error = run().unwrap_err();
                    // Once failed, always failed: the next call fails at once.
                    let again = client.submit(&refs).and_then(|()| client.receive(&mut out));
                    assert_eq!(again.unwrap_err(), error);
                    error
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().expect("a client thread panicked"))
            .collect()
    })
}

/// A device that fails in a pass, with 1, 2 or 3 batches in flight per client and both server
/// threads at work: every client gets the device's error (none waits for good), and both
/// server threads stop although a client still holds the server.
#[test]
fn a_failed_device_reaches_every_client_as_an_error_and_stops_both_threads() {
    for in_flight in 1..=3 {
        for fail_at in [1, 2, 7] {
            let device: SimulatedDevice = "sim:0.2,0".parse().unwrap();
            let evaluator = NetEvaluator::simulated(device, 8)
                .failing_from_pass(NonZeroU64::new(fail_at).unwrap());
            let server = InferenceServer::<Toy>::start(evaluator);
            let survivor = server.client();
            let errors = run_until_the_device_fails(&server, 4, in_flight);
            let context = format!("{in_flight} in flight, failing at pass {fail_at}");
            assert_eq!(errors.len(), 4);
            for error in &errors {
                assert_eq!(error.device, "sim:0.2,0", "{context}");
                assert!(
                    error
                        .message
                        .contains(&format!("injected at forward pass {fail_at}")),
                    "{context}: {error}"
                );
            }
            assert_eq!(server.forward_passes(), fail_at - 1, "{context}");
            assert_eq!(server.failure().as_ref(), Some(&errors[0]), "{context}");
            // Both threads end although `survivor` still holds the server: this returns.
            assert_eq!(server.shut_down(), Err(errors[0].clone()), "{context}");
            drop(survivor);
        }
    }
}

/// An evaluator on the caller's thread (a CPU network) fails its evaluation with the
/// device's error, and the one after it too.
#[test]
fn a_failed_device_fails_the_evaluation_of_an_evaluator_on_the_callers_thread() {
    let settings = EvaluatorSettings {
        max_batch: 4,
        ..EvaluatorSettings::on(Device::Cpu)
    };
    // The warm-up is the first pass: the evaluation after it the second.
    let mut evaluator = NetEvaluator::new(tiny_network(), &options(4, 4), settings)
        .unwrap()
        .failing_from_pass(NonZeroU64::new(3).unwrap());
    let positions = random_positions(&options(4, 4), 3, 5);
    let refs: Vec<&Toy> = positions.iter().collect();
    let mut out = vec![Evaluation::default(); refs.len()];
    evaluator.evaluate(&refs, &mut out).unwrap();
    let error = evaluator.evaluate(&refs, &mut out).unwrap_err();
    assert_eq!(error.device, "cpu");
    assert!(error.message.contains("CUDA out of memory"), "{error}");
    let again = evaluator.evaluate(&refs, &mut out).unwrap_err();
    assert!(again.message.contains("at forward pass 4"), "{again}");
}

/// A server whose device never failed shuts down once its clients are gone.
#[test]
fn a_healthy_server_shuts_down_without_an_error() {
    let server = server(4);
    let mut client = server.client();
    evaluate(&mut client, &random_positions(&options(4, 4), 2, 1));
    drop(client);
    assert_eq!(server.shut_down(), Ok(()));
}
