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
    dependencies_with(package, &[])
}

/// [`dependencies`], with cargo's feature flags `features` (`--no-default-features`).
fn dependencies_with(package: &str, features: &[&str]) -> BTreeSet<String> {
    let mut args = vec![
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
    ];
    args.extend_from_slice(features);
    cargo(&args)
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
    for package in [
        "mcts", "analysis", "selfplay", "replay", "rundir", "game", "onnx",
    ] {
        let linked: Vec<String> = dependencies(package)
            .into_iter()
            .filter(|name| name == "tch" || name == "torch-sys")
            .collect();
        assert!(linked.is_empty(), "{package} links {linked:?}");
    }
}

/// The crates that play, and the binary, link libtorch only with their `torch` feature, so that
/// `cargo build --release --no-default-features` gives a ghast without it (scripts/light-check.sh
/// builds and plays it).
#[test]
fn the_build_without_the_torch_feature_links_no_libtorch() {
    for package in ["ghast-cli", "nn", "play", "arena", "serve"] {
        let linked: Vec<String> = dependencies_with(package, &["--no-default-features"])
            .into_iter()
            .filter(|name| name == "tch" || name == "torch-sys")
            .collect();
        assert!(
            linked.is_empty(),
            "{package} without `torch` links {linked:?}"
        );
        let with_torch = dependencies(package);
        assert!(
            with_torch.contains("tch"),
            "{package} with `torch` should link tch"
        );
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

/// `text` without its `#[cfg(test)]` items (a test module, a helper method), which the scans
/// let name a game or step one: the code before, between and after them is scanned. An item
/// ends at its first `;` outside braces, or with the braces it opens.
fn production_code(text: &str) -> String {
    let mut code = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("#[cfg(test)]") {
        code.push_str(&rest[..start]);
        let item = &rest[start + "#[cfg(test)]".len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (index, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = index + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = index + 1;
                    break;
                }
                _ => {}
            }
        }
        // Keep the lines counted, so that a finding names its real line.
        code.extend(item[..end].matches('\n').map(|_| '\n'));
        rest = &item[end..];
    }
    code.push_str(rest);
    code
}

#[test]
fn production_code_keeps_what_follows_a_test_item() {
    let text = "a\n#[cfg(test)]\nfn len(&self) -> usize {\n    {1}\n}\nb\n#[cfg(test)]\nmod toy;\nc\n#[cfg(test)]\nmod tests {\n    x\n}\n";
    let code = production_code(text);
    assert_eq!(
        code.lines().collect::<Vec<_>>(),
        ["a", "", "", "", "", "b", "", "", "c", "", "", "", ""]
    );
    assert_eq!(code.lines().count(), text.lines().count());
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
        let code = production_code(&text);
        for game in &games {
            if code.contains(&format!("{game}::")) {
                naming.push(format!("{} names {game}", file.display()));
            }
        }
    }
    assert!(naming.is_empty(), "{naming:#?}");
}

/// One driver of a game: the crates that play games between sides (self-play, the arena, the
/// bots over GTP, the page) step them through `game::Referee` alone, whose `play_automatic`
/// plays chance, the opening and forced decisions, and which replays their history. None
/// applies an action to a position or draws chance's outcome itself.
#[test]
fn games_are_stepped_by_the_referee_alone() {
    let mut files = Vec::new();
    for package in ["selfplay", "arena", "play", "serve"] {
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
        let code = production_code(&text);
        for (number, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or_default();
            for call in stepping.iter().filter(|call| line.contains(*call)) {
                found.push(format!("{}:{}: {call}", file.display(), number + 1));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The top-level modules of the crate whose sources are in `src`, by name, with the text of
/// each (a module's folder included).
fn modules(src: &Path) -> Vec<(String, String)> {
    let mut modules = Vec::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if stem == "lib" || stem == "main" {
            continue;
        }
        let mut files = Vec::new();
        if path.is_dir() {
            sources(&path, &mut files);
            // A folder's `tests.rs` is its unit tests (`#[cfg(test)] mod tests;`).
            files.retain(|file| !file.ends_with("tests.rs"));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path.clone());
        }
        if files.is_empty() {
            continue;
        }
        let text: String = files
            .iter()
            .map(|file| production_code(&std::fs::read_to_string(file).unwrap()))
            .collect();
        modules.push((stem, text));
    }
    modules.sort();
    modules
}

/// The modules of each crate import one another one way only: no two (and no ring of them)
/// reach each other through `crate::` paths, so that each module can be read with only the
/// ones below it in mind.
#[test]
fn modules_of_a_crate_import_one_another_one_way() {
    let mut circles = Vec::new();
    for package in std::fs::read_dir(root().join("crates")).unwrap() {
        let src = package.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        let modules = modules(&src);
        let names: Vec<&str> = modules.iter().map(|(name, _)| name.as_str()).collect();
        // `uses[a]`: the modules that module `a` names as `crate::b`.
        let uses: Vec<Vec<usize>> = modules
            .iter()
            .map(|(name, text)| {
                (0..names.len())
                    .filter(|&b| {
                        names[b] != name
                            && (text.contains(&format!("crate::{}::", names[b]))
                                || text.contains(&format!("crate::{};", names[b]))
                                || text.contains(&format!("crate::{{{}", names[b]))
                                || text.contains(&format!("crate::{}}}", names[b])))
                    })
                    .collect()
            })
            .collect();
        // A module that reaches itself through the others is on a circle.
        for start in 0..names.len() {
            let mut seen = vec![false; names.len()];
            let mut stack = uses[start].clone();
            while let Some(module) = stack.pop() {
                if module == start {
                    circles.push(format!(
                        "{}: {} imports itself through others",
                        src.display(),
                        names[start]
                    ));
                    break;
                }
                if !std::mem::replace(&mut seen[module], true) {
                    stack.extend(&uses[module]);
                }
            }
        }
    }
    assert!(circles.is_empty(), "{circles:#?}");
}
