//! A bot bundle folder (exported from a tiny checkpoint) plays a match with a visits override.

use arena::{Match, MatchSettings, PlayerSpec};
use ghast::{Ghast, RawOptions};

#[path = "../../../tests/fixtures/tiny_run.rs"]
mod tiny_run;

#[test]
fn a_bundle_plays_with_its_visits_overridden() {
    let run = tempfile::tempdir().unwrap();
    let options = RawOptions {
        size: 3,
        win_margin: 4,
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    tiny_run::write_tiny_run::<Ghast>(run.path(), &options, &[1]);
    let bundle_dir = run.path().join("bot");
    play::Bundle::<ghast::Ghast>::export(
        &run.path().join("models/gen-0001.safetensors"),
        &bundle_dir,
        50,
    )
    .unwrap();
    let bot: PlayerSpec = format!("{}@2", bundle_dir.display()).parse().unwrap();
    assert_eq!(bot.name(), "bot@2");
    let settings = MatchSettings {
        games: 2,
        threads: 1,
        opening_moves: 1,
        sprt: None,
        seed: 0,
    };
    let result = Match::<Ghast> {
        options,
        a: &bot,
        b: &PlayerSpec::Random,
        settings,
    }
    .run(&mut |_| {})
    .unwrap();
    assert_eq!(result.wdl.games(), 2);
    assert!(result.games.iter().all(|g| g.ending.forfeit.is_none()));
}
