//! GTP version 2 framing: reading command lines and writing responses.

use std::io::{self, Write};

/// One command line: the optional numeric id, the command name and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

impl Command {
    /// Parses a raw line as GTP 2 section 2.2 asks: control characters other than tab and
    /// newline dropped, tabs read as spaces, everything from `#` on a comment. `None` for a
    /// line left empty, which gets no response.
    pub fn parse(line: &str) -> Option<Command> {
        let cleaned: String = line
            .chars()
            .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let text = cleaned.split('#').next().unwrap_or_default();
        let mut words = text.split_whitespace().peekable();
        words.peek()?;
        let id = words
            .next_if(|word| word.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|word| word.parse().ok());
        let name = words.next().unwrap_or_default().to_owned();
        Some(Command {
            id,
            name,
            args: words.map(str::to_owned).collect(),
        })
    }
}

/// Writes `=id result` or `?id message`, then the blank line that ends every response. A
/// multi-line result keeps its lines; blank lines inside it are dropped, since a blank line
/// would end the response early.
pub fn write_response(
    out: &mut impl Write,
    id: Option<u64>,
    response: &Result<String, String>,
) -> io::Result<()> {
    let (status, text) = match response {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    let id = id.map(|id| id.to_string()).unwrap_or_default();
    let mut lines = text
        .split('\n')
        .enumerate()
        .filter(|(i, line)| *i == 0 || !line.trim().is_empty());
    let (_, first) = lines.next().unwrap_or_default();
    write!(out, "{status}{id} {first}")?;
    for (_, line) in lines {
        write!(out, "\n{line}")?;
    }
    out.write_all(b"\n\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_comments_and_control_characters() {
        let command = Command::parse("12 play\tb f6:3 # a comment\r").unwrap();
        assert_eq!(command.id, Some(12));
        assert_eq!(command.name, "play");
        assert_eq!(command.args, ["b", "f6:3"]);
        assert_eq!(Command::parse("   # only a comment"), None);
        assert_eq!(Command::parse(""), None);
        let bare = Command::parse("name").unwrap();
        assert_eq!((bare.id, bare.name.as_str()), (None, "name"));
    }

    #[test]
    fn responses_end_with_a_blank_line() {
        let mut out = Vec::new();
        write_response(&mut out, Some(3), &Ok("2".into())).unwrap();
        write_response(&mut out, None, &Err("unknown command".into())).unwrap();
        write_response(&mut out, None, &Ok("\nrow 1\n\nrow 2".into())).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "=3 2\n\n? unknown command\n\n= \nrow 1\nrow 2\n\n"
        );
    }
}
