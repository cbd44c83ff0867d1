//! One game against the bot, with every position kept so that undo is a pop.

use game::Side;
use ghast::{Action, Ghast, GhastOptions};

/// The game in progress: who plays which colour, how hard the bot thinks, and the history.
#[derive(Clone, Debug)]
pub struct Session {
    human: Side,
    visits: u32,
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<Ghast>,
    moves: Vec<Action>,
}

impl Session {
    pub fn new(options: &GhastOptions, human: Side, visits: u32) -> Self {
        Session {
            human,
            visits,
            positions: vec![Ghast::new(options)],
            moves: Vec::new(),
        }
    }

    pub fn human(&self) -> Side {
        self.human
    }

    /// Visits the bot searches per move.
    pub fn visits(&self) -> u32 {
        self.visits
    }

    /// The current position.
    pub fn game(&self) -> &Ghast {
        self.positions
            .last()
            .expect("a session always has its start")
    }

    pub fn moves(&self) -> &[Action] {
        &self.moves
    }

    /// Plays `action`, which the caller has checked is legal.
    pub fn play(&mut self, action: Action) {
        let mut next = self.game().clone();
        next.apply_action(action);
        self.positions.push(next);
        self.moves.push(action);
    }

    /// Takes back moves until the human is to move again (at least one move, so the bot's
    /// reply and the human's move go together). Returns how many moves were taken back.
    pub fn undo(&mut self) -> usize {
        let before = self.moves.len();
        while self.moves.pop().is_some() {
            self.positions.pop();
            if game::Game::to_move(self.game()) == self.human {
                break;
            }
        }
        before - self.moves.len()
    }

    /// The position before the last move, the move, and the position after it.
    pub fn last(&self) -> Option<(&Ghast, Action, &Ghast)> {
        let n = self.moves.len();
        let action = *self.moves.last()?;
        Some((&self.positions[n - 1], action, &self.positions[n]))
    }

    /// The moves one per line, as `ghast replay` reads them.
    pub fn record(&self) -> String {
        let geometry = self.game().options().geometry();
        self.moves
            .iter()
            .map(|action| format!("{}\n", action.to_text(geometry)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(human: Side) -> Session {
        Session::new(&GhastOptions::default(), human, 10)
    }

    fn play(session: &mut Session, text: &str) {
        let action = session.game().parse_move(text).unwrap();
        session.play(action);
    }

    #[test]
    fn undo_goes_back_to_the_humans_turn() {
        let mut s = session(Side::First);
        play(&mut s, "f1:3");
        play(&mut s, "a6:0");
        assert_eq!(s.undo(), 2);
        assert!(s.moves().is_empty());
        assert_eq!(s.undo(), 0);
    }

    #[test]
    fn record_lists_moves_one_per_line() {
        let mut s = session(Side::Second);
        play(&mut s, "f1:3");
        play(&mut s, "pass");
        assert_eq!(s.record(), "f1:3\npass\n");
        let (before, action, after) = s.last().unwrap();
        assert_eq!(action, Action::Pass);
        assert_eq!(before.position().cells, after.position().cells);
    }
}
