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

    /// The whole moves in the game's notation as the human is told them (the bot's
    /// Fakerghast pairs in public form).
    pub fn move_texts(&self) -> Vec<String> {
        game::told_moves(&self.positions[0], &self.moves, Some(self.human))
    }

    /// Plays `action`, which the caller has checked is legal.
    pub fn play(&mut self, action: usize) {
        let mut next = self.game().clone();
        next.apply(action);
        self.positions.push(next);
        self.moves.push(action);
    }

    /// Takes back actions until the human is to move again at the start of a move (at least
    /// one action, so the bot's reply and the human's move go together). Returns how many
    /// actions were taken back.
    pub fn undo(&mut self) -> usize {
        let before = self.moves.len();
        while self.moves.pop().is_some() {
            self.positions.pop();
            if self.game().to_move() == self.human && !self.game().mid_move() {
                break;
            }
        }
        before - self.moves.len()
    }

    /// The last whole move: its actions, and the positions from the one before it to the one
    /// after it (`positions[i + 1]` follows `actions[i]`). A move still in progress (a
    /// Fakerghast real tile awaiting its fake) is not one yet.
    pub fn last(&self) -> Option<(&[G], &[usize])> {
        let move_starts = |i: &usize| !self.positions[*i].mid_move();
        let end = (0..=self.moves.len()).rev().find(move_starts)?;
        let start = (0..end).rev().find(move_starts)?;
        Some((&self.positions[start..=end], &self.moves[start..end]))
    }

    /// The moves one per line, each in full, as `ghast replay` reads them.
    pub fn record(&self) -> String {
        game::moves_in_full(&self.positions[0], &self.moves)
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
        let (positions, actions) = s.last().unwrap();
        assert_eq!(positions[0].action_to_string(actions[0]), "pass");
        assert_eq!(positions[0].position().cells, positions[1].position().cells);
    }

    /// In Fakerghast the human is told the bot's pair in public form, a pair half placed is
    /// no move yet, and undo takes back whole moves.
    #[test]
    fn fakerghast_moves_are_whole_and_the_bots_are_public() {
        use ghast::{Fakerghast, RawFakerghastOptions};
        let options = RawFakerghastOptions {
            size: 3,
            fakerghast: 1,
            ..RawFakerghastOptions::default()
        }
        .validate()
        .unwrap();
        let mut s = Session::<Fakerghast>::new(&options, Side::Second, 8);
        for text in ["d1:2", "+c1:4", "e1:0", "+e2:5"] {
            let action = s.game().parse_action(text).unwrap();
            s.play(action);
        }
        assert_eq!(s.move_texts(), ["c1:4,d1:2", "e1:0+e2:5"]);
        let action = s.game().parse_action("pass").unwrap();
        s.play(action);
        let (_, actions) = s.last().unwrap();
        assert_eq!(actions.len(), 1, "the pass, with orange's reveal");
        assert_eq!(s.move_texts()[2], "pass/d1");
        assert_eq!(s.record(), "d1:2+c1:4\ne1:0+e2:5\npass\n");
        assert_eq!(s.undo(), 1 + 2, "orange's pass and blue's pair");
        assert_eq!(s.undo(), 2, "orange's pair, back to the start");
        assert!(s.move_texts().is_empty());
    }
}
