//! A game's options as rules, `key = value`: one way for a config's `[game]` table, the
//! command line's `--rule key=value` (and its shortcuts such as `--size 9`), GTP's
//! `boardsize` and `komi`, and the page's board size to set them, whatever the game.
//!
//! Every game's options are a serde struct that refuses unknown keys and checks its values
//! when deserialised, so applying rules is: write the options out as a TOML table, set the
//! keys, read the table back. An unknown key or a bad value is the game's own error, naming
//! the key.

use serde::de::{self, DeserializeOwned, Visitor};
use serde::{Deserializer, Serialize};
use std::fmt;

/// One rule as a user wrote it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// The option's name, with `-` read as `_` (`win-margin` is `win_margin`).
    pub key: String,
    pub value: toml::Value,
}

impl Rule {
    /// A rule from its key and value as written on a command line ([`parse_value`]).
    pub fn new(key: &str, value: &str) -> Rule {
        Rule {
            key: key.trim().replace('-', "_"),
            value: parse_value(value),
        }
    }

    /// Parses `key=value`; the error says what was expected.
    pub fn parse(text: &str) -> Result<Rule, String> {
        match text.split_once('=') {
            Some((key, value)) if !key.trim().is_empty() => Ok(Rule::new(key, value)),
            _ => Err(format!(
                "`{text}` is not a rule: write KEY=VALUE, such as size=9 (`ghast games` lists \
                 each game's rules)"
            )),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, value_text(&self.value))
    }
}

/// A value as written on a command line: TOML (`9`, `7.5`, `true`, `[1, 2]`, `"text"`), a
/// comma-separated list (`1,2` is `[1, 2]`), or else plain text.
pub fn parse_value(text: &str) -> toml::Value {
    let text = text.trim();
    let toml_value = |text: &str| {
        format!("v = {text}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut table| table.remove("v"))
    };
    if let Some(value) = toml_value(text) {
        return value;
    }
    if text.contains(',')
        && let Some(items) = text
            .split(',')
            .map(|item| toml_value(item.trim()))
            .collect::<Option<Vec<_>>>()
    {
        return toml::Value::Array(items);
    }
    toml::Value::String(text.to_owned())
}

/// A value as the command line writes it back: arrays as `a,b`, strings bare, the rest as
/// TOML.
pub fn value_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(text) => text.clone(),
        toml::Value::Array(items) if items.iter().all(|item| !item.is_array()) => {
            items.iter().map(value_text).collect::<Vec<_>>().join(",")
        }
        other => other.to_string(),
    }
}

/// The options as a table of rules: every key whose value is set, in the options' order (an
/// option left to its derived default, such as a move limit that follows the board size, is
/// absent).
pub fn table_of<O: Serialize>(options: &O) -> toml::Table {
    toml::Table::try_from(options).expect("game options serialise as a table")
}

/// `base` with `rules` applied in order; the game's error names an unknown key (with the
/// keys it knows) or a bad value.
pub fn with_rules<O: Serialize + DeserializeOwned>(base: &O, rules: &[Rule]) -> Result<O, String> {
    apply(base, rules).map_err(|error| {
        // A value of the wrong type gets serde's words, which do not say which key it was.
        let culprit = rules
            .iter()
            .find(|rule| apply(base, std::slice::from_ref(rule)).is_err());
        match culprit {
            Some(rule) if !error.contains(&rule.key) => format!("`{rule}`: {error}"),
            _ => error,
        }
    })
}

fn apply<O: Serialize + DeserializeOwned>(base: &O, rules: &[Rule]) -> Result<O, String> {
    let mut table = table_of(base);
    for rule in rules {
        table.insert(rule.key.clone(), rule.value.clone());
    }
    from_table(table)
}

/// Reads options from a table such as a config's `[game]` (without its `name`).
pub fn from_table<O: DeserializeOwned>(table: toml::Table) -> Result<O, String> {
    toml::Value::Table(table)
        .try_into()
        .map_err(|error: toml::de::Error| error.message().trim().replace('\n', " "))
}

/// The value `options` give `key`, if they set it (`size`, `komi`, ...).
pub fn rule_value<O: Serialize>(options: &O, key: &str) -> Option<toml::Value> {
    table_of(options).remove(key)
}

/// Every key the options type `O` knows, in its order, including those left to a derived
/// default: read off the field list serde hands a deserializer.
pub fn keys_of<O: DeserializeOwned>() -> &'static [&'static str] {
    let mut keys: &'static [&'static str] = &[];
    let _ = O::deserialize(FieldNames(&mut keys));
    keys
}

/// A deserializer that records the fields of the struct asked of it and then gives up.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

#[derive(Debug)]
struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field names read")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Stop
    }
}

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Stop> {
        *self.0 = fields;
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    struct Options {
        size: i64,
        komi: f64,
        vetoes: [i64; 2],
        max_moves: Option<i64>,
    }

    impl Default for Options {
        fn default() -> Self {
            Options {
                size: 9,
                komi: 7.5,
                vetoes: [0, 0],
                max_moves: None,
            }
        }
    }

    #[test]
    fn rules_set_keys_of_any_type_and_keep_the_rest() {
        let rules =
            ["size=13", "komi=6", "vetoes=1,2", "max-moves=400"].map(|r| Rule::parse(r).unwrap());
        let options = with_rules(&Options::default(), &rules).unwrap();
        assert_eq!(
            options,
            Options {
                size: 13,
                komi: 6.0,
                vetoes: [1, 2],
                max_moves: Some(400),
            }
        );
        let back: Vec<String> = table_of(&options)
            .iter()
            .map(|(key, value)| format!("{key}={}", value_text(value)))
            .collect();
        assert_eq!(back, ["size=13", "komi=6.0", "vetoes=1,2", "max_moves=400"]);
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors_naming_them() {
        let unknown = with_rules(&Options::default(), &[Rule::new("pie", "1")]).unwrap_err();
        assert!(
            unknown.contains("`pie`") && unknown.contains("`max_moves`"),
            "{unknown}"
        );
        let bad = with_rules(&Options::default(), &[Rule::new("size", "large")]).unwrap_err();
        assert_eq!(
            bad,
            "`size=large`: invalid type: string \"large\", expected i64"
        );
        assert!(Rule::parse("size").is_err());
        assert!(Rule::parse("=3").is_err());
    }

    #[test]
    fn the_keys_of_an_options_type_include_unset_ones() {
        assert_eq!(
            keys_of::<Options>(),
            ["size", "komi", "vetoes", "max_moves"]
        );
        assert_eq!(rule_value(&Options::default(), "max_moves"), None);
        assert_eq!(
            rule_value(&Options::default(), "size"),
            Some(toml::Value::Integer(9))
        );
    }
}
