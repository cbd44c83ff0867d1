//! The games this build plays, each listed once in [`registry!`]: the one file outside a
//! game's own crate that names it. A command finds a game here by name and runs generic work
//! for it ([`for_game`]); its options come from rules, `key = value`, whatever the game
//! ([`GameArgs`], [`game::rules`]).

use crate::InputError;
use clap::Args as ClapArgs;
use game::rules::{self, Rule};
use game::{BoardView, BoardViewWork, Game, GtpGame, GtpWork, Planes};
use std::ffi::OsString;

/// Work generic over the game, run by [`for_game`] for the game a file or flag names. A game
/// needs only its rules and planes to train, rate and export; work that needs more asks for
/// it ([`Game::with_gtp`], [`Game::with_board_view`]).
pub trait GameWork {
    type Output;

    fn run<G: Planes>(self) -> anyhow::Result<Self::Output>;
}

/// Declares the games: the first is the default of a command given none and of a config
/// without `[game] name`.
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

registry! {
    ghast::Ghast,
    ghast::Fakerghast,
    ghodak::Ghodak,
    pig::Pig,
    vastuz::Vastuz,
    qast::Qast,
    ghostchess::GhostChess,
}

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
pub fn config_game(text: &str) -> Result<String, String> {
    Ok(train::game_name(text)?.unwrap_or_else(|| DEFAULT_GAME.to_owned()))
}

/// One game as `ghast games` lists it.
#[derive(Debug, serde::Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    pub about: &'static str,
    pub rules: Vec<RuleInfo>,
    /// What the game can do besides training and rating: `gtp`, `page`, `chance`,
    /// `hidden-information`.
    pub capabilities: Vec<&'static str>,
    /// The opponents `ghast ladder` rates against by default, weakest first.
    pub ladder_baselines: &'static [&'static str],
}

/// One rule of a game: its key, its default (`None` where it is derived from others, such
/// as a move limit from the board size) and what it means.
#[derive(Debug, serde::Serialize)]
pub struct RuleInfo {
    pub key: &'static str,
    pub default: Option<String>,
    pub help: &'static str,
}

impl GameInfo {
    fn of<G: Planes>() -> GameInfo {
        let defaults = rules::table_of(&G::Options::default());
        let rules = rules::keys_of::<G::Options>()
            .iter()
            .map(|&key| RuleInfo {
                key,
                default: defaults.get(key).map(rules::value_text),
                help: G::OPTION_HELP
                    .iter()
                    .find(|(documented, _)| *documented == key)
                    .map_or("", |(_, help)| help),
            })
            .collect();
        let capabilities = [
            ("gtp", G::with_gtp(Probe).is_some()),
            ("page", G::with_board_view(Probe).is_some()),
            ("chance", G::CHANCE),
            ("hidden-information", G::HIDDEN_INFORMATION),
        ]
        .into_iter()
        .filter_map(|(name, has)| has.then_some(name))
        .collect();
        GameInfo {
            name: G::NAME,
            about: G::ABOUT,
            rules,
            capabilities,
            ladder_baselines: G::LADDER_BASELINES,
        }
    }
}

/// Work that only finds out whether a game has a capability.
struct Probe;

impl<G: Game> GtpWork<G> for Probe {
    type Output = ();

    fn run(self)
    where
        G: GtpGame,
    {
    }
}

impl<G: Game> BoardViewWork<G> for Probe {
    type Output = ();

    fn run(self)
    where
        G: BoardView,
    {
    }
}

/// The game and its rules on the command line, for every command that starts games.
#[derive(ClapArgs, Debug, Default)]
pub struct GameArgs {
    /// The game (`ghast games` lists them) [default: a bot's game; else the one game that has
    /// every rule given; else ghast].
    #[arg(long, value_name = "NAME")]
    game: Option<String>,
    #[command(flatten)]
    rules: RuleArgs,
}

/// Rules on the command line, for a game chosen elsewhere (a config's) or by `--game`.
#[derive(ClapArgs, Debug, Default)]
pub struct RuleArgs {
    /// A rule of the game as KEY=VALUE, such as size=9, komi=7.5 or vetoes=1,2 (repeatable;
    /// a bot's or a config's rules stay unless changed). Every rule is a flag of its own as
    /// well: `--size 9` is `--rule size=9`. `ghast games` lists each game's rules.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
}

fn input_error(message: String) -> anyhow::Error {
    anyhow::Error::new(InputError(message))
}

impl RuleArgs {
    /// The rules given, in order; a malformed one is an [`InputError`].
    fn parsed(&self) -> anyhow::Result<Vec<Rule>> {
        self.rules
            .iter()
            .map(|text| Rule::parse(text).map_err(|why| input_error(format!("--rule {why}"))))
            .collect()
    }

    /// `base` (a bot's or config's options, or the game's defaults without one) with the
    /// rules given; an unknown key or a bad value is an [`InputError`] naming it.
    pub fn options<G: Game>(&self, base: Option<&G::Options>) -> anyhow::Result<G::Options> {
        let rules = self.parsed()?;
        let keys = rules::keys_of::<G::Options>();
        if let Some(unknown) = rules.iter().find(|rule| !keys.contains(&rule.key.as_str())) {
            return Err(input_error(format!(
                "{} has no rule `{}`; its rules are {} (`ghast games` says what each means)",
                G::NAME,
                unknown.key,
                keys.join(", ")
            )));
        }
        let default = G::Options::default();
        rules::with_rules(base.unwrap_or(&default), &rules)
            .map_err(|why| input_error(format!("{why} (rules of {})", G::NAME)))
    }
}

impl GameArgs {
    /// The game `--game` names, if it was given.
    pub fn named(&self) -> Option<&str> {
        self.game.as_deref()
    }

    /// The game these flags choose when no bot chooses it: `--game`, else the default game if
    /// it has every rule given, else the one game that has them all.
    pub fn game_name(&self) -> anyhow::Result<String> {
        if let Some(name) = &self.game {
            return Ok(name.clone());
        }
        let rules = self.rules.parsed()?;
        let fits = |info: &GameInfo| {
            rules
                .iter()
                .all(|rule| info.rules.iter().any(|known| known.key == rule.key))
        };
        let games = catalogue();
        let fitting: Vec<&str> = games
            .iter()
            .filter(|info| fits(info))
            .map(|info| info.name)
            .collect();
        let keys = || {
            rules
                .iter()
                .map(|rule| rule.key.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match fitting.as_slice() {
            _ if fitting.contains(&DEFAULT_GAME) => Ok(DEFAULT_GAME.to_owned()),
            [only] => Ok((*only).to_owned()),
            [] => Err(input_error(format!(
                "no game has all the rules given ({}); `ghast games` lists each game's rules",
                keys()
            ))),
            several => Err(input_error(format!(
                "the rules given ({}) fit {}: choose one with --game",
                keys(),
                several.join(" and ")
            ))),
        }
    }

    /// Runs `work` for the game these flags choose ([`GameArgs::game_name`]).
    pub fn run<W: GameWork>(&self, work: W) -> anyhow::Result<W::Output> {
        for_game(&self.game_name()?, "the command line", "--game", work)
    }

    /// `base` (a bot's options, or the game's defaults without one) with the rules given
    /// ([`RuleArgs::options`]).
    pub fn options<G: Game>(&self, base: Option<&G::Options>) -> anyhow::Result<G::Options> {
        self.rules.options::<G>(base)
    }
}

/// The flags that set up games of `G` with `options`: `--game NAME`, then every rule whose
/// value differs from the game's default, as a flag of its own (`--size 4`), or as `--rule`
/// for a value that is a table. What a record's replay command line needs.
pub fn flags_of<G: Game>(options: &G::Options) -> Vec<String> {
    let defaults = rules::table_of(&G::Options::default());
    let mut flags = vec!["--game".to_owned(), G::NAME.to_owned()];
    for (key, value) in rules::table_of(options) {
        if defaults.get(&key) == Some(&value) {
            continue;
        }
        if value.is_table() {
            flags.push("--rule".to_owned());
            flags.push(format!("{key}={value}"));
        } else {
            flags.push(format!("--{}", key.replace('_', "-")));
            flags.push(rules::value_text(&value));
        }
    }
    flags
}

/// Rewrites every rule given as a flag of its own (`--size 9`, `--win-margin=5`) as `--rule
/// size=9`, for the commands that take rules, so that clap needs to know no game's rules. A
/// flag the command has itself is left alone, and so is everything after `--`.
pub fn expand_rule_flags(args: Vec<OsString>, command: &clap::Command) -> Vec<OsString> {
    let Some(subcommand) = find_subcommand(&args, command) else {
        return args;
    };
    if !subcommand
        .get_arguments()
        .any(|arg| arg.get_long() == Some("rule"))
    {
        return args;
    }
    let own_flags: Vec<&str> = subcommand
        .get_arguments()
        .filter_map(|arg| arg.get_long())
        .collect();
    let rule_keys: Vec<&str> = catalogue()
        .iter()
        .flat_map(|info| info.rules.iter().map(|rule| rule.key))
        .collect();
    let mut expanded = Vec::with_capacity(args.len());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str() else {
            expanded.push(arg);
            continue;
        };
        if text == "--" {
            expanded.push(arg);
            expanded.extend(args.by_ref());
            break;
        }
        let Some(flag) = text.strip_prefix("--") else {
            expanded.push(arg);
            continue;
        };
        let (name, inline_value) = match flag.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (flag, None),
        };
        let key = name.replace('-', "_");
        if own_flags.contains(&name) || !rule_keys.contains(&key.as_str()) {
            expanded.push(arg);
            continue;
        }
        let value = match inline_value {
            Some(value) => value,
            None => match args.next() {
                Some(value) => value.to_string_lossy().into_owned(),
                // Left for clap to report as a flag without its value.
                None => {
                    expanded.push(arg);
                    continue;
                }
            },
        };
        expanded.push("--rule".into());
        expanded.push(format!("{key}={value}").into());
    }
    expanded
}

/// The (sub)subcommand the words name: `ghast bench rules ...` is `rules` under `bench`.
fn find_subcommand<'c>(args: &[OsString], command: &'c clap::Command) -> Option<&'c clap::Command> {
    let mut current = command;
    let mut found = None;
    for word in args.iter().skip(1).filter_map(|arg| arg.to_str()) {
        if word.starts_with('-') {
            continue;
        }
        match current.find_subcommand(word) {
            Some(sub) => {
                current = sub;
                found = Some(sub);
            }
            None => break,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<OsString> {
        text.split_whitespace().map(OsString::from).collect()
    }

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
            let specs: Vec<arena::PlayerSpec> = info
                .ladder_baselines
                .iter()
                .map(|spec| {
                    spec.parse()
                        .unwrap_or_else(|e| panic!("{}: {e}", info.name))
                })
                .collect();
            assert!(specs.len() >= 2, "{}: {specs:?}", info.name);
            for (index, spec) in specs.iter().enumerate() {
                assert!(
                    !specs[..index].contains(spec),
                    "{}: {spec} twice",
                    info.name
                );
            }
        }
    }

    /// A game may draw a random playout's actions without listing them
    /// ([`Game::random_legal_action`]); whatever it does, it must draw what a uniform pick from
    /// its listed legal actions draws with the same generator.
    #[test]
    fn every_games_random_action_is_the_listed_one_a_uniform_pick_draws() {
        struct Check;
        impl GameWork for Check {
            type Output = usize;

            fn run<G: Planes>(self) -> anyhow::Result<usize> {
                use rand::{Rng, SeedableRng};
                let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
                let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
                let mut decisions = 0;
                for _ in 0..20 {
                    let mut game = G::new(&G::Options::default());
                    while game.outcome().is_none() {
                        let action = if game.is_chance() {
                            game::draw_outcome(&game, rng.random(), &mut outcomes)
                        } else {
                            game.legal_actions(&mut legal);
                            let listed = legal[game::uniform_pick(&mut rng.clone(), legal.len())];
                            let drawn = game.random_legal_action(&mut rng, &mut Vec::new());
                            assert_eq!(drawn, listed, "{}: {}", G::NAME, game.position_text());
                            decisions += 1;
                            drawn
                        };
                        game.apply(action);
                    }
                }
                Ok(decisions)
            }
        }
        for name in NAMES {
            let decisions = dispatch(name, Check).unwrap().unwrap();
            assert!(decisions >= 20, "{name}: {decisions} decisions");
        }
    }

    #[test]
    fn rule_flags_become_rules_only_where_a_command_takes_rules() {
        use clap::CommandFactory;
        let command = crate::Cli::command();
        let expanded = expand_rule_flags(
            words("ghast replay --game ghodak --size 9 --komi=6.5 --max-moves 40"),
            &command,
        );
        assert_eq!(
            expanded,
            words("ghast replay --game ghodak --rule size=9 --rule komi=6.5 --rule max_moves=40")
        );
        let untouched = words("ghast gtp --bot b --size 9");
        assert_eq!(expand_rule_flags(untouched.clone(), &command), untouched);
        let own = words("ghast arena random greedy --games 2 --seed 3 --size 4");
        assert_eq!(
            expand_rule_flags(own, &command),
            words("ghast arena random greedy --games 2 --seed 3 --rule size=4")
        );
    }

    /// No rule of any game may be taken for a command's own flag, nor shadow one.
    #[test]
    fn no_rule_is_named_like_a_flag_of_a_command_that_takes_rules() {
        use clap::CommandFactory;
        let command = crate::Cli::command();
        let keys: Vec<String> = catalogue()
            .iter()
            .flat_map(|info| info.rules.iter().map(|rule| rule.key.replace('_', "-")))
            .collect();
        let mut commands = vec![&command];
        let mut index = 0;
        while let Some(current) = commands.get(index).copied() {
            commands.extend(current.get_subcommands());
            index += 1;
            if !current
                .get_arguments()
                .any(|a| a.get_long() == Some("rule"))
            {
                continue;
            }
            for arg in current.get_arguments().filter_map(|a| a.get_long()) {
                assert!(
                    !keys.iter().any(|key| key == arg),
                    "`ghast {}` has a flag --{arg}, and a game a rule of that name",
                    current.get_name()
                );
            }
        }
    }

    #[test]
    fn the_game_is_the_one_that_has_every_rule_given() {
        let args = |rules: &[&str]| GameArgs {
            game: None,
            rules: RuleArgs {
                rules: rules.iter().map(|r| r.to_string()).collect(),
            },
        };
        assert_eq!(args(&[]).game_name().unwrap(), "ghast");
        assert_eq!(args(&["size=4"]).game_name().unwrap(), "ghast");
        assert_eq!(args(&["fakerghast=1"]).game_name().unwrap(), "fakerghast");
        assert_eq!(
            args(&["komi=6.5", "max_moves=40"]).game_name().unwrap(),
            "ghodak"
        );
        let two = args(&["max_moves=40"]).game_name().unwrap_err();
        assert!(
            two.to_string().contains("fit ghodak and ghostchess"),
            "{two}"
        );
        assert_eq!(args(&["target=20"]).game_name().unwrap(), "pig");
        let none = args(&["target=20", "size=9"]).game_name().unwrap_err();
        assert!(none.to_string().contains("no game has"), "{none}");
    }

    #[test]
    fn options_refuse_a_rule_the_game_lacks_listing_its_rules() {
        let args = RuleArgs {
            rules: vec!["vetoes=1,1".into()],
        };
        let error = args
            .options::<ghodak::Ghodak>(None)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "ghodak has no rule `vetoes`; its rules are size, komi, max_moves (`ghast games` \
             says what each means)"
        );
        let ghast = args.options::<ghast::Ghast>(None).unwrap();
        assert_eq!(ghast.vetoes(), [1, 1]);
    }

    #[test]
    fn flags_of_options_replay_them() {
        let args = RuleArgs {
            rules: vec!["size=4".into(), "win_margin=5".into(), "vetoes=0,2".into()],
        };
        let options = args.options::<ghast::Ghast>(None).unwrap();
        let flags = flags_of::<ghast::Ghast>(&options);
        assert_eq!(
            flags,
            [
                "--game",
                "ghast",
                "--size",
                "4",
                "--win-margin",
                "5",
                "--vetoes",
                "0,2"
            ]
        );
    }

    /// Every run configuration shipped in configs/ reads and validates as the game it names,
    /// so that a config only a GPU run would load cannot rot unnoticed on machines without one.
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
