use crate::{Game, Outcome, Side};

/// How a game speaks the Go Text Protocol, so that one engine and one referee serve every
/// game: `final_score`, `showboard`, and positions. Colours are the game's
/// ([`Game::COLOURS`]); `boardsize` and `komi` set the game's `size` and `komi` rules, for
/// the games that have them ([`crate::rules`]).
pub trait GtpGame: Game {
    /// The letters of the first and the second side in scores (`B+3.5`, `W+R`).
    const SCORE_LETTERS: [char; 2];

    /// The answer to `final_score`: the leader's letter, `+`, the lead (`B+3.5`), or `0`.
    fn final_score(&self) -> String;

    /// The board in ASCII for `showboard`, with whose move it is and the position string.
    fn diagram(&self) -> String;

    /// The name KataGo gives this game's rules (its `rules` strings), where the game is Go
    /// under one of KataGo's rule sets: an analysis query naming them gets exactly them, one
    /// naming another rule set gets these with a warning.
    const KATAGO_RULES: Option<&'static str> = None;

    /// What the side to move is asked to do, for error messages (`to move`; Ghast: `to accept
    /// or veto` while a placement awaits its answer).
    fn turn_task(&self) -> &'static str {
        "to move"
    }

    /// The board size a position string describes, so that setting a position of another
    /// size changes the size as `boardsize` would.
    fn position_size(text: &str) -> Result<i64, String>;

    /// The start position with `stones` already on the board and `to_move` to play: Go's
    /// handicap and set-up stones, placed rather than played (KataGo's `initialStones` and
    /// `initialPlayer`). Each stone is a placement's action. A game whose pieces are not
    /// stones refuses, saying so.
    fn set_up(
        options: &Self::Options,
        stones: &[(Side, usize)],
        to_move: Side,
    ) -> Result<Self, String> {
        let _ = (options, stones, to_move);
        Err(format!("{} places no stones outside a move", Self::NAME))
    }

    /// This position with `side` to move, every piece where it stands: how a Go program takes
    /// a move out of turn (KataGo plays a record's two moves in a row by one colour so: the
    /// history, and with it the ko, cleared). A game whose turn cannot be handed over
    /// refuses, saying so.
    fn hand_turn_to(&self, side: Side) -> Result<Self, String> {
        let _ = side;
        Err(format!("{} cannot hand the turn over", Self::NAME))
    }
}

/// The `final_score` text: the winner's letter ([`GtpGame::SCORE_LETTERS`]), `+`, the lead
/// (`B+3.5`), or `0` for a draw. `lead` is the first side's score minus the second's. A
/// finished game names the winner its `outcome` says, whichever rule ended it; a game in
/// progress is scored as it stands.
pub fn final_score_text<G: GtpGame>(outcome: Option<Outcome>, lead: f64) -> String {
    let letters = G::SCORE_LETTERS;
    let winner = match outcome {
        Some(Outcome::Win(side)) => Some(side),
        Some(Outcome::Draw) => None,
        None if lead > 0.0 => Some(Side::First),
        None if lead < 0.0 => Some(Side::Second),
        None => None,
    };
    match winner {
        None => "0".to_owned(),
        Some(side) => format!("{}+{}", letters[side.index()], lead.abs()),
    }
}

/// Reads a colour: the game's names for its sides, or Go's names for the first and second
/// player (`black`/`b` and `white`/`w`), in any case. Beware that in a Ghast position string
/// `b` means Blue; GTP follows Go here so that Go tools work unchanged. A game whose own
/// sides are black and white keeps its own meaning of them (in Ghost Chess White is first).
pub fn parse_colour<G: Game>(text: &str) -> Result<Side, String> {
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

/// The shortest name of `side` that [`parse_colour`] reads back as it: `B` or `W` in a game
/// whose sides are black and white (Go's letters, as KataGo's analysis writes them; in Ghost
/// Chess `W` is the first side), else the colour's name (`orange`), since there `B` would be
/// Go's Black, the first side, whatever the colour's name.
pub fn short_colour<G: Game>(side: Side) -> String {
    let [first, second] = G::COLOURS;
    let name = G::COLOURS[side.index()];
    if first.starts_with(['b', 'w']) && second.starts_with(['b', 'w']) {
        name[..1].to_ascii_uppercase()
    } else {
        name.to_owned()
    }
}

/// The name of `side` in `G`'s colours (`orange`, `black`, ...).
pub fn colour_name<G: Game>(side: Side) -> &'static str {
    G::COLOURS[side.index()]
}

/// The `final_score` text of a game `winner` won by resignation (`W+R`, as SGF writes it).
pub fn resigned_score_text<G: GtpGame>(winner: Side) -> String {
    format!("{}+R", G::SCORE_LETTERS[winner.index()])
}
