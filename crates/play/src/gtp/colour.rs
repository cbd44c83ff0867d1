//! GTP colours for a game's two sides.

use game::{GtpGame, Side};

/// Reads a colour: the game's names for its sides, or Go's names for the first and second
/// player (`black`/`b` and `white`/`w`), in any case. Beware that in a Ghast position string
/// `b` means Blue; GTP follows Go here so that Go tools work unchanged. A game whose own
/// sides are black and white keeps its own meaning of them (in Ghost Chess White is first).
pub fn parse_colour<G: GtpGame>(text: &str) -> Result<Side, String> {
    let [first, second] = G::COLOURS;
    // A game whose sides are black and white (Qast; Ghost Chess, where White moves first)
    // means its own sides by those words and their letters; in the others they are Go's.
    let own_letters = first.starts_with(['b', 'w']) && second.starts_with(['b', 'w']);
    let lower = text.to_ascii_lowercase();
    let is =
        |name: &str| lower == name || own_letters && lower.len() == 1 && name.starts_with(&lower);
    match lower.as_str() {
        _ if is(first) => Ok(Side::First),
        _ if is(second) => Ok(Side::Second),
        "black" | "b" => Ok(Side::First),
        "white" | "w" => Ok(Side::Second),
        _ if own_letters => Err(format!("invalid color `{text}` ({first} or {second})")),
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
    fn a_game_whose_sides_are_white_and_black_keeps_their_meaning() {
        use ghostchess::GhostChess;
        for text in ["white", "W"] {
            assert_eq!(parse_colour::<GhostChess>(text), Ok(Side::First), "{text}");
        }
        for text in ["Black", "b"] {
            assert_eq!(parse_colour::<GhostChess>(text), Ok(Side::Second), "{text}");
        }
        assert!(parse_colour::<GhostChess>("orange").is_err());
    }

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
