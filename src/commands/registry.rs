//! The games this build plays, from the one list of them (`games::with_every_game!`), made
//! into what the commands need. A command finds a game here by name and runs generic work
//! for it ([`for_game`]). What `ghast games` shows of each is in `catalogue.rs`; the rules on
//! the command line are read in `rule_args.rs`.

use super::catalogue::GameInfo;
use crate::InputError;
use game::{Game, Planes};

/// Work generic over the game, run by [`for_game`] for the game a file or flag names. A game
/// needs only its rules and planes to train, rate and export; work that needs more asks for
/// it ([`Game::with_gtp`], [`Game::with_board_view`]).
pub trait GameWork {
    type Output;

    fn run<G: Planes>(self) -> anyhow::Result<Self::Output>;
}

/// Makes the registry of the games `games::with_every_game!` lists: the first is the default
/// of a command given none and of a config without `[game] name`.
macro_rules! registry {
    ($default:ty $(, $game:ty)* $(,)?) => {
        /// The game of a command given none, and of a config without `[game] name`.
        pub const DEFAULT_GAME: &str = <$default as Game>::NAME;

        /// Every game's name, in the registry's order.
        pub const NAMES: &[&str] = &[<$default as Game>::NAME $(, <$game as Game>::NAME)*];

        /// Runs `work` for the game called `name`; `None` for a name no game has.
        fn dispatch<W: GameWork>(name: &str, work: W) -> Option<anyhow::Result<W::Output>> {
            if name == <$default as Game>::NAME {
                return Some(work.run::<$default>());
            }
            $(
                if name == <$game as Game>::NAME {
                    return Some(work.run::<$game>());
                }
            )*
            None
        }

        /// What `ghast games` shows of every game.
        pub fn catalogue() -> Vec<GameInfo> {
            vec![GameInfo::of::<$default>() $(, GameInfo::of::<$game>())*]
        }
    };
}

games::with_every_game!(registry);

/// Runs `work` for the game called `name`. A name no game has is an [`InputError`] naming
/// `source` (`config PATH`, `bot PATH`), the `field` that gave the name, and the games there
/// are.
pub fn for_game<W: GameWork>(
    name: &str,
    source: &str,
    field: &str,
    work: W,
) -> anyhow::Result<W::Output> {
    dispatch(name, work).unwrap_or_else(|| {
        Err(InputError(format!(
            "{source}: {field} `{name}` is not a game this build plays ({})",
            NAMES.join(", ")
        ))
        .into())
    })
}

/// The game a run configuration's text is for: its `[game] name`, or the default game.
#[cfg(feature = "torch")]
pub fn config_game(text: &str) -> Result<String, String> {
    Ok(train::game_name(text)?.unwrap_or_else(|| DEFAULT_GAME.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_documents_exactly_its_rules() {
        for info in catalogue() {
            for rule in &info.rules {
                assert!(
                    !rule.help.is_empty(),
                    "{}: rule `{}` has no help",
                    info.name,
                    rule.key
                );
            }
            assert!(
                !info.about.is_empty(),
                "{} says nothing of itself",
                info.name
            );
        }
        for (name, help) in [
            (ghast::Ghast::NAME, ghast::Ghast::OPTION_HELP),
            (ghodak::Ghodak::NAME, ghodak::Ghodak::OPTION_HELP),
            (ghast::Fakerghast::NAME, ghast::Fakerghast::OPTION_HELP),
            (pig::Pig::NAME, pig::Pig::OPTION_HELP),
        ] {
            let info = catalogue()
                .into_iter()
                .find(|info| info.name == name)
                .unwrap();
            let keys: Vec<&str> = info.rules.iter().map(|rule| rule.key).collect();
            let documented: Vec<&str> = help.iter().map(|(key, _)| *key).collect();
            assert_eq!(keys, documented, "{name}");
        }
    }

    /// `ghast ladder` parses a game's baselines only when the user gives none: a typo there
    /// would surface only then.

    #[test]
    fn every_game_rates_against_player_specs_each_listed_once() {
        for info in catalogue() {
            for list in [info.ladder_baselines, info.level_anchors] {
                let specs: Vec<arena::PlayerSpec> = list
                    .iter()
                    .map(|spec| {
                        spec.parse()
                            .unwrap_or_else(|e| panic!("{}: {e}", info.name))
                    })
                    .collect();
                assert!(specs.len() >= 2, "{}: {specs:?}", info.name);
                for (index, spec) in specs.iter().enumerate() {
                    assert!(
                        !specs[..index].iter().any(|s| s.name() == spec.name()),
                        "{}: {} twice (players are told apart by name)",
                        info.name,
                        spec.name()
                    );
                }
            }
        }
    }

    /// Every run configuration shipped in configs/ reads and validates as the game it names,
    /// so that a config only a GPU run would load cannot rot unnoticed on machines without one.
    #[cfg(feature = "torch")]
    #[test]
    fn every_shipped_config_reads_as_the_game_it_names() {
        struct Check<'a>(&'a str);
        impl GameWork for Check<'_> {
            type Output = ();
            fn run<G: Planes>(self) -> anyhow::Result<()> {
                train::RunConfig::<G::Options>::parse(self.0).map_err(anyhow::Error::msg)?;
                Ok(())
            }
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
        let mut games = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let game = config_game(&text).unwrap();
            let source = path.display().to_string();
            if let Err(error) = for_game(&game, &source, "[game] name", Check(&text)) {
                panic!("{source}: {error:#}");
            }
            games.push(game);
        }
        for name in NAMES {
            assert!(
                games.iter().any(|game| game == name),
                "no config plays {name}"
            );
        }
    }
}
