//! The SGF format itself (FF[4]): a collection of game trees, each a sequence of nodes and
//! its variations, each node a list of properties with one or more bracketed values. Values
//! are kept as the file spells them, escapes removed: what a value means is the property's
//! business, and [`crate::record`]'s.

use std::fmt::{self, Write};
use thiserror::Error;

/// How deep variations may nest. Real records nest one level per branching point (a few
/// hundred at most); a limit keeps a hostile file from exhausting the stack of code that
/// walks or drops the tree recursively.
pub const MAX_NESTING: usize = 1000;

/// One property of a node: `AB[dd][pp]` is `AB` with two values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub id: String,
    pub values: Vec<String>,
}

/// A node (`;` and its properties).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub properties: Vec<Property>,
}

impl Node {
    /// The values of property `id`; empty when the node lacks it.
    pub fn values(&self, id: &str) -> &[String] {
        self.properties
            .iter()
            .find(|property| property.id == id)
            .map_or(&[], |property| &property.values)
    }

    /// The first value of property `id`.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.values(id).first().map(String::as_str)
    }

    /// Adds property `id` with `values`, or appends them to the values it has.
    pub fn push(&mut self, id: &str, values: impl IntoIterator<Item = String>) {
        let values = values.into_iter();
        match self
            .properties
            .iter_mut()
            .find(|property| property.id == id)
        {
            Some(property) => property.values.extend(values),
            None => self.properties.push(Property {
                id: id.to_owned(),
                values: values.collect(),
            }),
        }
    }
}

/// A game tree: its sequence of nodes, then the variations that branch from the last one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTree {
    pub nodes: Vec<Node>,
    pub variations: Vec<GameTree>,
}

impl GameTree {
    /// The main line: the nodes from the root, following the first variation at each branch,
    /// as every Go program plays a record through.
    pub fn main_line(&self) -> Vec<&Node> {
        let mut line = Vec::new();
        let mut tree = self;
        loop {
            line.extend(&tree.nodes);
            match tree.variations.first() {
                Some(next) => tree = next,
                None => return line,
            }
        }
    }
}

/// Why a text is not SGF, and where: the line and the column (from 1, in characters) of the
/// character that does not fit.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {reason}")]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

/// Reads a collection: one or more game trees, with only whitespace around them (and a
/// byte-order mark before them).
pub fn parse(text: &str) -> Result<Vec<GameTree>, ParseError> {
    Parser::new(text.strip_prefix('\u{feff}').unwrap_or(text)).collection()
}

/// Writes a collection: each tree's nodes one to a line, values escaped.
pub fn write(trees: &[GameTree]) -> String {
    let mut out = String::new();
    for tree in trees {
        write_tree(&mut out, tree);
        out.push('\n');
    }
    out
}

fn write_tree(out: &mut String, tree: &GameTree) {
    out.push('(');
    for (index, node) in tree.nodes.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push(';');
        for property in &node.properties {
            out.push_str(&property.id);
            for value in &property.values {
                out.push('[');
                out.push_str(&escape(value));
                out.push(']');
            }
        }
    }
    for variation in &tree.variations {
        out.push('\n');
        write_tree(out, variation);
    }
    out.push(')');
}

/// A value with `]` and `\` escaped, as FF[4] requires inside brackets.
fn escape(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, reason: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            column: self.column,
            reason: reason.into(),
        }
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.next();
        }
    }

    /// The trees being read sit on a stack rather than the call stack, so nesting costs heap,
    /// and [`MAX_NESTING`] bounds it.
    fn collection(mut self) -> Result<Vec<GameTree>, ParseError> {
        let mut trees = Vec::new();
        let mut open: Vec<GameTree> = Vec::new();
        loop {
            self.skip_whitespace();
            let Some(c) = self.peek() else {
                return match open.len() {
                    0 if trees.is_empty() => Err(self.error("no game tree: SGF starts with `(;`")),
                    0 => Ok(trees),
                    depth => Err(self.error(format!(
                        "the text ends inside {depth} unclosed game tree{}: `)` missing",
                        if depth == 1 { "" } else { "s" }
                    ))),
                };
            };
            match c {
                '(' => {
                    if let Some(parent) = open.last()
                        && parent.nodes.is_empty()
                    {
                        return Err(self.error("a variation before the tree's first node `;`"));
                    }
                    if open.len() == MAX_NESTING {
                        return Err(
                            self.error(format!("variations nested deeper than {MAX_NESTING}"))
                        );
                    }
                    self.next();
                    open.push(GameTree::default());
                }
                ')' => {
                    let Some(tree) = open.pop() else {
                        return Err(self.error("`)` closes no game tree"));
                    };
                    if tree.nodes.is_empty() {
                        return Err(self.error("an empty game tree: `(` needs a node `;`"));
                    }
                    self.next();
                    match open.last_mut() {
                        Some(parent) => parent.variations.push(tree),
                        None => trees.push(tree),
                    }
                }
                ';' => {
                    let Some(tree) = open.last_mut() else {
                        return Err(self.error("a node `;` outside a game tree `(...)`"));
                    };
                    if !tree.variations.is_empty() {
                        return Err(self.error("a node after a variation of the same tree"));
                    }
                    self.next();
                    let node = self.node()?;
                    open.last_mut()
                        .expect("the tree found above")
                        .nodes
                        .push(node);
                }
                _ if open.is_empty() => {
                    return Err(self.error(format!("`{c}` outside a game tree: expected `(`")));
                }
                _ => return Err(self.error(format!("`{c}` where a node `;`, `(` or `)` belongs"))),
            }
        }
    }

    /// The properties after a `;`.
    fn node(&mut self) -> Result<Node, ParseError> {
        let mut node = Node::default();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(c) if c.is_ascii_uppercase() || c.is_ascii_lowercase() => {
                    let (line, column) = (self.line, self.column);
                    let id = self.identifier();
                    if id.is_empty() {
                        return Err(ParseError {
                            line,
                            column,
                            reason: "a property name without capital letters".to_owned(),
                        });
                    }
                    if node.properties.iter().any(|property| property.id == id) {
                        return Err(ParseError {
                            line,
                            column,
                            reason: format!("property {id} twice in one node"),
                        });
                    }
                    let values = self.values(&id)?;
                    node.properties.push(Property { id, values });
                }
                _ => return Ok(node),
            }
        }
    }

    /// A property's name. FF[3]'s long names mix in lower-case letters (`AddBlack`), which
    /// FF[4] says to drop (`AB`).
    fn identifier(&mut self) -> String {
        let mut id = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
            self.next();
            if c.is_ascii_uppercase() {
                id.push(c);
            }
        }
        id
    }

    fn values(&mut self, id: &str) -> Result<Vec<String>, ParseError> {
        let mut values = Vec::new();
        loop {
            self.skip_whitespace();
            if self.peek() != Some('[') {
                return if values.is_empty() {
                    Err(self.error(format!("property {id} without a value `[...]`")))
                } else {
                    Ok(values)
                };
            }
            self.next();
            values.push(self.value(id)?);
        }
    }

    /// A value's text up to its unescaped `]`: `\` keeps the next character, and drops a
    /// line break after it (a soft break).
    fn value(&mut self, id: &str) -> Result<String, ParseError> {
        let mut value = String::new();
        loop {
            match self.next() {
                None => return Err(self.error(format!("the text ends inside a value of {id}"))),
                Some(']') => return Ok(value),
                Some('\\') => match self.next() {
                    None => {
                        return Err(self.error(format!("the text ends inside a value of {id}")));
                    }
                    Some(break_char @ ('\n' | '\r')) => {
                        let pair = if break_char == '\n' { '\r' } else { '\n' };
                        if self.peek() == Some(pair) {
                            self.next();
                        }
                    }
                    Some(c) => value.push(c),
                },
                Some(c) => value.push(c),
            }
        }
    }
}

impl fmt::Display for GameTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_tree(&mut out, self);
        f.write_str(&out)
    }
}

impl Node {
    /// The node as SGF writes it, for messages: `;B[cd]`.
    pub fn text(&self) -> String {
        let mut out = String::from(";");
        for property in &self.properties {
            out.push_str(&property.id);
            for value in &property.values {
                write!(out, "[{}]", escape(value)).expect("writing to a String");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn node(properties: &[(&str, &[&str])]) -> Node {
        Node {
            properties: properties
                .iter()
                .map(|(id, values)| Property {
                    id: (*id).to_owned(),
                    values: values.iter().map(|v| (*v).to_owned()).collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn reads_a_record_with_variations_escapes_and_soft_breaks() {
        let text = "\u{feff} (;FF[4]GM[1]SZ[9]C[a \\] b \\\\ c\\\nd]AB[cc][gg]\n;B[ee]\n(;W[ef];B[fe])(;W[]))\n";
        let trees = parse(text).unwrap();
        assert_eq!(trees.len(), 1);
        let tree = &trees[0];
        assert_eq!(tree.nodes.len(), 2);
        let root = &tree.nodes[0];
        assert_eq!(root.get("C"), Some("a ] b \\ cd"));
        assert_eq!(root.values("AB"), ["cc", "gg"]);
        assert_eq!(root.get("XX"), None);
        assert_eq!(tree.variations.len(), 2);
        let line: Vec<String> = tree.main_line().iter().map(|n| n.text()).collect();
        assert_eq!(line[1..], [";B[ee]", ";W[ef]", ";B[fe]"]);
        assert_eq!(tree.variations[1].nodes[0].get("W"), Some(""));
    }

    #[test]
    fn long_names_of_ff3_keep_their_capitals() {
        let trees = parse("(;AddBlack[aa]PlayerBlack[x])").unwrap();
        assert_eq!(trees[0].nodes[0].get("AB"), Some("aa"));
        assert_eq!(trees[0].nodes[0].get("PB"), Some("x"));
    }

    #[test]
    fn what_is_not_sgf_is_refused_with_where_and_why() {
        let cases = [
            ("", "no game tree"),
            ("  \n ", "no game tree"),
            ("B[aa]", "outside a game tree"),
            ("(;B[aa]", "unclosed game tree"),
            ("(;B[aa", "ends inside a value of B"),
            ("(;B[aa\\", "ends inside a value of B"),
            ("(;B)", "without a value"),
            ("(;B[aa]B[bb])", "property B twice"),
            ("(;B[aa]))", "closes no game tree"),
            ("()", "empty game tree"),
            ("((;B[aa]))", "a variation before the tree's first node"),
            ("(;B[aa](;W[bb]);B[cc])", "a node after a variation"),
            ("(;B[aa]x)", "a property name without capital letters"),
            ("(;1[aa])", "where a node"),
            ("(;B[aa]) x", "outside a game tree"),
        ];
        for (text, words) in cases {
            let error = parse(text).expect_err(text);
            assert!(error.to_string().contains(words), "{text:?}: {error}");
        }
        let error = parse("(;B[aa]\n;W[bb]\n  x)").unwrap_err();
        assert_eq!((error.line, error.column), (3, 3), "{error}");
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = |depth: usize| "(;B[aa]".repeat(depth) + &")".repeat(depth);
        assert!(parse(&deep(MAX_NESTING)).is_ok());
        let error = parse(&deep(MAX_NESTING + 1)).unwrap_err();
        assert!(error.reason.contains("nested deeper"), "{error}");
    }

    fn value() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[a-z \\]\\\\\\[;()\n\u{e9}]{0,8}").unwrap()
    }

    fn tree(depth: u32) -> BoxedStrategy<GameTree> {
        let nodes = proptest::collection::vec(
            proptest::collection::vec(
                ("[A-Z]{1,2}", proptest::collection::vec(value(), 1..3)),
                0..3,
            ),
            1..4,
        )
        .prop_map(|nodes| {
            nodes
                .into_iter()
                .map(|properties| {
                    let mut node = Node::default();
                    for (id, values) in properties {
                        if node.get(&id).is_none() {
                            node.push(&id, values);
                        }
                    }
                    node
                })
                .collect::<Vec<_>>()
        });
        if depth == 0 {
            return nodes
                .prop_map(|nodes| GameTree {
                    nodes,
                    variations: Vec::new(),
                })
                .boxed();
        }
        (nodes, proptest::collection::vec(tree(depth - 1), 0..3))
            .prop_map(|(nodes, variations)| GameTree { nodes, variations })
            .boxed()
    }

    proptest! {
        /// Whatever a tree holds (brackets, backslashes, line breaks in values), writing it
        /// and reading it back gives the same tree.
        #[test]
        fn written_trees_read_back_the_same(trees in proptest::collection::vec(tree(2), 1..3)) {
            let text = write(&trees);
            prop_assert_eq!(parse(&text).unwrap(), trees, "{}", text);
        }
    }

    #[test]
    fn node_push_appends_to_an_existing_property() {
        let mut root = node(&[("AB", &["aa"])]);
        root.push("AB", ["bb".to_owned()]);
        root.push("PL", ["W".to_owned()]);
        assert_eq!(root.text(), ";AB[aa][bb]PL[W]");
    }
}
