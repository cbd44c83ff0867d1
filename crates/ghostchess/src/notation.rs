//! Move tokens (section 9.2): a whole turn in one token, read into the decisions it is made
//! of and written back from them; one decision's own text.

use crate::board::{
    ACROSS, C1, C1_BLOCK, CENTRE, DARK, F1, F1_BLOCK, KNIGHT_ATTACKS, RANK_8, bishop_attacks,
};
use crate::board::{bit, file_of, parse_square, rank_of, square_name};
use crate::rules::{
    ASSAULT, BLACK, Decision, EXCHANGE, GhostChess, NO, PASS, Piece, TRANSCEND, WHITE, colour_name,
};
use game::Side;

/// A token read by the grammar of section 9.2, before the rules judge it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Token {
    /// `hide` or `pass`: the whole turn, no marks.
    pub pass: Option<&'static str>,
    pub from: usize,
    pub to: usize,
    pub assault: bool,
    pub exchange: Option<usize>,
    pub place: Option<usize>,
    pub respawn: Option<usize>,
    pub extra: Option<(usize, usize)>,
    pub search: Option<usize>,
    pub transcend: bool,
    pub knights: Vec<(usize, usize)>,
}

/// Reads a token by the grammar alone: `hide | pass | SQ SQ (^)? (%SQ)? (=SQ)? (@SQ)?
/// (+SQ SQ)? (-SQ)? (#)? (:SQ SQ)*`, case-insensitive; `None` if it does not fit.
pub fn parse_token(text: &str) -> Option<Token> {
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "hide" => {
            return Some(Token {
                pass: Some("hide"),
                ..Token::default()
            });
        }
        "pass" => {
            return Some(Token {
                pass: Some("pass"),
                ..Token::default()
            });
        }
        _ => {}
    }
    let mut rest = lower.as_str();
    let square = |rest: &mut &str| -> Option<usize> {
        let found = parse_square(rest.get(..2)?)?;
        *rest = &rest[2..];
        Some(found)
    };
    let mut token = Token {
        from: square(&mut rest)?,
        to: square(&mut rest)?,
        ..Token::default()
    };
    fn mark(rest: &mut &str, sign: char) -> bool {
        let found = rest.starts_with(sign);
        if found {
            *rest = &rest[1..];
        }
        found
    }
    token.assault = mark(&mut rest, '^');
    if mark(&mut rest, '%') {
        token.exchange = Some(square(&mut rest)?);
    }
    if mark(&mut rest, '=') {
        token.place = Some(square(&mut rest)?);
    }
    if mark(&mut rest, '@') {
        token.respawn = Some(square(&mut rest)?);
    }
    if mark(&mut rest, '+') {
        token.extra = Some((square(&mut rest)?, square(&mut rest)?));
    }
    if mark(&mut rest, '-') {
        token.search = Some(square(&mut rest)?);
    }
    token.transcend = mark(&mut rest, '#');
    while mark(&mut rest, ':') {
        token.knights.push((square(&mut rest)?, square(&mut rest)?));
    }
    rest.is_empty().then_some(token)
}

/// The text of one decision's action, as it stands in a token: a square (`e2`, `e4`), `^`
/// for an Assault, a square with its mark (`%g1`, `=b8`, `@e1`, `+h1`, `-b3`, `:b4`), `#`,
/// `exchange`, `hide`, `pass`, or `no` (which a token leaves out).
pub fn action_text(game: &GhostChess, action: usize) -> String {
    let name = || square_name(action);
    match (game.decision(), action) {
        (_, NO) => "no".into(),
        (Decision::From, PASS) if game.mover() == BLACK => "hide".into(),
        (Decision::From, PASS) => "pass".into(),
        (Decision::From, ASSAULT) => "^".into(),
        (Decision::Exchange, EXCHANGE) => "exchange".into(),
        (Decision::Transcend, TRANSCEND) => "#".into(),
        (_, action) if action >= 64 => format!("action#{action}"),
        (Decision::Knight, _) => format!("%{}", name()),
        (Decision::Place, _) => format!("={}", name()),
        (Decision::Respawn, _) => format!("@{}", name()),
        (Decision::ExtraFrom, _) => format!("+{}", name()),
        (Decision::Search, _) => format!("-{}", name()),
        (Decision::KnightFrom, _) => format!(":{}", name()),
        _ => name(),
    }
}

/// The token of the turn played from `before` by `actions` (section 10's "the token").
pub fn turn_token(before: &GhostChess, actions: &[usize]) -> String {
    let mut game = before.clone();
    let mut token = String::new();
    for &action in actions {
        match (game.decision(), action) {
            (Decision::From, ASSAULT) | (Decision::Exchange, _) | (_, NO) => {}
            (Decision::AssaultTo, _) => {
                token.push_str(&action_text(&game, action));
                token.push('^');
            }
            _ => token.push_str(&action_text(&game, action)),
        }
        game.apply(action);
    }
    token
}

/// Reads one decision's text (as [`action_text`] writes it; a square's mark may be left out)
/// and checks that it is a choice of the decision under way.
pub fn parse_action(game: &GhostChess, text: &str) -> Result<usize, String> {
    let decision = game.decision();
    if decision == Decision::Over {
        return Err("the game is over".into());
    }
    let lower = text.to_ascii_lowercase();
    let global = match lower.as_str() {
        "no" => Some(NO),
        "hide" if game.mover() == BLACK => Some(PASS),
        "pass" if game.mover() == WHITE => Some(PASS),
        "^" | "assault" => Some(ASSAULT),
        "exchange" => Some(EXCHANGE),
        "#" | "transcend" => Some(TRANSCEND),
        _ => None,
    };
    let action = match global {
        Some(action) => action,
        None => {
            let name = lower.trim_start_matches(['%', '=', '@', '+', '-', ':']);
            parse_square(name).ok_or_else(|| {
                format!(
                    "\"{text}\" is not a square or a choice of the {} decision",
                    decision.name()
                )
            })?
        }
    };
    if game.is_legal(action) {
        Ok(action)
    } else {
        Err(format!(
            "\"{text}\" is not a choice of the {} decision here",
            decision.name()
        ))
    }
}

/// The decisions of the whole turn `text`, checked one by one on a copy of `game`; the error
/// names the token and says why it is refused.
pub fn parse_turn(game: &GhostChess, text: &str) -> Result<Vec<usize>, String> {
    let why = |reason: String| format!("move \"{text}\": {reason}");
    if game.decision() == Decision::Over {
        return Err(why("the game is over".into()));
    }
    if game.decision() != Decision::From {
        return Err(why(format!(
            "a turn is under way (its {} decision is next)",
            game.decision().name()
        )));
    }
    let token = parse_token(text).ok_or_else(|| {
        why("malformed: a turn is `hide`, `pass`, or <from><to> with marks ^ %sq =sq @sq +ft -sq # :ft in that order".into())
    })?;
    let mut reader = TurnReader {
        game: game.clone(),
        actions: Vec::new(),
        token,
        specials: [false; 2],
    };
    reader.read().map_err(why)?;
    Ok(reader.actions)
}

/// Plays a token's decisions on a copy of the game, consuming its marks as the decisions
/// they answer come up in the order of section 7.
struct TurnReader {
    game: GhostChess,
    actions: Vec<usize>,
    token: Token,
    /// Whether White and Black have made their special move in the turn so far.
    specials: [bool; 2],
}

impl TurnReader {
    fn play(&mut self, action: usize) {
        debug_assert!(self.game.is_legal(action));
        let game = &self.game;
        let special = match game.decision() {
            Decision::To if game.mover() == WHITE => {
                let from = game.selected().expect("a piece selected");
                (game.white_ordinary(from) & bit(action) == 0).then_some(WHITE)
            }
            Decision::AssaultTo | Decision::ExtraTo => Some(WHITE),
            Decision::Respawn if action != NO => Some(WHITE),
            Decision::Place => Some(BLACK),
            _ => None,
        };
        if let Some(player) = special {
            self.specials[player.index()] = true;
        }
        self.game.apply(action);
        self.actions.push(action);
    }

    fn read(&mut self) -> Result<(), String> {
        let mover = self.game.mover();
        match self.token.pass {
            Some("hide") if mover == BLACK => self.play(PASS),
            Some("hide") => {
                return Err(
                    "`hide` is Black's pass; White may `pass` only when it has no legal move"
                        .into(),
                );
            }
            Some(_) if mover == BLACK => {
                return Err("Black does not pass: her pass is `hide`".into());
            }
            Some(_) if self.game.is_legal(PASS) => self.play(PASS),
            Some(_) => return Err("White may pass only when it has no legal move".into()),
            None => self.read_move()?,
        }
        while self.game.mover() == mover && self.game.decision() != Decision::Over {
            self.read_follow_up()?;
        }
        self.leftover(mover)
    }

    fn read_move(&mut self) -> Result<(), String> {
        let (from, to) = (self.token.from, self.token.to);
        if self.token.assault {
            return self.read_assault(from, to);
        }
        let own = if self.game.mover() == WHITE {
            self.game.white()
        } else {
            self.game.black()
        };
        if own & bit(from) == 0 {
            return Err(format!(
                "{} holds no piece of the mover ({})",
                square_name(from),
                colour_name(self.game.mover())
            ));
        }
        if !self.game.is_legal(from)
            || !{
                let mut after = self.game.clone();
                after.apply(from);
                after.is_legal(to)
            }
        {
            return Err(self.unreachable_reason(from, to));
        }
        self.play(from);
        self.play(to);
        Ok(())
    }

    fn read_assault(&mut self, from: usize, to: usize) -> Result<(), String> {
        if self.game.mover() != WHITE || !self.game.full_nexus() {
            return Err("an Assault (`^`) needs Full Nexus: none of the twelve main pieces moved or captured".into());
        }
        if !matches!(from, C1 | F1) {
            return Err(format!(
                "an Assault moves the block of the bishop on c1 or f1, not {}",
                square_name(from)
            ));
        }
        if self.game.frozen() != 0 && {
            let block = if from == C1 { C1_BLOCK } else { F1_BLOCK };
            self.game.frozen() & block != 0
        } {
            return Err("the frozen piece may not move, not even in an Assault".into());
        }
        if self.game.assault_destinations(from) & bit(to) == 0 {
            return Err(format!(
                "the block of {} cannot move with its bishop to {}: each of its six pieces must land on the board, on an empty square or one of the block's",
                square_name(from),
                square_name(to)
            ));
        }
        self.play(ASSAULT);
        self.play(from);
        self.play(to);
        Ok(())
    }

    /// Why the piece on `from` cannot go to `to`, finding which rule bars it.
    fn unreachable_reason(&self, from: usize, to: usize) -> String {
        let game = &self.game;
        let (f, t) = (square_name(from), square_name(to));
        if game.mover() == WHITE {
            if game.frozen() & bit(from) != 0 {
                return format!(
                    "{f} holds the frozen piece (moved by the extra move): it may not move in this turn"
                );
            }
            if game.protected() & bit(to) != 0
                && game.unprotected().white_destinations(from) & bit(to) != 0
            {
                return format!(
                    "{t} holds a protected piece: White may not capture it in this turn"
                );
            }
            let occupied = game.occupied();
            let bishop_like = bishop_attacks(from, occupied) & !game.white() & bit(to) != 0;
            let pawn = game.bits(Piece::Pawn) & bit(from) != 0;
            if pawn && CENTRE & bit(from) != 0 && bishop_like && !game.full_nexus() {
                return format!("{f}{t} is a Scouting move, which needs Full Nexus");
            }
            if ACROSS & bit(from) != 0 && bishop_like && !game.shadow_nexus() {
                return format!(
                    "the piece on {f} moves as a bishop only in Shadow Nexus (bishops on c1 and f1, White pieces on c8 and f8)"
                );
            }
            if pawn && rank_of(from) == 7 && file_of(from) == file_of(to) && rank_of(to) < 7 {
                return format!(
                    "a Search goes to an empty light square of the pawn's file: {t} is {}",
                    if DARK & bit(to) != 0 {
                        "dark"
                    } else {
                        "occupied"
                    }
                );
            }
        } else if game.shadow_at_start()
            && RANK_8 & bit(to) != 0
            && rank_of(from) < 7
            && game.unbarred().black_destinations(from) & bit(to) != 0
        {
            return format!("in Shadow Nexus Black may not enter rank 8 without capturing ({t})");
        }
        if game.destinations(from) == 0 {
            return format!("the piece on {f} cannot move");
        }
        format!("the piece on {f} cannot reach {t}")
    }

    /// The decision under way after the move, answered from the token's marks.
    fn read_follow_up(&mut self) -> Result<(), String> {
        let game = &self.game;
        match game.decision() {
            Decision::Exchange => match self.token.exchange.take() {
                Some(knight) => {
                    if game.bits(Piece::Knight) & bit(knight) == 0 {
                        return Err(format!(
                            "the exchange names {}, which holds no white Knight",
                            square_name(knight)
                        ));
                    }
                    self.play(EXCHANGE);
                    self.play(knight);
                }
                None => self.play(NO),
            },
            Decision::Place => match self.token.place.take() {
                Some(square) if game.is_legal(square) => self.play(square),
                Some(square) => {
                    return Err(format!(
                        "the rescued Knight goes to an empty rescue square (b8 d8 f8 h8), not {}",
                        square_name(square)
                    ));
                }
                None => {
                    return Err("the rescued Knight must be placed: `=sq` is missing".into());
                }
            },
            Decision::Respawn => match self.token.respawn.take() {
                Some(square) if game.is_legal(square) => self.play(square),
                Some(square) => {
                    return Err(format!(
                        "a Respawn goes to an empty d1 or e1, not {}",
                        square_name(square)
                    ));
                }
                None => self.play(NO),
            },
            Decision::ExtraFrom => match self.token.extra.take() {
                Some((from, to)) => {
                    if game.extra_destinations(from) & bit(to) == 0 {
                        return Err(format!(
                            "the extra move {}{} is not an ordinary move of a White piece that captures nothing and ends on a light square",
                            square_name(from),
                            square_name(to)
                        ));
                    }
                    self.play(from);
                    self.play(to);
                }
                None => self.play(NO),
            },
            Decision::Transcend => {
                let action = if std::mem::take(&mut self.token.transcend) {
                    TRANSCEND
                } else {
                    NO
                };
                self.play(action);
            }
            Decision::Search => match self.token.search.take() {
                Some(square) if game.is_legal(square) => self.play(square),
                Some(square) => {
                    return Err(format!(
                        "a Search goes to an empty light square of the pawn's file on ranks 1..7, not {}",
                        square_name(square)
                    ));
                }
                None => self.play(NO),
            },
            Decision::KnightFrom => {
                if self.token.knights.is_empty() {
                    self.play(NO);
                    return Ok(());
                }
                let (from, to) = self.token.knights.remove(0);
                if game.knights_moved() & bit(from) != 0 {
                    return Err(format!(
                        "the Knight on {} has made its move after the Transcend",
                        square_name(from)
                    ));
                }
                if game.bits(Piece::BlackKnight) & bit(from) == 0 {
                    return Err(format!(
                        "{} holds no black Knight to move after the Transcend",
                        square_name(from)
                    ));
                }
                if !game.is_legal(from) || KNIGHT_ATTACKS[from] & game.white() & bit(to) == 0 {
                    return Err(format!(
                        "after a Transcend a Knight's move must capture a White piece: {}{} does not",
                        square_name(from),
                        square_name(to)
                    ));
                }
                self.play(from);
                self.play(to);
            }
            other => unreachable!("no follow-up {other:?} after a move"),
        }
        Ok(())
    }

    /// A mark whose decision never came up in the turn: why it does not fit.
    fn leftover(&self, mover: Side) -> Result<(), String> {
        let token = &self.token;
        let game = &self.game;
        let decided = game.ending().is_some();
        let [white_special, black_special] = self.specials;
        if let Some(square) = token.exchange {
            return Err(format!(
                "no exchange in this turn (`%{}`): it needs the Ghost to capture a rook or bishop while White has a white Knight and a rescue square is empty",
                square_name(square)
            ));
        }
        if let Some(square) = token.place {
            return Err(format!(
                "no Knight is rescued in this turn, so `={}` places nothing",
                square_name(square)
            ));
        }
        if let Some(square) = token.respawn {
            return Err(format!(
                "no Respawn in this turn (`@{}`): it needs a White pawn captured by Black while White is in Full or Half Nexus, with d1 or e1 empty",
                square_name(square)
            ));
        }
        if token.extra.is_some() {
            if white_special {
                return Err(
                    "two special moves of White in one turn: a Respawn, then the extra move".into(),
                );
            }
            return Err("no Shadow Nexus extra move in this turn: it needs Shadow Nexus when Black's turn began and a capture by the Ghost".into());
        }
        if token.search.is_some() {
            if white_special {
                return Err("two special moves of White in one turn: the immediate Search follows only an ordinary pawn move".into());
            }
            return Err(
                "no immediate Search: it follows only an ordinary pawn move from rank 7 to rank 8"
                    .into(),
            );
        }
        if token.transcend {
            if mover == WHITE {
                return Err("`#` is Black's Transcend; White's token has none".into());
            }
            if black_special {
                return Err(
                    "two special moves of Black in one turn: a Rescue, then a Transcend".into(),
                );
            }
            if decided {
                return Err("no Transcend after the game was decided in this turn".into());
            }
            return Err("no Transcend in this turn".into());
        }
        if let Some((from, to)) = token.knights.first() {
            return Err(format!(
                "a Knight's move after a Transcend (`:{}{}`) needs a Transcend in this turn and a Knight that can still capture",
                square_name(*from),
                square_name(*to)
            ));
        }
        Ok(())
    }
}
