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

/// The name of `side` in `G`'s colours (`orange`, `black`, ...).
pub fn colour_name<G: Game>(side: Side) -> &'static str {
    G::COLOURS[side.index()]
}

/// The `final_score` text of a game `winner` won by resignation (`W+R`, as SGF writes it).
pub fn resigned_score_text<G: GtpGame>(winner: Side) -> String {
    format!("{}+R", G::SCORE_LETTERS[winner.index()])
}
