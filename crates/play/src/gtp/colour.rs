//! GTP colours for Ghast's two sides.

use game::Side;

/// Reads a colour: `orange` or `blue`, or Go's names for the first and second player
/// (`black`/`b` is Orange, `white`/`w` is Blue), in any case. Beware that in a position
/// string `b` means Blue; GTP follows Go here so that Go tools work unchanged.
pub fn parse_colour(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "orange" | "black" | "b" => Ok(Side::First),
        "blue" | "white" | "w" => Ok(Side::Second),
        _ => Err(format!(
            "invalid color `{text}` (orange or blue; black/b is orange, white/w is blue)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_names_map_first_player_to_orange() {
        for text in ["orange", "ORANGE", "b", "Black"] {
            assert_eq!(parse_colour(text), Ok(Side::First), "{text}");
        }
        for text in ["blue", "w", "WHITE"] {
            assert_eq!(parse_colour(text), Ok(Side::Second), "{text}");
        }
        assert!(parse_colour("o").unwrap_err().contains("invalid color `o`"));
    }
}
