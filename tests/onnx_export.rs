//! `model.onnx`, the network for runtimes without libtorch: every shipped bundle carries the
//! one its weights give, and onnxruntime runs it as libtorch runs the network, every output
//! within 1e-4 on 1,000 random positions of every game (tests/onnx-tool/compare.py, with the
//! onnxruntime and onnx packages that scripts/setup.sh installs).

mod common;

use common::ghast;
use game::{Evaluation, Evaluator, Game, Planes};
use nn::checkpoint;
use nn::{HostBatch, NetEvaluator, Network};
use prost::Message;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use tch::{Device, Kind};

const POSITIONS: usize = 1000;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped bundles, with the game each plays.
fn shipped_bundles() -> Vec<(PathBuf, String)> {
    let mut bundles: Vec<_> = std::fs::read_dir(root().join("models"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join(play::BOT_FILE).is_file())
        .map(|path| {
            let game = play::game_of(&path).unwrap();
            (path, game)
        })
        .collect();
    bundles.sort();
    bundles
}

fn export(args: &[&str]) {
    let mut all = vec!["export", "--onnx"];
    all.extend(args);
    let output = ghast(&all, "");
    assert!(
        output.status.success(),
        "ghast {all:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn every_shipped_bundle_carries_the_onnx_of_its_weights() {
    let bundles = shipped_bundles();
    assert!(bundles.len() >= 6, "{bundles:?}");
    for (bundle, _) in bundles {
        let copy = tempfile::tempdir().unwrap();
        for file in [play::WEIGHTS_FILE, play::SIDECAR_FILE, play::BOT_FILE] {
            std::fs::copy(bundle.join(file), copy.path().join(file)).unwrap();
        }
        export(&["--bundle", copy.path().to_str().unwrap()]);
        let fresh = std::fs::read(copy.path().join(play::ONNX_FILE)).unwrap();
        let shipped = std::fs::read(bundle.join(play::ONNX_FILE)).unwrap_or_default();
        assert!(
            fresh == shipped,
            "{}/{} is missing or not of its weights: run `ghast export --bundle {0} --onnx`",
            bundle.display(),
            play::ONNX_FILE
        );
    }
}

#[test]
fn a_bundle_exported_again_without_onnx_loses_its_stale_onnx() {
    let (bundle, _) = &shipped_bundles()[0];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bot");
    let weights = bundle.join(play::WEIGHTS_FILE);
    let weights = weights.to_str().unwrap();
    export(&["--checkpoint", weights, "--out", out.to_str().unwrap()]);
    assert!(out.join(play::ONNX_FILE).is_file());
    let again = ghast(
        &[
            "export",
            "--checkpoint",
            weights,
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(again.status.success());
    assert!(!out.join(play::ONNX_FILE).exists());
}

#[test]
fn weights_that_do_not_match_their_sidecar_are_refused_by_name() {
    let (bundle, _) = &shipped_bundles()[0];
    let dir = tempfile::tempdir().unwrap();
    for file in [play::WEIGHTS_FILE, play::SIDECAR_FILE, play::BOT_FILE] {
        std::fs::copy(bundle.join(file), dir.path().join(file)).unwrap();
    }
    let sidecar = dir.path().join(play::SIDECAR_FILE);
    let text = std::fs::read_to_string(&sidecar).unwrap();
    let changed = text.replacen("\"channels\": ", "\"channels\": 1", 1);
    assert_ne!(text, changed);
    std::fs::write(&sidecar, changed).unwrap();
    let output = ghast(
        &["export", "--onnx", "--bundle", dir.path().to_str().unwrap()],
        "",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("model.safetensors: cannot be written as ONNX: the weights' tensor `stem.conv.weight`: shape"),
        "{stderr}"
    );
    assert!(!dir.path().join(play::ONNX_FILE).exists());
}

macro_rules! check_every_game {
    ($($game:ty),* $(,)?) => {
        $( runtimes_run_it_as_libtorch::<$game>(); )*
    };
}

#[test]
fn onnxruntime_and_tract_run_every_games_network_as_libtorch_does() {
    games::with_every_game!(check_every_game);
}

/// Every shipped bundle of `G`, and an untrained net with a soft policy and batch norms that
/// are not the identity: exported as ONNX and run by onnxruntime, and by tract through the
/// evaluator, on random positions.
fn runtimes_run_it_as_libtorch<G: Planes>() {
    let dir = tempfile::tempdir().unwrap();
    let mut bots: Vec<(PathBuf, G::Options)> = shipped_bundles()
        .into_iter()
        .filter(|(_, game)| game == G::NAME)
        .map(|(bundle, _)| {
            let options = play::options_of::<G>(&bundle).unwrap();
            let copy = dir.path().join(bundle.file_name().unwrap());
            std::fs::create_dir(&copy).unwrap();
            for file in [play::WEIGHTS_FILE, play::SIDECAR_FILE, play::BOT_FILE] {
                std::fs::copy(bundle.join(file), copy.join(file)).unwrap();
            }
            export(&["--bundle", copy.to_str().unwrap()]);
            (copy, options)
        })
        .collect();
    let options = G::Options::default();
    let untrained = dir.path().join("untrained");
    std::fs::create_dir(&untrained).unwrap();
    let weights = untrained.join("gen-0000.safetensors");
    save_untrained_with_statistics::<G>(&weights, &options);
    let bundle = dir.path().join("untrained-bot");
    export(&[
        "--checkpoint",
        weights.to_str().unwrap(),
        "--out",
        bundle.to_str().unwrap(),
    ]);
    bots.push((bundle, options));

    for (index, (bundle, options)) in bots.iter().enumerate() {
        let cases = dir.path().join(format!("cases-{index}"));
        let (positions, expected) = write_cases::<G>(bundle, options, &cases, index as u64);
        let (agrees, report) = compare(&bundle.join(play::ONNX_FILE), &cases);
        assert!(agrees, "{} {}: {report}", G::NAME, bundle.display());
        println!("{} {}: onnxruntime: {report}", G::NAME, bundle.display());
        let tract = tract_differences(bundle, options, &positions, &expected);
        println!("{} {}: tract: {tract:?}", G::NAME, bundle.display());
        for (output, difference) in tract {
            assert!(
                difference <= 1e-4,
                "{} {}: tract's {output} is {difference} off libtorch's",
                G::NAME,
                bundle.display()
            );
        }
    }
}

/// Whether onnxruntime's outputs of `model` on `cases` are libtorch's, and what
/// tests/onnx-tool/compare.py said.
fn compare(model: &Path, cases: &Path) -> (bool, String) {
    let compare = Command::new(root().join(".venv/bin/python"))
        .arg(root().join("tests/onnx-tool/compare.py"))
        .arg(model)
        .arg(cases)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&compare.stdout).into_owned()
        + &String::from_utf8_lossy(&compare.stderr);
    (compare.status.success(), report)
}

#[test]
fn the_comparison_fails_a_model_that_computes_otherwise() {
    let (bundle, game) = shipped_bundles()
        .into_iter()
        .find(|(_, game)| game == "ghodak")
        .unwrap();
    assert_eq!(game, ghodak::Ghodak::NAME);
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    let options = play::options_of::<ghodak::Ghodak>(&bundle).unwrap();
    write_cases::<ghodak::Ghodak>(&bundle, &options, &cases, 0);
    let bytes = std::fs::read(bundle.join(play::ONNX_FILE)).unwrap();
    let mut model = onnx::proto::ModelProto::decode(bytes.as_slice()).unwrap();
    let graph = model.graph.as_mut().unwrap();
    let centre = graph
        .initializer
        .iter_mut()
        .find(|tensor| tensor.name == "board.area_sqrt_center")
        .unwrap();
    // sqrt(area) centred on 10.01 instead of 10: a size feature a thousandth off.
    centre.raw_data = 10.01f32.to_le_bytes().to_vec();
    let changed = dir.path().join("changed.onnx");
    std::fs::write(&changed, model.encode_to_vec()).unwrap();
    let (agrees, report) = compare(&changed, &cases);
    assert!(!agrees, "{report}");
    assert!(report.contains("beyond 0.0001"), "{report}");
}

macro_rules! play_every_game {
    ($($game:ty),* $(,)?) => {
        $( same_moves_on_both_runtimes::<$game>(); )*
    };
}

/// Positions a shipped bot searches on each runtime, and the visits of each search.
const MOVE_POSITIONS: usize = 100;
const MOVE_VISITS: u32 = 200;

#[test]
fn a_shipped_bot_chooses_the_same_moves_on_tract_as_on_libtorch() {
    games::with_every_game!(play_every_game);
}

/// Every shipped bundle of `G` searches 100 random positions at 200 visits with the same seed
/// on libtorch and on tract: at least 99 choose the same move, and where they differ the two
/// moves are a near-tie (their visits, on libtorch, within 2% of the search's).
fn same_moves_on_both_runtimes<G: Planes>() {
    for (bundle, game) in shipped_bundles() {
        if game != G::NAME {
            continue;
        }
        let open = || play::Bundle::<G>::load(&bundle).unwrap();
        let options = open().settings.game_options;
        let mut torch = play::Bot::new(open(), Device::Cpu, 7).unwrap();
        let mut tract = play::Bot::new(open(), play::Runtime::Onnx, 7).unwrap();
        let positions =
            game::playout::random_decision_positions::<G>(&options, MOVE_POSITIONS, 120, 99);
        let mut differ = Vec::new();
        for position in &positions {
            let on_torch = torch.analyze(position, Some(MOVE_VISITS)).unwrap();
            let on_tract = tract.analyze(position, Some(MOVE_VISITS)).unwrap();
            if on_torch.best != on_tract.best {
                let visits = |action: usize| {
                    on_torch
                        .moves
                        .iter()
                        .find(|stats| stats.action == action)
                        .map_or(0, |stats| stats.visits)
                };
                let gap = visits(on_torch.best).abs_diff(visits(on_tract.best));
                differ.push((position.position_text(), gap, on_torch.total_visits));
            }
        }
        println!(
            "{}: {} of {MOVE_POSITIONS} positions chose another move on tract: {differ:?}",
            bundle.display(),
            differ.len()
        );
        assert!(differ.len() <= 1, "{}: {differ:?}", bundle.display());
        for (position, gap, total) in &differ {
            assert!(
                f64::from(*gap) <= 0.02 * f64::from(*total),
                "{}: no near-tie at {position}: {gap} visits apart of {total}",
                bundle.display()
            );
        }
    }
}

/// A randomly initialised tiny net whose batch norms have random statistics and affine
/// parameters, so that folding them into the convolutions is put to the test.
fn save_untrained_with_statistics<G: Planes>(weights: &Path, options: &G::Options) {
    let network = Network::new(play::tiny_config::<G>(options), Device::Cpu);
    tch::manual_seed(7);
    tch::no_grad(|| {
        for (name, mut variable) in network.var_store().variables() {
            let random = variable.rand_like();
            if name.ends_with("running_var") || name.ends_with("norm.weight") {
                variable.copy_(&(random * 1.5 + 0.25));
            } else if name.ends_with("running_mean") || name.ends_with("norm.bias") {
                variable.copy_(&(random - 0.5));
            }
        }
    });
    play::save_generation_zero::<G>(&network, options, weights).unwrap();
}

/// Writes the inputs of random positions and libtorch's outputs for them into `cases`: one
/// little-endian f32 file a tensor, and `shapes.json`.
fn write_cases<G: Planes>(
    bundle: &Path,
    options: &G::Options,
    cases: &Path,
    seed: u64,
) -> (Vec<G>, HashMap<&'static str, Vec<f32>>) {
    std::fs::create_dir_all(cases).unwrap();
    let weights = play::weights_of(bundle).unwrap();
    let mut network = checkpoint::load::<G::Options>(&weights, G::NAME, Device::Cpu)
        .unwrap()
        .network;
    network.fold_batch_norm();
    let positions = game::playout::random_decision_positions::<G>(options, POSITIONS, 120, seed);
    let refs: Vec<&G> = positions.iter().collect();
    let mut host = HostBatch::default();
    host.encode(&refs, refs.len());
    let inputs = host.inputs(Device::Cpu, Kind::Float);
    let output = tch::no_grad(|| network.forward_t(&inputs, false));
    let mut tensors = vec![
        ("planes", inputs.planes.shallow_clone()),
        ("board_mask", inputs.board_mask.shallow_clone()),
        ("illegal_bias", inputs.illegal_bias.shallow_clone()),
        ("policy", output.policy_logits.softmax(-1, Kind::Float)),
        ("wdl", output.wdl_logits.softmax(-1, Kind::Float)),
        ("lead", output.lead.shallow_clone()),
        ("ownership", output.ownership.shallow_clone()),
    ];
    if let Some(soft) = &output.soft_policy_logits {
        tensors.push(("soft_policy", soft.softmax(-1, Kind::Float)));
    }
    let mut shapes = serde_json::Map::new();
    let mut values = HashMap::new();
    for (name, tensor) in &tensors {
        let floats = Vec::<f32>::try_from(tensor.flatten(0, -1)).unwrap();
        let bytes: Vec<u8> = floats.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(cases.join(format!("{name}.f32")), bytes).unwrap();
        shapes.insert((*name).into(), serde_json::json!(tensor.size()));
        values.insert(*name, floats);
    }
    std::fs::write(
        cases.join("shapes.json"),
        serde_json::Value::Object(shapes).to_string(),
    )
    .unwrap();
    (positions, values)
}

/// The largest difference between what tract makes of `bundle`'s model.onnx, through the
/// evaluator that search reads, and libtorch's `expected` outputs for `positions`: of the
/// policy, the value (win minus loss), the lead and the ownership.
fn tract_differences<G: Planes>(
    bundle: &Path,
    options: &G::Options,
    positions: &[G],
    expected: &HashMap<&'static str, Vec<f32>>,
) -> [(&'static str, f32); 4] {
    let model = bundle.join(play::ONNX_FILE);
    let mut evaluator = NetEvaluator::<G>::onnx(&model, options, 64).unwrap();
    assert!(evaluator.want_ownership(true));
    let refs: Vec<&G> = positions.iter().collect();
    let mut evaluations = vec![Evaluation::default(); refs.len()];
    for (chunk, out) in refs.chunks(37).zip(evaluations.chunks_mut(37)) {
        evaluator.evaluate(chunk, out).unwrap();
    }
    let mut worst = [
        ("policy", 0f32),
        ("value", 0.0),
        ("lead", 0.0),
        ("ownership", 0.0),
    ];
    let mut note =
        |index: usize, a: f32, b: f32| worst[index].1 = worst[index].1.max((a - b).abs());
    let actions = expected["policy"].len() / positions.len();
    let cells = expected["ownership"].len() / positions.len();
    for (row, evaluation) in evaluations.iter().enumerate() {
        let policy = &expected["policy"][row * actions..][..actions];
        for (a, b) in evaluation.policy.iter().zip(policy) {
            note(0, *a, *b);
        }
        let wdl = &expected["wdl"][row * 3..][..3];
        note(1, evaluation.value, wdl[0] - wdl[2]);
        note(2, evaluation.lead, expected["lead"][row]);
        let ownership = &expected["ownership"][row * cells..][..cells];
        assert_eq!(evaluation.ownership.len(), cells);
        for (a, b) in evaluation.ownership.iter().zip(ownership) {
            note(3, *a, *b);
        }
    }
    worst
}
