//! Bundles survive a round trip, and every kind of damage gets an error naming the file.

mod common;

use play::{BOT_FILE, Bundle, PlayError, SIDECAR_FILE, WEIGHTS_FILE};
use std::fs;
use std::path::Path;

fn load_error(dir: &Path) -> String {
    Bundle::<ghast::Ghast>::load(dir).unwrap_err().to_string()
}

#[test]
fn an_exported_bundle_loads_with_its_settings() {
    let temp = tempfile::tempdir().unwrap();
    let options = common::small_options([0, 1]);
    let dir = common::bundle(temp.path(), &options, 37);
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [BOT_FILE, SIDECAR_FILE, WEIGHTS_FILE],
        "no temporary files left"
    );

    let bundle = Bundle::<ghast::Ghast>::load(&dir).unwrap();
    assert_eq!(bundle.settings.visits, 37);
    assert_eq!(bundle.settings.game_options, options);
    assert_eq!(bundle.settings.search, mcts::SearchConfig::play());
    assert_eq!(
        bundle.network.config(),
        &play::tiny_config::<ghast::Ghast>(&ghast::GhastOptions::default())
    );

    let from_file =
        Bundle::<ghast::Ghast>::open(&temp.path().join("gen-0000.safetensors")).unwrap();
    assert_eq!(from_file.settings.visits, play::DEFAULT_VISITS);
    assert_eq!(from_file.settings.game_options, options);
    assert_eq!(
        Bundle::<ghast::Ghast>::open(&dir).unwrap().settings,
        bundle.settings
    );
}

#[test]
fn zero_visits_are_refused_at_export() {
    let temp = tempfile::tempdir().unwrap();
    let weights = common::checkpoint(temp.path(), &common::small_options([0, 0]));
    let error = Bundle::<ghast::Ghast>::export(&weights, &temp.path().join("bot"), 0).unwrap_err();
    assert!(matches!(error, PlayError::Visits(0)), "{error}");
    assert!(!temp.path().join("bot").exists());
}

#[test]
fn a_missing_file_is_named() {
    let temp = tempfile::tempdir().unwrap();
    let dir = common::bundle(temp.path(), &common::small_options([0, 0]), 8);
    for file in [BOT_FILE, SIDECAR_FILE, WEIGHTS_FILE] {
        let moved = temp.path().join(file);
        fs::rename(dir.join(file), &moved).unwrap();
        let message = load_error(&dir);
        assert!(
            message.ends_with(&format!("not a bot bundle: {file} is missing")),
            "{message}"
        );
        fs::rename(&moved, dir.join(file)).unwrap();
    }
    let message = load_error(&temp.path().join("nowhere"));
    assert!(
        message.contains("nowhere: cannot open the bundle folder"),
        "{message}"
    );
}

#[test]
fn truncated_weights_are_refused() {
    let temp = tempfile::tempdir().unwrap();
    let dir = common::bundle(temp.path(), &common::small_options([0, 0]), 8);
    let weights = dir.join(WEIGHTS_FILE);
    let bytes = fs::read(&weights).unwrap();
    fs::write(&weights, &bytes[..bytes.len() / 2]).unwrap();
    let message = load_error(&dir);
    assert!(message.contains(WEIGHTS_FILE), "{message}");
    assert!(message.contains("cannot read the weights"), "{message}");
}

#[test]
fn malformed_settings_say_where() {
    let temp = tempfile::tempdir().unwrap();
    let dir = common::bundle(temp.path(), &common::small_options([0, 0]), 8);
    let settings = dir.join(BOT_FILE);
    let text = fs::read_to_string(&settings).unwrap();
    let cases = [
        (
            text.replace("visits = 8", "visits = \"many\""),
            "malformed bot settings: line",
        ),
        (
            text.replace("visits = 8", "visits = 0"),
            "visits must be at least 1",
        ),
        (format!("speed = 3\n{text}"), "unknown field `speed`"),
        (
            text.replace("format_version = 1", "format_version = 9"),
            "format version 9",
        ),
        ("[[[".to_owned(), "malformed bot settings: line 1"),
        (
            text.replace("formula = \"puct\"", "formula = \"ucb1\""),
            "[search] formula = \"ucb1\" ignores the network's policy",
        ),
        (text.replace("c_puct = ", "c_puct = -"), "[search] c_puct"),
    ];
    for (damaged, expected) in cases {
        fs::write(&settings, damaged).unwrap();
        let message = load_error(&dir);
        assert!(message.contains(BOT_FILE), "{message}");
        assert!(
            message.contains(expected),
            "expected `{expected}` in: {message}"
        );
    }
}

#[test]
fn a_game_mismatch_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let dir = common::bundle(temp.path(), &common::small_options([0, 0]), 8);
    let settings = dir.join(BOT_FILE);
    let text = fs::read_to_string(&settings).unwrap();
    assert!(text.contains("size = 3"), "{text}");

    fs::write(&settings, text.replace("size = 3", "size = 4")).unwrap();
    let message = load_error(&dir);
    assert!(
        message.contains("differ from the checkpoint's"),
        "{message}"
    );

    fs::write(&settings, text.replace("game = \"ghast\"", "game = \"go\"")).unwrap();
    let message = load_error(&dir);
    assert!(
        message.contains("the bot is for game `go`, not `ghast`"),
        "{message}"
    );

    fs::write(&settings, &text).unwrap();
    let sidecar = dir.join(SIDECAR_FILE);
    let json = fs::read_to_string(&sidecar).unwrap();
    fs::write(&sidecar, json.replace("\"ghast\"", "\"go\"")).unwrap();
    let message = load_error(&dir);
    assert!(
        message.contains("checkpoint is for game `go`, not `ghast`"),
        "{message}"
    );
}

#[test]
fn a_resign_rule_survives_the_bundle_and_a_bundle_without_one_never_resigns() {
    let temp = tempfile::tempdir().unwrap();
    let dir = common::bundle(temp.path(), &common::small_options([0, 0]), 8);
    let mut bundle = Bundle::<ghast::Ghast>::load(&dir).unwrap();
    assert!(bundle.settings.resign.is_never(), "exports never resign");
    let rule = mcts::ResignRule {
        threshold: -0.8,
        consecutive_moves: 4,
    };
    bundle.settings.resign = rule;
    bundle.save(&dir).unwrap();
    let text = fs::read_to_string(dir.join(BOT_FILE)).unwrap();
    assert!(text.contains("[resign]"), "{text}");
    assert_eq!(
        Bundle::<ghast::Ghast>::load(&dir).unwrap().settings.resign,
        rule
    );

    // A bot.toml written before bots resigned has no [resign] table.
    let start = text.find("[resign]").unwrap();
    fs::write(dir.join(BOT_FILE), &text[..start]).unwrap();
    assert!(
        Bundle::<ghast::Ghast>::load(&dir)
            .unwrap()
            .settings
            .resign
            .is_never()
    );
}
