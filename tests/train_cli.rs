//! `ghast train` end to end on configs/tiny.toml: checkpoints, shards, TensorBoard curves, and
//! a run killed with SIGKILL that resumes without losing a finished game or a checkpoint.

use replay::ShardStore;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn ghast() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ghast"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(prefix)
        })
        .collect();
    found.sort();
    found
}

/// The repository's `config` (configs/tiny.toml and the like) with `edit` applied, written into
/// `dir` as `name`. The edit must change the text: a table renamed in the config would
/// otherwise leave a test training the config unedited and passing for the wrong reason.
fn edited_config(
    dir: &Path,
    config: &str,
    name: &str,
    edit: impl FnOnce(&str) -> String,
) -> PathBuf {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(config)).unwrap();
    let edited = edit(&text);
    assert_ne!(
        edited, text,
        "the edit of {config} into {name} changed nothing"
    );
    let path = dir.join(name);
    std::fs::write(&path, edited).unwrap();
    path
}

/// What a `ghast train` that succeeded printed.
struct Printed {
    stdout: String,
    stderr: String,
}

/// `ghast train ARGS --run RUN`, which must succeed.
fn train_ok(run: &Path, args: &[&str]) -> Printed {
    let output = ghast()
        .arg("train")
        .args(args)
        .arg("--run")
        .arg(run)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    Printed {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr,
    }
}

/// A path as the `&str` argument `train_ok` takes (the tests' temporary folders are UTF-8).
fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `--generations 2` stops the run at generation 2 though its config gives it a minute: a
/// flag overrides the config's limits, whichever kind they are.
#[test]
fn a_tiny_run_writes_generations_shards_and_curves() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let config = edited_config(
        dir.path(),
        "configs/tiny.toml",
        "tiny-for-a-minute.toml",
        |tiny| tiny.replace("\nminutes = 0.0", "\nminutes = 1.0"),
    );
    train_ok(&run, &["--generations", "2", "--config", arg(&config)]);
    let models = files(&run.join("models"), "gen-");
    // Generations 0 to 2 with their sidecars, and no more however fast the trainer is.
    assert_eq!(
        models.len(),
        6,
        "generations 0..=2 with sidecars: {models:?}"
    );
    assert!(!files(&run.join("shards"), "shard-").is_empty());

    let script = r#"
import sys
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
events = EventAccumulator(sys.argv[1])
events.Reload()
tags = events.Tags()["scalars"]
for tag in ["loss/policy", "loss/wdl", "loss/lead", "loss/ownership", "train/learning_rate", "eval/score", "gating/score"]:
    assert tag in tags, (tag, tags)
    assert len(events.Scalars(tag)) >= 1, tag
print(len(tags))
"#;
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    let read = Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(run.join("tensorboard"))
        .output()
        .unwrap();
    assert!(
        read.status.success(),
        "tensorboard could not read the curves: {}",
        String::from_utf8_lossy(&read.stderr)
    );
}

#[test]
fn a_killed_run_resumes_with_nothing_lost() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let mut child = ghast()
        .args([
            "train",
            "--config",
            "configs/tiny.toml",
            "--generations",
            "1000",
            "--run",
        ])
        .arg(&run)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while files(&run.join("models"), "gen-0002.json").is_empty() {
        assert!(
            Instant::now() < deadline,
            "no second generation within two minutes"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let shards = files(&run.join("shards"), "shard-");
    let models = files(&run.join("models"), "gen-");
    // The newest checkpoint, which the trainer resumes from (with gating, `latest` may lag).
    let newest = |run: &Path| -> u64 {
        let sidecars = files(&run.join("models"), "gen-");
        let sidecar = sidecars
            .iter()
            .rfind(|path| path.extension().unwrap() == "json")
            .unwrap();
        let stem = sidecar.file_stem().unwrap().to_string_lossy();
        stem.trim_start_matches("gen-").parse().unwrap()
    };
    let latest = newest(&run);
    // The run lies stopped for a while: that time is not the run's.
    std::thread::sleep(Duration::from_secs(5));

    let output = ghast()
        .args(["train", "--resume", "--generations"])
        .arg((latest + 1).to_string())
        .arg("--run")
        .arg(&run)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("resuming at generation {latest}")),
        "{stderr}"
    );
    for file in shards.iter().chain(&models) {
        assert!(file.exists(), "{} was lost", file.display());
    }
    let resumed_latest = newest(&run);
    assert!(
        resumed_latest > latest,
        "the resumed run trained on: {resumed_latest} after {latest}"
    );
    assert!(
        files(&run.join("shards"), "shard-").len() > shards.len(),
        "the resumed run played on"
    );
    let sidecar = |generation: u64| -> serde_json::Value {
        let path = run.join(format!("models/gen-{generation:04}.json"));
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    };
    let (first, last) = (sidecar(0), sidecar(resumed_latest));
    let run_seconds = last["run_seconds"].as_u64().unwrap();
    let clock_seconds = last["unix_time"].as_u64().unwrap() - first["unix_time"].as_u64().unwrap();
    assert!(
        run_seconds >= sidecar(latest)["run_seconds"].as_u64().unwrap(),
        "run seconds go on over a resume"
    );
    assert!(
        run_seconds + 3 <= clock_seconds,
        "the 5 s the run lay stopped do not count: {run_seconds} s of {clock_seconds} s"
    );
}

#[test]
fn a_checkpoint_cut_off_between_weights_and_sidecar_is_trained_again() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    train_ok(
        &run,
        &["--config", "configs/tiny.toml", "--generations", "2"],
    );
    let models = run.join("models");
    let newest: u64 = files(&models, "gen-")
        .iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            name.strip_prefix("gen-")?
                .strip_suffix(".json")?
                .parse()
                .ok()
        })
        .max()
        .unwrap();
    // What a kill after the weights of the newest generation and before its sidecar leaves:
    // the weights, no sidecar, and `latest` still at the generation before.
    let sidecar = |generation: u64| models.join(format!("gen-{generation:04}.json"));
    std::fs::remove_file(sidecar(newest)).unwrap();
    std::fs::write(models.join("latest"), format!("{}\n", newest - 1)).unwrap();

    let generations = (newest + 1).to_string();
    let resume = [
        "--config",
        "configs/tiny.toml",
        "--generations",
        generations.as_str(),
        "--resume",
    ];
    let stderr = train_ok(&run, &resume).stderr;
    assert!(
        stderr.contains(&format!("resuming at generation {}", newest - 1)),
        "{stderr}"
    );
    for generation in [newest, newest + 1] {
        assert!(sidecar(generation).is_file(), "generation {generation}");
        let weights = models.join(format!("gen-{generation:04}.safetensors"));
        assert!(weights.is_file(), "{}", weights.display());
    }
}

/// `ghast train` on a config of `text` exits with status 2 and a message containing `needle`.
fn assert_config_refused(dir: &Path, text: &str, needle: &str) {
    let config = dir.join("refused.toml");
    std::fs::write(&config, text).unwrap();
    let output = ghast()
        .args(["train", "--config"])
        .arg(&config)
        .arg("--run")
        .arg(dir.join("refused-run"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(needle), "{needle}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_second_start_in_the_same_folder_is_refused_and_bad_configs_are_named() {
    let dir = tempfile::tempdir().unwrap();
    assert_config_refused(
        dir.path(),
        "[game]\nsize = 3\nwin_margn = 2\n[network]\npreset = \"tiny\"\n",
        "win_margn",
    );
    let tiny = std::fs::read_to_string("configs/tiny.toml").unwrap();
    let zero_visits = tiny.replace("cheap_visits = 4", "cheap_visits = 0");
    assert_ne!(zero_visits, tiny, "configs/tiny.toml sets cheap_visits = 4");
    assert_config_refused(dir.path(), &zero_visits, "cheap_visits");
    let overshare = tiny.replace("[training]\n", "[training]\nsearch_value_share = 1.5\n");
    assert_ne!(overshare, tiny, "configs/tiny.toml has a [training] table");
    assert_config_refused(dir.path(), &overshare, "search_value_share");
    let unkept = format!("{tiny}\n[bot]\naveraged_generations = 9\n");
    assert_config_refused(
        dir.path(),
        &unkept,
        "averaged_generations = 9: at most [run] keep_newest_generations = 8",
    );

    let run = dir.path().join("run");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("config.toml"), "").unwrap();
    let output = ghast()
        .args(["train", "--config", "configs/tiny.toml", "--run"])
        .arg(&run)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
}

#[test]
fn old_generations_are_thinned_to_every_nth_and_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let config = edited_config(dir.path(), "configs/tiny.toml", "thinning.toml", |tiny| {
        tiny.replace(
            "generations = 2\n",
            "generations = 9\nkeep_every_generation = 4\nkeep_newest_generations = 2\n",
        )
        .replace("steps_per_generation = 10", "steps_per_generation = 3")
        .replace("every_generations = 1", "every_generations = 0")
        .replace("gating = true", "gating = false")
    });
    let run = dir.path().join("run");
    train_ok(&run, &["--config", arg(&config)]);
    let generation = |path: &PathBuf| -> u64 {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        name["gen-".len().."gen-0000".len()].parse().unwrap()
    };
    let weights: Vec<u64> = files(&run.join("models"), "gen-")
        .iter()
        .filter(|path| path.extension().is_some_and(|e| e == "safetensors"))
        .map(generation)
        .collect();
    let sidecars = files(&run.join("models"), "gen-").len() - weights.len();
    assert_eq!(sidecars, weights.len(), "weights and sidecars go together");
    let newest = *weights.last().unwrap();
    assert!(newest >= 9, "{weights:?}");
    let expected: Vec<u64> = (0..=newest)
        .filter(|g| g % 4 == 0 || g + 2 > newest)
        .collect();
    assert_eq!(weights, expected);
    assert!(
        run.join("bot/model.safetensors").is_file(),
        "the bot was exported"
    );
}

/// The game is named once, in the config: a Ghodak run trains and exports a Ghodak bot that
/// speaks GTP in Go terms, and a config naming no game this build plays is refused.
#[test]
fn a_ghodak_config_trains_and_exports_a_ghodak_bot() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    train_ok(&run, &["--config", "configs/ghodak-tiny.toml"]);
    assert!(files(&run.join("models"), "gen-0002").len() == 2);
    let bot = std::fs::read_to_string(run.join("bot/bot.toml")).unwrap();
    assert!(bot.contains("game = \"ghodak\""), "{bot}");
    // `[bot] resign = true`: the bot gives up by self-play's rule (its defaults here).
    assert!(
        bot.contains("[resign]\nthreshold = -0.9\nconsecutive_moves = 3"),
        "{bot}"
    );

    let exported = dir.path().join("exported");
    let output = ghast()
        .args(["export", "--checkpoint"])
        .arg(run.join("models/gen-0001.safetensors"))
        .arg("--out")
        .arg(&exported)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("ghodak generation 1"),
        "{stdout}"
    );

    let mut gtp = ghast()
        .args(["gtp", "--cpu", "--bot"])
        .arg(&exported)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        gtp.stdin.as_mut().unwrap(),
        b"name\nboardsize 5\nkomi 0.5\nplay black C3\ngenmove white\nfinal_score\nquit\n",
    )
    .unwrap();
    let output = gtp.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<&str> = stdout.split("\n\n").collect();
    assert_eq!(answers[0], "= ghast", "{stdout}");
    assert!(
        answers[5].starts_with("= B+") || answers[5].starts_with("= W+"),
        "{stdout}"
    );

    let text = std::fs::read_to_string("configs/ghodak-tiny.toml").unwrap();
    assert_config_refused(
        dir.path(),
        &text.replace("name = \"ghodak\"", "name = \"chess\""),
        "[game] name `chess` is not a game",
    );
}

/// With `inference = "server"`, the self-play threads share one network whose server merges
/// their batches; the run trains and follows new generations as with copies per thread.
#[test]
fn self_play_threads_can_share_one_network_through_an_inference_server() {
    let dir = tempfile::tempdir().unwrap();
    let config = edited_config(dir.path(), "configs/tiny.toml", "server.toml", |tiny| {
        tiny.replace(
            "[selfplay]\n",
            "[selfplay]\nworkers = 3\ninference = \"server\"\n",
        )
    });
    let run = dir.path().join("run");
    let stderr = train_ok(&run, &["--generations", "3", "--config", arg(&config)]).stderr;
    assert!(
        stderr.contains("share one network through an inference server"),
        "{stderr}"
    );
    // How much the server merges depends on scheduling (crates/nn's server test makes it
    // certain with a simulated device); the run reports the figure.
    let merged: f64 = stderr
        .split("the inference server ran ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no batch figure in {stderr}"));
    assert!(merged >= 1.0, "{merged} positions per pass");
    assert!(!files(&run.join("models"), "gen-0003").is_empty());
}

/// `[network] inference_precision = "bf16"` with `[training] precision = "bf16"`: self-play's
/// copies of the network and the training step both compute in bf16 on the CPU, and the run
/// trains to its generations as in f32.
#[test]
fn a_run_plays_and_trains_in_bf16_on_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let config = edited_config(dir.path(), "configs/tiny.toml", "bf16.toml", |tiny| {
        tiny.replace("[network]\n", "[network]\ninference_precision = \"bf16\"\n")
            .replace("[training]\n", "[training]\nprecision = \"bf16\"\n")
    });
    let run = dir.path().join("run");
    let stderr = train_ok(
        &run,
        &[
            "--generations",
            "2",
            "--device",
            "cpu",
            "--config",
            arg(&config),
        ],
    )
    .stderr;
    assert!(
        stderr.contains("a copy of the network on cpu in bf16"),
        "{stderr}"
    );
    assert!(
        stderr.contains("training steps compute in bf16"),
        "{stderr}"
    );
    assert!(!files(&run.join("models"), "gen-0002").is_empty());
    assert!(!files(&run.join("shards"), "shard-").is_empty());
}

/// `--device sim`: self-play runs through the inference server on a simulated accelerator
/// (the trainer on the CPU), and the run trains to its checkpoints as on a real device.
#[test]
fn a_run_on_a_simulated_device_trains_to_a_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let output = ghast()
        .args([
            "train",
            "--config",
            "configs/tiny.toml",
            "--generations",
            "2",
        ])
        .args(["--device", "sim:0.5,2", "--run"])
        .arg(&run)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("through an inference server on sim:0.5,2, 2 batches in flight each"),
        "{stderr}"
    );
    assert!(!files(&run.join("models"), "gen-0002").is_empty());

    let output = ghast()
        .args([
            "train",
            "--config",
            "configs/tiny.toml",
            "--device",
            "sim:0.5",
        ])
        .arg("--run")
        .arg(dir.path().join("refused"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("\"sim:0.5\": expected sim:A_MS,B_US"),
        "{stderr}"
    );
}

/// With averaged weights, each generation holds the average, its batch-norm statistics
/// measured again, and the trained weights are kept beside it (they differ once training has
/// moved them); a resumed run goes on from both.
#[test]
fn averaged_weights_are_played_and_the_trained_ones_kept_for_resuming() {
    let dir = tempfile::tempdir().unwrap();
    let config = edited_config(dir.path(), "configs/tiny.toml", "averaged.toml", |tiny| {
        format!("{tiny}\n[training.weight_average]\ndecay = 0.5\nevery_steps = 1\n")
    });
    let run = dir.path().join("run");
    let stderr = train_ok(&run, &["--config", arg(&config), "--generations", "2"]).stderr;
    assert!(
        stderr.contains("generation 2: the averaged weights' batch-norm statistics measured on"),
        "{stderr}"
    );
    let models = run.join("models");
    let played = std::fs::read(models.join("gen-0002.safetensors")).unwrap();
    let trained = std::fs::read(models.join("trainer-0002.safetensors")).unwrap();
    assert_ne!(played, trained, "the average is not the trained weights");
    let stderr = train_ok(&run, &["--resume", "--generations", "3"]).stderr;
    assert!(stderr.contains("resuming at generation 2"), "{stderr}");
    assert!(models.join("trainer-0003.safetensors").is_file());
}

/// `ghast export --run RUN --average N` writes the run's bot on the uniform average of its
/// latest N generations: every weight the mean of theirs, the batch-norm statistics measured
/// again on the run's games (so not the mean of theirs), and the bot searching as the run's
/// own; `[bot] averaged_generations` makes the run's own export the same. An average of more
/// generations than the run has is refused, naming the count.
#[test]
fn a_run_s_bot_plays_its_latest_generations_averaged() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    train_ok(
        &run,
        &["--config", "configs/tiny.toml", "--generations", "3"],
    );
    let out = dir.path().join("averaged");
    let output = ghast()
        .args([
            "export",
            "--run",
            arg(&run),
            "--average",
            "3",
            "--out",
            arg(&out),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("averaged generations 1 to 3"), "{stdout}");
    let models = run.join("models");
    assert!(models.join("average-0001-0003.safetensors").is_file());
    let generations: Vec<_> = (1..=3)
        .map(|g| tensors(&models.join(format!("gen-{g:04}.safetensors"))))
        .collect();
    let averaged = tensors(&out.join("model.safetensors"));
    assert_eq!(averaged.len(), generations[0].len());
    let mut statistics_measured = 0;
    for (name, tensor) in &averaged {
        let mean = generations
            .iter()
            .map(|g| g[name].shallow_clone())
            .reduce(|a, b| a + b)
            .unwrap()
            / 3.0;
        let off = (tensor - &mean).abs().max().double_value(&[]);
        if name.ends_with(".running_mean") || name.ends_with(".running_var") {
            statistics_measured += usize::from(off > 1e-4);
        } else {
            assert!(
                off < 1e-5,
                "{name} is {off} off the mean of the generations"
            );
        }
    }
    assert!(
        statistics_measured > 0,
        "the batch-norm statistics are the mean of the generations', not measured again"
    );
    let searched = |bot: &Path| std::fs::read_to_string(bot.join("bot.toml")).unwrap();
    assert_eq!(searched(&out), searched(&run.join("bot")));

    // `[bot] averaged_generations` makes the run export the same average itself.
    let config = edited_config(dir.path(), "configs/tiny.toml", "averaging.toml", |tiny| {
        format!("{tiny}\n[bot]\naveraged_generations = 3\n")
    });
    let averaging = dir.path().join("averaging");
    train_ok(
        &averaging,
        &["--config", arg(&config), "--generations", "3"],
    );
    assert_eq!(
        std::fs::read(averaging.join("models/average-0001-0003.safetensors")).unwrap(),
        std::fs::read(averaging.join("bot/model.safetensors")).unwrap(),
        "the run's bot is not the average of its latest 3 generations"
    );

    let output = ghast()
        .args([
            "export",
            "--run",
            arg(&run),
            "--average",
            "9",
            "--out",
            arg(&out),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("9 generations asked for, and the latest is generation 3"),
        "{stderr}"
    );
}

/// The tensors of a safetensors file by name.
fn tensors(path: &Path) -> std::collections::BTreeMap<String, tch::Tensor> {
    tch::Tensor::read_safetensors(path)
        .unwrap()
        .into_iter()
        .collect()
}

/// `--init-from` starts a run on a bigger board from a smaller board's run: generation 0 holds
/// the source's weights, and the saved config names the checkpoint with its comments kept. A
/// bot bundle serves as a source too. A source of another architecture or game, or none,
/// is refused before the run folder is made.
#[test]
fn a_run_starts_warm_from_another_board_sizes_run_or_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small");
    train_ok(
        &small,
        &["--config", "configs/tiny.toml", "--generations", "1"],
    );
    let bigger = edited_config(dir.path(), "configs/tiny.toml", "size4.toml", |tiny| {
        tiny.replace("\nsize = 3\n", "\nsize = 4\n")
    });
    let source = small.join("models/gen-0001.safetensors");

    for (from, expected) in [
        (small.clone(), source.clone()),
        (small.join("bot"), small.join("bot/model.safetensors")),
    ] {
        let run = dir.path().join(format!(
            "warm-{}",
            from.file_name().unwrap().to_string_lossy()
        ));
        let stderr = train_ok(
            &run,
            &[
                "--config",
                arg(&bigger),
                "--generations",
                "1",
                "--init-from",
                arg(&from),
            ],
        )
        .stderr;
        assert!(
            stderr.contains(&format!("with the weights of {}", expected.display())),
            "{stderr}"
        );
        let saved = std::fs::read_to_string(run.join("config.toml")).unwrap();
        assert!(
            saved.contains(&format!("init_from = \"{}\"", expected.display())),
            "{saved}"
        );
        assert!(
            saved.contains("# A smoke run for the tests"),
            "comments kept: {saved}"
        );
        assert!(saved.contains("\nsize = 4\n"), "{saved}");
        let started = tensors(&run.join("models/gen-0000.safetensors"));
        let weights = tensors(&expected);
        assert_eq!(
            started.keys().collect::<Vec<_>>(),
            weights.keys().collect::<Vec<_>>()
        );
        for (name, tensor) in &started {
            assert!(
                tensor.equal(&weights[name]),
                "{name} differs from the source's"
            );
        }
    }

    let refused = |config: &Path, from: &Path, words: &str| {
        let run = dir.path().join("refused");
        let output = ghast()
            .args(["train", "--config"])
            .arg(config)
            .arg("--init-from")
            .arg(from)
            .arg("--run")
            .arg(&run)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(words), "{words}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!run.exists(), "no run folder made: {stderr}");
    };
    let wider = edited_config(dir.path(), "configs/tiny.toml", "wider.toml", |tiny| {
        tiny.replace("preset = \"tiny\"", "preset = \"small\"")
    });
    refused(&wider, &small, "not the architecture of [network] (6x64)");
    refused(
        Path::new("configs/ghodak-tiny.toml"),
        &small,
        "[network] init_from",
    );
    refused(
        &bigger,
        &dir.path().join("nowhere"),
        "neither a run folder with a generation nor a bot",
    );
}

/// `[selfplay] start_positions`: a Go run reads a folder of SGF records, leaves out those of
/// other set-ups (handicap stones, another komi) and trains; a record it cannot read stops
/// the run with the file, the node and why.
#[test]
fn self_play_starts_from_the_positions_of_a_folder_of_records() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    std::fs::create_dir(&records).unwrap();
    for (name, text) in [
        (
            "a.sgf",
            "(;GM[1]SZ[5]KM[0.5];B[cc];W[bb];B[dd];W[db];B[bd])",
        ),
        ("handicap.sgf", "(;GM[1]SZ[5]KM[0.5]AB[aa];W[cc];B[dd])"),
        ("komi.sgf", "(;GM[1]SZ[5]KM[7.5];B[cc];W[bb])"),
        ("notes.txt", "not a record"),
    ] {
        std::fs::write(records.join(name), text).unwrap();
    }
    let config = edited_config(
        dir.path(),
        "configs/ghodak-tiny.toml",
        "starts.toml",
        |tiny| {
            tiny.replace(
                "[selfplay]\n",
                &format!(
                    "[selfplay]\nstart_positions = \"{}\"\nstart_position_share = 1.0\n",
                    records.display()
                ),
            )
        },
    );
    let flags = ["--config", arg(&config), "--generations", "1"];
    let stderr = train_ok(&dir.path().join("run"), &flags).stderr;
    assert!(
        stderr.contains(&format!(
            "100% of the games start from positions of 1 records in {} (2 SGF records of other set-ups left out)",
            records.display()
        )),
        "{stderr}"
    );

    std::fs::write(records.join("bad.sgf"), "(;GM[1]SZ[5];B[cc];W[zz])").unwrap();
    let output = ghast()
        .arg("train")
        .args(flags)
        .arg("--run")
        .arg(dir.path().join("refused"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("bad.sgf: node 2 `;W[zz]`: [zz] is off the 5x5 board"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `[selfplay] sizes`: self-play mixes the run's board with another size, each size's games
/// go to shards of their own (another writer id, the size in their header), and the trainer
/// learns from both; a list that leaves out the run's own size is refused with why.
#[test]
fn a_run_mixes_board_sizes_in_self_play_and_training() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = std::fs::read_to_string("configs/tiny.toml").unwrap();
    let mixed = tiny.replace("[selfplay]\n", "[selfplay]\nsizes = [3, 4]\n");
    assert_ne!(mixed, tiny, "configs/tiny.toml has a [selfplay] table");
    assert_config_refused(
        dir.path(),
        &tiny.replace("[selfplay]\n", "[selfplay]\nsizes = [4, 5]\n"),
        "leaves out [game] size = 3",
    );
    let config = dir.path().join("mixed.toml");
    std::fs::write(&config, mixed).unwrap();
    let run = dir.path().join("run");
    let stderr = train_ok(&run, &["--config", arg(&config), "--generations", "2"]).stderr;
    assert!(run.join("models/gen-0002.safetensors").exists(), "{stderr}");
    assert!(
        !stderr.contains("skipping"),
        "the trainer takes both sizes' shards: {stderr}"
    );

    let shards = replay::LocalDirStore::open(run.join("shards")).unwrap();
    let mut sizes_by_writer = std::collections::BTreeMap::new();
    for name in shards.list().unwrap() {
        let shard = shards.read_shard(&name).unwrap();
        let options: serde_json::Value = serde_json::from_str(&shard.header.options_json).unwrap();
        sizes_by_writer
            .entry(name.worker)
            .or_insert_with(std::collections::BTreeSet::new)
            .insert(options["size"].as_u64().unwrap());
    }
    let expected = std::collections::BTreeMap::from([
        (0, std::collections::BTreeSet::from([3])),
        (10_000, std::collections::BTreeSet::from([4])),
    ]);
    assert_eq!(sizes_by_writer, expected, "{stderr}");
    assert_eq!(files(&run, "journal-").len(), 1, "the other size's journal");
}

/// `[selfplay] reanalyse_share`: a reanalyse thread searches stored games again with a newer
/// network and stores them under a writer id of their own, each the same game as one that an
/// older generation played, stamped with the generation that searched it; a share outside
/// 0 to 1 is refused with its name.
#[test]
fn a_run_reanalyses_old_games_with_a_newer_network() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = std::fs::read_to_string("configs/tiny.toml").unwrap();
    assert_config_refused(
        dir.path(),
        &tiny.replace("[selfplay]\n", "[selfplay]\nreanalyse_share = 1.5\n"),
        "reanalyse_share",
    );
    let config = edited_config(dir.path(), "configs/tiny.toml", "reanalyse.toml", |tiny| {
        tiny.replace("[selfplay]\n", "[selfplay]\nreanalyse_share = 1.0\n")
    });
    let run = dir.path().join("run");
    let Printed { stdout, stderr } =
        train_ok(&run, &["--config", arg(&config), "--minutes", "0.25"]);
    assert!(stderr.contains("reanalyse thread"), "{stderr}");
    assert!(
        stdout.contains(" reanalysed by this process"),
        "the summary counts the reanalysed games"
    );

    let shards = replay::LocalDirStore::open(run.join("shards")).unwrap();
    // Self-play's games by their moves: on this tiny board two games can be the same one.
    let mut played: std::collections::HashMap<Vec<u32>, Vec<replay::GameRecord>> =
        std::collections::HashMap::new();
    let mut reanalysed = Vec::new();
    let moves = |record: &replay::GameRecord| -> Vec<u32> {
        record.moves.iter().map(|m| m.action).collect()
    };
    for name in shards.list().unwrap() {
        let shard = shards.read_shard(&name).unwrap();
        match name.worker {
            0 => {
                for record in shard.records {
                    played.entry(moves(&record)).or_default().push(record);
                }
            }
            1_000_000 => reanalysed.extend(shard.records),
            other => panic!("a shard of writer {other}"),
        }
    }
    assert!(!reanalysed.is_empty(), "no reanalysed game: {stderr}");
    let mut new_targets = false;
    for fresh in &reanalysed {
        let originals = played
            .get(&moves(fresh))
            .expect("a reanalysed game is a game self-play played");
        let original = originals
            .iter()
            .filter(|original| original.outcome == fresh.outcome)
            .min_by_key(|original| original.generation)
            .expect("with its outcome");
        assert!(
            fresh.generation > original.generation,
            "searched again by a newer generation ({} after {})",
            fresh.generation,
            original.generation
        );
        new_targets |= originals.iter().all(|original| {
            fresh
                .moves
                .iter()
                .zip(&original.moves)
                .any(|(new, old)| new.policy != old.policy)
        });
    }
    assert!(new_targets, "the new searches' targets are the ones stored");
    assert!(run.join("journal-reanalysed.bin").is_file());
}
