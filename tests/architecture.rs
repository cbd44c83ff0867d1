//! The invariants of ARCHITECTURE.md that can be checked, checked: which crate may depend on
//! which (over `cargo metadata` and `cargo tree`), and that outside its own crate only the
//! list of games (crates/games) names a game (over the sources).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cargo(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The workspace's packages.
fn workspace() -> BTreeSet<String> {
    let metadata: serde_json::Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]))
    .unwrap();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| package["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Every package `package` builds against (not its tests), transitively, itself included.
fn dependencies(package: &str) -> BTreeSet<String> {
    cargo(&[
        "tree",
        "-p",
        package,
        "-e",
        "normal",
        "--prefix",
        "none",
        "--offline",
        "-f",
        "{p}",
    ])
    .lines()
    .filter_map(|line| line.split_whitespace().next())
    .map(str::to_owned)
    .collect()
}

/// The crates of the games the one list names (`$crate::ghast::Ghast` is crate `ghast`).
fn game_crates() -> BTreeSet<String> {
    let list = std::fs::read_to_string(root().join("crates/games/src/lib.rs")).unwrap();
    let crates: BTreeSet<String> = list
        .lines()
        .filter_map(|line| line.trim().strip_prefix("$crate::"))
        .filter_map(|path| path.split("::").next())
        .map(str::to_owned)
        .collect();
    assert!(crates.len() >= 6, "{crates:?}");
    crates
}

#[test]
fn the_game_contract_depends_on_no_other_crate_of_ours() {
    let ours = workspace();
    let used: Vec<String> = dependencies("game")
        .into_iter()
        .filter(|name| ours.contains(name) && name != "game")
        .collect();
    assert!(used.is_empty(), "game depends on {used:?}");
}

#[test]
fn game_crates_depend_on_no_pipeline_crate() {
    let ours = workspace();
    let games = game_crates();
    // The lattice a game may be drawn on is shared by game crates, and is no pipeline.
    let allowed: BTreeSet<&str> = ["game", "hexgrid"].into();
    for game in &games {
        let used: Vec<String> = dependencies(game)
            .into_iter()
            .filter(|name| ours.contains(name) && name != game && !allowed.contains(name.as_str()))
            .collect();
        assert!(used.is_empty(), "game crate {game} depends on {used:?}");
    }
}

#[test]
fn search_and_analysis_know_nothing_of_tch() {
    for package in ["mcts", "analysis", "selfplay", "replay", "rundir", "game"] {
        let linked: Vec<String> = dependencies(package)
            .into_iter()
            .filter(|name| name == "tch" || name == "torch-sys")
            .collect();
        assert!(linked.is_empty(), "{package} links {linked:?}");
    }
}

#[test]
fn no_crate_but_the_binary_depends_on_a_game() {
    let games = game_crates();
    for package in workspace() {
        // The list of games, and the binary that plays them.
        if package == "ghast-cli" || package == "games" || games.contains(&package) {
            continue;
        }
        let named: Vec<String> = dependencies(&package)
            .into_iter()
            .filter(|name| games.contains(name))
            .collect();
        assert!(named.is_empty(), "{package} depends on the games {named:?}");
    }
}

/// The Rust files under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn outside_its_crate_only_the_list_of_games_names_a_game() {
    let games = game_crates();
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    for package in std::fs::read_dir(root().join("crates")).unwrap() {
        let dir = package.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if !games.contains(&name) {
            sources(&dir.join("src"), &mut files);
        }
    }
    // The one list of the games; and the random GTP engine, the arena tests' opponent, a
    // test helper that plays Ghast.
    let exempt = [
        root().join("crates/games/src/lib.rs"),
        root().join("src/bin/ghast_random_gtp.rs"),
    ];
    let mut naming = Vec::new();
    for file in files.iter().filter(|file| !exempt.contains(file)) {
        let text = std::fs::read_to_string(file).unwrap();
        // Unit tests may take a game as their subject.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for game in &games {
            if code.contains(&format!("{game}::")) {
                naming.push(format!("{} names {game}", file.display()));
            }
        }
    }
    assert!(naming.is_empty(), "{naming:#?}");
}

/// One driver of a game: the crates that play games between sides (self-play, the arena, the
/// bots) step them through `game::Referee` alone, whose `play_automatic` plays chance, the
/// opening and forced decisions. None applies an action to a position or draws chance's
/// outcome itself.
#[test]
fn games_are_stepped_by_the_referee_alone() {
    let mut files = Vec::new();
    for package in ["selfplay", "arena", "play"] {
        sources(&root().join("crates").join(package).join("src"), &mut files);
    }
    let stepping = [
        ".apply(",
        "chance_outcomes(",
        "draw_outcome(",
        "draw_chance(",
    ];
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (number, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or_default();
            for call in stepping.iter().filter(|call| line.contains(*call)) {
                found.push(format!("{}:{}: {call}", file.display(), number + 1));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
