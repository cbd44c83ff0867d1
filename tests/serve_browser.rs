//! `ghast serve` end to end in a real browser: the binary serves a tiny random network, and
//! headless Chromium (driven by playwright-core, tests/browser/play.mjs for Ghast,
//! play-go.mjs for Ghodak, play-fakerghast.mjs for Fakerghast, play-vastuz.mjs for Vastuz and
//! play-qast.mjs for Qast) plays moves by clicking and checks the page against the API. The
//! Ghast bot is a bundle with levels of play, which the page offers in a menu.
//!
//! Needs `scripts/setup-browser.sh` (Chromium and playwright-core). Set `GHAST_SCREENSHOT`
//! (Ghast), `GHODAK_SCREENSHOT`, `VASTUZ_SCREENSHOT` or `QAST_SCREENSHOT` to a path to keep
//! the screenshot (docs/serve.png, docs/serve-ghodak.png, docs/serve-vastuz.png and
//! docs/serve-qast.png are made this way).

mod common;

use game::Planes;
use ghast::{Ghast, GhastOptions};
use ghodak::Ghodak;
use nn::checkpoint::{self, Provenance};
use nn::{NetConfig, Network, Preset};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const SERVER_START: Duration = Duration::from_secs(60);
const BROWSER_RUN: Duration = Duration::from_secs(120);

/// A child process that is killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// A tiny network of game `G` with random weights, as a checkpoint file; returns its path.
fn write_random_bot<G: Planes>(dir: &Path, options: G::Options) -> PathBuf {
    let start = G::new(&options);
    let network = Network::new(
        NetConfig::preset(
            Preset::Tiny,
            start.plane_shape().channels,
            start.policy_layout(),
        ),
        tch::Device::Cpu,
    );
    // Fixed weights, so the bot's replies (and so the games the scripts play) are the same on
    // every run. Drawn here rather than by libtorch's generator, which is global: the tests
    // of this file run at once, and one that makes a network between a seed and its use
    // would change the weights.
    let mut rng = StdRng::seed_from_u64(2);
    tch::no_grad(|| {
        for mut variable in network.var_store().trainable_variables() {
            let values: Vec<f32> = (0..variable.numel())
                .map(|_| rng.random_range(-0.3..0.3))
                .collect();
            variable.copy_(&tch::Tensor::from_slice(&values).view(variable.size().as_slice()));
        }
    });
    let provenance = Provenance {
        game: G::NAME.to_string(),
        game_options: options,
        generation: 0,
        training_step: 0,
        run_seconds: None,
    };
    let weights = dir.join("random.safetensors");
    checkpoint::save(&network, &provenance, &weights).expect("save the net");
    weights
}

/// Starts `ghast serve` on a free port of 127.0.0.1 and returns it with its address.
fn start_server(bot: &Path) -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ghast"))
        .args(["serve", "--port", "0", "--visits", "16", "--bot"])
        .arg(bot)
        // The CPU on every machine, so the test runs the same with or without a GPU.
        .env("CUDA_VISIBLE_DEVICES", "")
        .stdout(Stdio::piped())
        .spawn()
        .expect("start ghast serve");
    let stdout = child.stdout.take().unwrap();
    let server = Killed(child);
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    let line = receive
        .recv_timeout(SERVER_START)
        .expect("ghast serve prints its address");
    let url = line
        .split_once("listening on ")
        .map(|(_, url)| url.to_string())
        .unwrap_or_else(|| panic!("unexpected first line: {line}"));
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    (server, url)
}

/// The checkpoint `weights` exported as a bundle with two rated levels of play, as
/// `ghast ladder --bot DIR --levels` writes them, for the page's level menu.
fn bundle_with_levels(weights: &Path) -> PathBuf {
    let bundle = common::export_bundle(weights, &weights.with_file_name("bot"), 16);
    let levels = "
[[levels]]
visits = 1
temperature = 1.0
random_moves = 0.5

[levels.rating]
elo = 120.0
low = 60.0
high = 180.0
zero = \"random\"
anchors = [\"random\", \"greedy\"]
games = 80

[[levels]]
visits = 16

[levels.rating]
elo = 480.0
low = 400.0
high = 560.0
zero = \"random\"
anchors = [\"greedy\", \"uct:100\"]
games = 80
";
    let file = bundle.join("bot.toml");
    let settings = std::fs::read_to_string(&file).unwrap() + levels;
    std::fs::write(&file, settings).unwrap();
    bundle
}

#[test]
fn a_person_can_play_against_the_bot_in_a_browser() {
    let temp = tempfile::tempdir().unwrap();
    let weights = write_random_bot::<Ghast>(temp.path(), GhastOptions::default());
    play_in_browser(
        &bundle_with_levels(&weights),
        "play.mjs",
        "GHAST_SCREENSHOT",
    );
}

#[test]
fn a_person_can_play_ghodak_on_a_go_board_in_a_browser() {
    let temp = tempfile::tempdir().unwrap();
    let options = ghodak::RawOptions::default().validate().unwrap();
    let bot = write_random_bot::<Ghodak>(temp.path(), options);
    play_in_browser(&bot, "play-go.mjs", "GHODAK_SCREENSHOT");
}

#[test]
fn a_person_can_play_fakerghast_with_face_down_tiles_in_a_browser() {
    let temp = tempfile::tempdir().unwrap();
    let options = ghast::RawFakerghastOptions {
        size: 4,
        win_margin: 6,
        fakerghast: Some(1),
        ..ghast::RawFakerghastOptions::default()
    }
    .validate()
    .unwrap();
    let bot = write_random_bot::<ghast::Fakerghast>(temp.path(), options);
    play_in_browser(&bot, "play-fakerghast.mjs", "FAKERGHAST_SCREENSHOT");
}

#[test]
fn a_person_can_play_a_whole_vastuz_game_with_its_steals_in_a_browser() {
    let temp = tempfile::tempdir().unwrap();
    let options = vastuz::RawOptions { size: 4, pie: 1 }.validate().unwrap();
    let bot = write_random_bot::<vastuz::Vastuz>(temp.path(), options);
    let out = play_in_browser(&bot, "play-vastuz.mjs", "VASTUZ_SCREENSHOT");
    let moves = replays_as_the_page_ended(&out, &["--game", "vastuz", "--size", "4", "--pie", "1"]);
    assert!(
        moves.iter().any(|m| m.contains('+')),
        "a turn with a steal: {moves:?}"
    );
}

/// A whole game of three rounds: the set-up, three rolls with their sticks and moves, the end
/// placements, and the count at the limit.
#[test]
fn a_person_can_play_a_short_qast_game_with_its_rolls_in_a_browser() {
    let temp = tempfile::tempdir().unwrap();
    let options = qast::RawOptions {
        max_rounds: 3,
        ..Default::default()
    }
    .validate()
    .unwrap();
    let bot = write_random_bot::<qast::Qast>(temp.path(), options);
    let out = play_in_browser(&bot, "play-qast.mjs", "QAST_SCREENSHOT");
    let moves = replays_as_the_page_ended(&out, &["--game", "qast", "--max-rounds", "3"]);
    assert_eq!(
        moves.iter().filter(|m| m.starts_with('r')).count(),
        3,
        "three rolls: {moves:?}"
    );
}

/// Ghost Chess as either side: as White an Assault and a short game, then a new game as
/// Black, replayed through `ghast replay`.
#[test]
fn a_person_can_play_ghostchess_as_either_side_in_a_browser() {
    let temp = tempfile::tempdir().unwrap();
    let options = ghostchess::RawOptions { max_moves: 14 }.validate().unwrap();
    let bot = write_random_bot::<ghostchess::GhostChess>(temp.path(), options);
    let out = play_in_browser(&bot, "play-ghostchess.mjs", "GHOSTCHESS_SCREENSHOT");
    replays_as_the_page_ended(&out, &["--game", "ghostchess", "--max-moves", "14"]);
}

/// Replays the moves of the game the page played (its `game.json`) through `ghast replay`
/// with `rules`, by the rules on their own, and checks that they end in the page's final
/// position and result. Returns the moves.
fn replays_as_the_page_ended(out: &tempfile::TempDir, rules: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(out.path().join("game.json")).expect("the page's game");
    let game: serde_json::Value = serde_json::from_str(&text).unwrap();
    let moves: Vec<String> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    let mut args = vec!["replay"];
    args.extend_from_slice(rules);
    let output = common::ghast(&args, &moves.join("\n"));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = printed.lines().collect();
    let result = lines
        .last()
        .unwrap()
        .strip_prefix("result ")
        .expect("the game ended");
    assert_eq!(result, game["result"].as_str().unwrap());
    let position = lines[lines.len() - 2].split_once(' ').unwrap().1;
    assert_eq!(position, game["position"].as_str().unwrap());
    moves
}

/// Serves `bot` and runs the browser script `script` against it; the screenshot is copied to
/// the path in the environment variable `keep`, if it is set. Returns the folder the script
/// wrote its screenshot (and anything else) to.
fn play_in_browser(bot: &Path, script: &str, keep: &str) -> tempfile::TempDir {
    let browser = browser_dir();
    assert!(
        Path::new(CHROMIUM).exists() && browser.join("node_modules/playwright-core").exists(),
        "Chromium or playwright-core is missing: run scripts/setup-browser.sh"
    );
    let (_server, url) = start_server(bot);
    let temp = tempfile::tempdir().unwrap();
    let screenshot = temp.path().join("serve.png");
    let mut node = Killed(
        Command::new("node")
            .arg(browser.join(script))
            .arg(&url)
            .arg(&screenshot)
            .spawn()
            .expect("start node"),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = node.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < BROWSER_RUN,
            "the browser run took over {BROWSER_RUN:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "the browser run failed: {status}");
    assert!(
        std::fs::metadata(&screenshot).unwrap().len() > 10_000,
        "an empty screenshot"
    );
    if let Some(path) = std::env::var_os(keep) {
        std::fs::copy(&screenshot, path).expect("copy the screenshot");
    }
    temp
}
