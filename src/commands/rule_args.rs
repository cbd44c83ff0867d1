//! The game and its rules on the command line (`--game NAME`, `--rule KEY=VALUE`, or a rule
//! as a flag of its own, `--size 9`), for every command that starts games; and the flags that
//! give a game's rules back (a record's replay command line).

use super::catalogue::GameInfo;
use super::registry::{DEFAULT_GAME, GameWork, catalogue, for_game};
use crate::InputError;
use clap::Args as ClapArgs;
use game::Game;
use game::rules::{self, Rule};
use std::ffi::OsString;

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
}
