//! One game against the bot, with every position kept so that undo is a pop.

use game::{Game, Side};

/// The game in progress: who plays which side, how hard the bot thinks, and the history.
#[derive(Clone, Debug)]
pub struct Session<G> {
    human: Side,
    visits: u32,
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<G>,
    moves: Vec<usize>,
}

impl<G: Game> Session<G> {
    pub fn new(options: &G::Options, human: Side, visits: u32) -> Self {
        Session {
            human,
            visits,
            positions: vec![G::new(options)],
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
    pub fn game(&self) -> &G {
        self.positions
            .last()
            .expect("a session always has its start")
    }

    /// The moves in the game's notation.
    pub fn move_texts(&self) -> Vec<String> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(&action, before)| before.action_to_string(action))
            .collect()
    }

    /// Plays `action`, which the caller has checked is legal.
    pub fn play(&mut self, action: usize) {
        let mut next = self.game().clone();
        next.apply(action);
        self.positions.push(next);
        self.moves.push(action);
    }

    /// Takes back moves until the human is to move again (at least one move, so the bot's
    /// reply and the human's move go together). Returns how many moves were taken back.
    pub fn undo(&mut self) -> usize {
        let before = self.moves.len();
        while self.moves.pop().is_some() {
            self.positions.pop();
            if self.game().to_move() == self.human {
                break;
            }
        }
        before - self.moves.len()
    }

    /// The position before the last move, the move, and the position after it.
    pub fn last(&self) -> Option<(&G, usize, &G)> {
        let n = self.moves.len();
        let action = *self.moves.last()?;
        Some((&self.positions[n - 1], action, &self.positions[n]))
    }

    /// The moves one per line, as `ghast replay` reads them.
    pub fn record(&self) -> String {
        self.move_texts()
            .into_iter()
            .map(|text| text + "\n")
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ghast::{Ghast, GhastOptions};

    fn session(human: Side) -> Session<Ghast> {
        Session::new(&GhastOptions::default(), human, 10)
    }

    fn play(session: &mut Session<Ghast>, text: &str) {
        let action = session.game().parse_action(text).unwrap();
        session.play(action);
    }

    #[test]
    fn undo_goes_back_to_the_humans_turn() {
        let mut s = session(Side::First);
        play(&mut s, "f1:3");
        play(&mut s, "a6:0");
        assert_eq!(s.undo(), 2);
        assert!(s.move_texts().is_empty());
        assert_eq!(s.undo(), 0);
    }

    #[test]
    fn record_lists_moves_one_per_line() {
        let mut s = session(Side::Second);
        play(&mut s, "f1:3");
        play(&mut s, "pass");
        assert_eq!(s.record(), "f1:3\npass\n");
        let (before, action, after) = s.last().unwrap();
        assert_eq!(before.action_to_string(action), "pass");
        assert_eq!(before.position().cells, after.position().cells);
    }
}
