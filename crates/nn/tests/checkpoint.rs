//! Checkpoints round-trip exactly, and every kind of bad file is a clear error.

mod common;

use common::{ToyOptions, inputs, options, random_positions, tiny_network};
use game::PolicyLayout;
use nn::checkpoint::{self, Checkpoint, Provenance, sidecar_path};
use nn::{Activation, NetConfig, NetError, Network, Preset};
use sidecar::SidecarError;
use std::fs;
use std::path::{Path, PathBuf};
use tch::{Device, Tensor};

const GAME: &str = "toy";

fn provenance() -> Provenance<ToyOptions> {
    Provenance {
        game: GAME.into(),
        game_options: options(4, 5),
        generation: 3,
        training_step: 1200,
        run_seconds: None,
    }
}

fn saved(network: &Network, dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(format!("{name}.safetensors"));
    checkpoint::save(network, &provenance(), &path).unwrap();
    path
}

fn load(path: &Path) -> Result<Checkpoint<ToyOptions>, NetError> {
    checkpoint::load(path, GAME, Device::Cpu)
}

/// The error's message, which must name the file it is about.
fn message(result: Result<Checkpoint<ToyOptions>, NetError>, file: &Path) -> (NetError, String) {
    let error = result.expect_err("loading must fail");
    let text = error.to_string();
    assert!(
        text.contains(&file.display().to_string()),
        "`{text}` does not name {}",
        file.display()
    );
    (error, text)
}

#[test]
fn round_trip_gives_the_same_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let network = tiny_network();
    let positions = inputs(&random_positions(&options(4, 4), 6, 1));
    // Train-mode passes move batch norm's running statistics, which must be saved too.
    tch::no_grad(|| network.forward_t(&positions, true));
    let path = saved(&network, dir.path(), "model");
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary files left: {names:?}");

    let loaded = load(&path).unwrap();
    assert_eq!(loaded.provenance, provenance());
    assert_eq!(loaded.network.config(), network.config());
    assert!(loaded.unix_time > 1_600_000_000);
    let (a, b) = tch::no_grad(|| {
        (
            network.forward_t(&positions, false),
            loaded.network.forward_t(&positions, false),
        )
    });
    let same = |x: &Tensor, y: &Tensor| x.equal(y);
    assert!(same(&a.policy_logits, &b.policy_logits) && same(&a.wdl_logits, &b.wdl_logits));
    assert!(same(&a.lead, &b.lead) && same(&a.ownership, &b.ownership));
    // A fresh net differs, so the comparison above could fail.
    let fresh = tch::no_grad(|| tiny_network().forward_t(&positions, false));
    assert!(!same(&a.wdl_logits, &fresh.wdl_logits));
}

#[test]
fn truncated_weights_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&tiny_network(), dir.path(), "model");
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let (error, text) = message(load(&path), &path);
    assert!(matches!(error, NetError::Weights { .. }), "{text}");
}

#[test]
fn foreign_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&tiny_network(), dir.path(), "model");
    let noise: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    fs::write(&path, noise).unwrap();
    let (error, text) = message(load(&path), &path);
    assert!(matches!(error, NetError::Weights { .. }), "{text}");

    let sidecar = sidecar_path(&path);
    fs::write(&sidecar, r#"{"name": "something else", "version": 2}"#).unwrap();
    let (error, text) = message(load(&path), &sidecar);
    assert!(
        matches!(error, NetError::Sidecar(SidecarError::Parse { .. })),
        "{text}"
    );

    let missing = dir.path().join("absent.safetensors");
    let (error, text) = message(load(&missing), &sidecar_path(&missing));
    assert!(
        matches!(error, NetError::Sidecar(SidecarError::Io { .. })),
        "{text}"
    );
}

#[test]
fn another_game_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&tiny_network(), dir.path(), "model");
    let result = checkpoint::load::<ToyOptions>(&path, "go", Device::Cpu);
    let (error, text) = message(result, &sidecar_path(&path));
    assert!(
        matches!(error, NetError::Sidecar(SidecarError::WrongGame { .. })),
        "{text}"
    );
    assert!(text.contains("toy") && text.contains("go"), "{text}");
}

#[test]
fn mismatched_architecture_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = tiny_network();
    let wider = NetConfig {
        channels: 24,
        ..tiny.config().clone()
    };
    let wider_path = saved(&Network::new(wider, Device::Cpu), dir.path(), "wider");
    fs::copy(saved(&tiny, dir.path(), "tiny"), &wider_path).unwrap();
    let (error, text) = message(load(&wider_path), &wider_path);
    assert!(matches!(error, NetError::Architecture { .. }), "{text}");
    assert!(text.contains("has shape [16"), "{text}");

    let layout = PolicyLayout {
        spatial_planes: 1,
        global_actions: 1,
    };
    let deeper = NetConfig::preset(Preset::Small, 3, layout);
    let deeper_path = saved(&Network::new(deeper, Device::Cpu), dir.path(), "deeper");
    fs::copy(saved(&tiny, dir.path(), "tiny"), &deeper_path).unwrap();
    let (error, text) = message(load(&deeper_path), &deeper_path);
    assert!(matches!(error, NetError::Architecture { .. }), "{text}");
    assert!(text.contains("missing tensor `tower.2."), "{text}");
}

/// A sidecar that claims a layer no unit wide, or one wider than any tower, is refused before
/// a network is built from it (libtorch cannot initialise a layer fed by nothing: the fuzzer
/// found `global_pool_channels: 0` crashing the loader).
#[test]
fn impossible_architectures_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&tiny_network(), dir.path(), "model");
    let original = fs::read_to_string(sidecar_path(&path)).unwrap();
    for (field, value, says) in [
        (
            "global_pool_channels",
            "0",
            "global_pool_channels = 0: expected 1 to 1024",
        ),
        ("value_hidden", "0", "value_hidden = 0"),
        ("policy_channels", "0", "policy_channels = 0"),
        ("input_channels", "100000", "input_channels = 100000"),
        ("blocks", "0", "0 blocks"),
        ("global_actions", "1000000", "global_actions = 1000000"),
    ] {
        let mut sidecar: serde_json::Value = serde_json::from_str(&original).unwrap();
        sidecar["architecture"][field] = serde_json::from_str(value).unwrap();
        fs::write(sidecar_path(&path), sidecar.to_string()).unwrap();
        let (error, text) = message(load(&path), &sidecar_path(&path));
        assert!(
            matches!(error, NetError::Sidecar(SidecarError::Architecture { .. })),
            "{field}: {text}"
        );
        assert!(text.contains(says), "{field}: {text}");
    }
}

#[test]
fn weights_need_the_safetensors_extension() {
    let path = PathBuf::from("model.pt");
    let error = checkpoint::save(&tiny_network(), &provenance(), &path).unwrap_err();
    assert!(
        matches!(error, NetError::Sidecar(SidecarError::WeightsPath { .. })),
        "{error}"
    );
}

/// Sidecars written before the policy head's activation was a choice load as the ReLU they
/// were trained with; new networks get SiLU, and the sidecar says so.
#[test]
fn sidecars_without_a_policy_activation_are_relu() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&tiny_network(), dir.path(), "new");
    let sidecar = sidecar_path(&path);
    let mut json: serde_json::Value = serde_json::from_slice(&fs::read(&sidecar).unwrap()).unwrap();
    let architecture = json["architecture"].as_object_mut().unwrap();
    assert_eq!(architecture["policy_activation"], "silu");
    assert_eq!(
        load(&path).unwrap().network.config().policy_activation,
        Activation::Silu
    );

    architecture.remove("policy_activation");
    fs::write(&sidecar, serde_json::to_vec(&json).unwrap()).unwrap();
    let old = load(&path).unwrap();
    assert_eq!(old.network.config().policy_activation, Activation::Relu);
}
