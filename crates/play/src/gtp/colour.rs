//! GTP colours for a game's two sides.

pub use game::parse_colour;

#[cfg(test)]
mod tests {
    use super::*;
    use game::Side;
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
