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

    #[test]
    fn a_short_colour_reads_back_as_its_side() {
        fn round_trip<G: game::Game>() {
            for side in [Side::First, Side::Second] {
                let name = game::short_colour::<G>(side);
                assert_eq!(parse_colour::<G>(&name), Ok(side), "{} {name}", G::NAME);
            }
        }
        round_trip::<Ghast>();
        round_trip::<ghostchess::GhostChess>();
        round_trip::<ghodak::Ghodak>();
        assert_eq!(game::short_colour::<ghodak::Ghodak>(Side::Second), "W");
        assert_eq!(
            game::short_colour::<ghostchess::GhostChess>(Side::First),
            "W"
        );
        assert_eq!(game::short_colour::<Ghast>(Side::Second), "blue");
    }
}
