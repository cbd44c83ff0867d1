//! A game with neither GTP nor a page, and with chance, through the real binary: Pig trains,
//! rates (arena and ladder, luck paired across colours) and exports with nothing but its
//! rules and planes; its records mark chance's outcomes; `serve` and `gtp` say in one line
//! that it has no page and no GTP.

mod common;

use common::ghast;
use std::path::Path;

/// A run that writes two generations within seconds.
const CONFIG: &str = r#"
[run]
generations = 2
games_per_shard = 8
seed = 3

[game]
name = "pig"
target = 12
faces = 4
max_turns = 30

[network]
preset = "tiny"

[selfplay]
games_in_flight = 16
full_visits = 16
cheap_visits = 4
random_opening_moves = 1

[training]
batch_size = 32
warmup_steps = 2
min_positions = 200
samples_per_new_position = 4.0
steps_per_generation = 10

[evaluation]
every_generations = 1
baseline = "random"
games = 2
visits = 4
"#;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn succeeds(args: &[&str]) -> String {
    let output = ghast(args, "");
    assert!(
        output.status.success(),
        "ghast {args:?}: {}",
        text(&output.stderr)
    );
    text(&output.stdout)
}

#[test]
fn pig_trains_rates_and_exports_without_gtp_or_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pig.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let run = dir.path().join("run");
    let (config, run_arg) = (config.to_str().unwrap(), run.to_str().unwrap());
    let trained = succeeds(&["train", "--config", config, "--run", run_arg]);
    // The run stops at the generation asked for, however fast its trainer writes them.
    assert!(trained.contains("stopped at generation 2 "), "{trained}");

    // Chance's outcomes are in the records, marked, with no search target.
    let shards: Vec<_> = std::fs::read_dir(run.join("shards"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    let (mut chance, mut decisions) = (0, 0);
    for shard in &shards {
        let bytes = std::fs::read(shard).unwrap();
        let shard = replay::decode_shard(&shard.display().to_string(), &bytes).unwrap();
        assert_eq!(shard.header.game, "pig");
        for played in shard.records.iter().flat_map(|record| &record.moves) {
            if played.chance {
                chance += 1;
                assert!(
                    played.policy.is_empty() && !played.full_search,
                    "{played:?}"
                );
            } else {
                decisions += 1;
            }
        }
    }
    assert!(
        chance > 0 && decisions > 0,
        "{chance} rolls, {decisions} decisions"
    );

    // The bot rates against the baselines, its luck paired across colours.
    let bot = run.join("bot");
    let bot = bot.to_str().unwrap();
    let records = dir.path().join("records");
    let matched = succeeds(&[
        "arena",
        bot,
        "random",
        "--games",
        "4",
        "--threads",
        "2",
        "--out",
        records.to_str().unwrap(),
    ]);
    assert!(matched.contains("4 games"), "{matched}");
    assert!(matched.contains("same chance outcomes"), "{matched}");
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(records.join("match.json")).unwrap()).unwrap();
    assert_eq!(summary["paired_chance"], true, "{summary}");
    let replay_args = common::replay_args(&summary);
    for game in summary["games"].as_array().unwrap() {
        let moves = std::fs::read_to_string(records.join(game["file"].as_str().unwrap())).unwrap();
        let replayed = ghast(&replay_args, &moves);
        assert!(replayed.status.success(), "{}", text(&replayed.stderr));
        assert!(text(&replayed.stdout).contains("\nresult "), "{moves}");
    }
    let ladder = succeeds(&[
        "ladder",
        "--run",
        run_arg,
        "--games",
        "2",
        "--baselines",
        "random,greedy",
        "--visits",
        "4",
        "--threads",
        "2",
    ]);
    assert!(ladder.contains("gen-0002"), "{ladder}");

    let exported = dir.path().join("exported");
    let checkpoint = run.join("models/gen-0001.safetensors");
    let wrote = succeeds(&[
        "export",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--out",
        exported.to_str().unwrap(),
    ]);
    assert!(wrote.contains("pig generation 1"), "{wrote}");
    assert!(Path::new(&exported).join("bot.toml").exists());

    for (command, says) in [
        (
            vec!["serve", "--bot", bot, "--port", "0"],
            "pig has no page yet",
        ),
        (vec!["gtp", "--bot", bot], "pig does not speak GTP yet"),
    ] {
        let output = ghast(&command, "");
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(stderr.contains(says), "{command:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    }
}

/// Pig's moves and chance's outcomes replay from standard input, and a move chance does not
/// allow is refused with exit status 2, naming it.
#[test]
fn pig_replays_and_refuses_illegal_moves() {
    let replayed = ghast(
        &["replay", "--game", "pig", "--target", "10"],
        "roll 4 roll 3 hold roll 1 roll 6",
    );
    assert!(replayed.status.success(), "{}", text(&replayed.stderr));
    let stdout = text(&replayed.stdout);
    assert!(stdout.ends_with("result first target\n"), "{stdout}");
    for (moves, says) in [
        ("roll hold", "`hold`: the die is rolling"),
        ("hold", "nothing to hold"),
        ("roll 7", "`7` is not a move"),
    ] {
        let output = ghast(&["replay", "--game", "pig"], moves);
        assert_eq!(output.status.code(), Some(2), "{moves}");
        assert!(
            text(&output.stderr).contains(says),
            "{moves}: {}",
            text(&output.stderr)
        );
    }
    let bad = ghast(&["replay", "--game", "pig", "--size", "4"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr)
            .contains("pig has no rule `size`; its rules are target, faces, max_turns"),
        "{}",
        text(&bad.stderr)
    );
}
