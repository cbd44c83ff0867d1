//! The ladder on a fake run with two tiny random checkpoints.

use arena::PlayerSpec;
use arena::ladder::{Ladder, LadderSettings};
use ghast::{Ghast, RawOptions};
use mcts::{Formula, SearchConfig};

#[path = "../../../tests/fixtures/tiny_run.rs"]
mod tiny_run;

#[test]
fn ladder_rates_generations_and_baselines_and_caches_results() {
    let run = tempfile::tempdir().unwrap();
    let options = RawOptions {
        size: 3,
        win_margin: 4,
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    tiny_run::write_tiny_run::<Ghast>(run.path(), &options, &[1, 2]);
    let settings = LadderSettings {
        games_per_pair: 2,
        baselines: vec![PlayerSpec::Random, PlayerSpec::Greedy],
        visits: 2,
        search: SearchConfig::play(),
        threads: 2,
        opening_moves: 1,
        seed: 1,
        every: 1,
    };
    let ladder = Ladder::new(run.path(), settings.clone());
    let mut games = 0;
    let report = ladder
        .run::<Ghast>(&mut |event| {
            if let arena::ladder::LadderEvent::Game(_) = event {
                games += 1;
            }
        })
        .unwrap();
    // gen1: random, greedy; gen2: gen1, random, greedy; greedy vs random.
    assert_eq!(report.played_pairs, 6);
    assert_eq!(games, 12);
    let names: Vec<&str> = report.ratings.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["gen-0001@2", "gen-0002@2", "random", "greedy"]);
    assert_eq!(report.anchor, "random");
    let random = &report.ratings[2];
    assert_eq!((random.elo, random.games), (0.0, 6));
    assert!(
        report
            .ratings
            .iter()
            .all(|r| r.lower <= r.elo && r.elo <= r.upper)
    );
    for file in [&report.plot.png, &report.plot.svg] {
        assert!(
            std::fs::metadata(file).unwrap().len() > 0,
            "{}",
            file.display()
        );
    }
    assert!(run.path().join("ladder/results.json").is_file());

    let again = ladder.run::<Ghast>(&mut |_| {}).unwrap();
    assert_eq!((again.played_pairs, again.cached_pairs), (0, 6));
    assert_eq!(again.ratings, report.ratings);

    let gumbel = Ladder::new(
        run.path(),
        LadderSettings {
            search: SearchConfig {
                formula: Formula::Gumbel,
                ..SearchConfig::play()
            },
            ..settings
        },
    );
    let refused = gumbel.run::<Ghast>(&mut |_| {}).unwrap_err().to_string();
    assert!(
        refused.contains("searched with other settings"),
        "{refused}"
    );
}

#[test]
fn ladder_can_rate_every_nth_generation_and_always_the_latest() {
    let run = tempfile::tempdir().unwrap();
    let options = RawOptions {
        size: 3,
        win_margin: 4,
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    tiny_run::write_tiny_run::<Ghast>(run.path(), &options, &[1, 2, 3]);
    let settings = LadderSettings {
        games_per_pair: 2,
        baselines: vec![PlayerSpec::Random],
        visits: 2,
        search: SearchConfig::play(),
        threads: 2,
        opening_moves: 1,
        seed: 1,
        every: 2,
    };
    let report = Ladder::new(run.path(), settings)
        .run::<Ghast>(&mut |_| {})
        .unwrap();
    let names: Vec<&str> = report.ratings.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["gen-0002@2", "gen-0003@2", "random"]);
}
