//! GTP colours for a game's two sides.

use game::{GtpGame, Side};

/// Reads a colour: the game's names for its sides, or Go's names for the first and second
/// player (`black`/`b` and `white`/`w`), in any case. Beware that in a Ghast position string
/// `b` means Blue; GTP follows Go here so that Go tools work unchanged.
pub fn parse_colour<G: GtpGame>(text: &str) -> Result<Side, String> {
    let [first, second] = G::COLOURS;
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Side::First),
        "white" | "w" => Ok(Side::Second),
        name if name == first => Ok(Side::First),
        name if name == second => Ok(Side::Second),
        _ => Err(format!(
            "invalid color `{text}` ({first} or {second}; black/b is {first}, white/w is {second})"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ghast::Ghast;

    #[test]
    fn go_names_map_first_player_to_orange() {
        for text in ["orange", "ORANGE", "b", "Black"] {
            assert_eq!(parse_colour::<Ghast>(text), Ok(Side::First), "{text}");
        }
        for text in ["blue", "w", "WHITE"] {
            assert_eq!(parse_colour::<Ghast>(text), Ok(Side::Second), "{text}");
        }
        assert!(
            parse_colour::<Ghast>("o")
                .unwrap_err()
                .contains("invalid color `o`")
        );
    }
}
