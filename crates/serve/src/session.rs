//! One game against the bot: its referee, which draws chance's outcomes for the server, and
//! who plays which side.

use game::{ChanceStream, Game, Mover, Referee, Side};

/// The game in progress: who plays which side, how hard the bot thinks, and the history.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    human: Side,
    visits: u32,
    /// The bot's level of play (1 is the weakest), whose visits `visits` holds; `None`: the
    /// most visited move at `visits`.
    level: Option<usize>,
    referee: Referee<G>,
    /// Where chance's outcomes (a roll of the dice) come from in this game.
    chance: ChanceStream,
}

/// The last whole move of a side: the positions before it and after it, and its actions.
#[derive(Clone, Debug)]
pub struct LastMove<G> {
    pub before: G,
    pub actions: Vec<usize>,
    pub after: G,
    /// The position before the move's last action.
    pub before_last: G,
}

impl<G: Game> Session<G> {
    /// A new game; `chance_seed` seeds its chance outcomes.
    pub fn new(options: &G::Options, human: Side, visits: u32, chance_seed: u64) -> Self {
        let mut session = Session {
            human,
            visits,
            level: None,
            referee: Referee::new(G::new(options)),
            chance: ChanceStream::new(chance_seed),
        };
        session.play_automatic();
        session
    }

    pub fn human(&self) -> Side {
        self.human
    }

    /// Visits the bot searches per move.
    pub fn visits(&self) -> u32 {
        self.visits
    }

    /// This game against level `level` (1 is the weakest) of `visits` visits.
    pub fn with_level(self, level: usize, visits: u32) -> Self {
        Session {
            level: Some(level),
            visits,
            ..self
        }
    }

    /// The level the bot plays at, if one was chosen.
    pub fn level(&self) -> Option<usize> {
        self.level
    }

    /// The current position.
    pub fn game(&self) -> &G {
        self.referee.game()
    }

    /// The whole moves in the game's notation as the human is told them (the bot's
    /// Fakerghast pairs in public form).
    pub fn move_texts(&self) -> Vec<String> {
        game::told_moves(
            self.referee.start(),
            self.referee.actions(),
            Some(self.human),
        )
    }

    /// Plays `action` (an illegal one is an error that changes nothing), then chance's
    /// outcomes up to the next decision.
    pub fn play(&mut self, action: usize) -> Result<(), String> {
        self.referee.play(action)?;
        self.play_automatic();
        Ok(())
    }

    /// The referee's actions up to the next decision: chance's outcomes (a page game has no
    /// random opening and asks the human even for forced decisions).
    fn play_automatic(&mut self) {
        while self.referee.play_automatic(&mut self.chance).is_some() {}
    }

    /// Takes back actions until the human is to decide again at the start of a move (at least
    /// one action, so the bot's reply and the human's move go together; chance's outcomes
    /// in between go too, and are drawn afresh). Returns how many actions were taken back.
    pub fn undo(&mut self) -> usize {
        let actions = self.referee.actions();
        let cut = self
            .referee
            .history()
            .enumerate()
            .filter(|(_, (game, _))| {
                game.to_move() == self.human && !game.is_chance() && !game.mid_move()
            })
            .map(|(index, _)| index)
            .last()
            .unwrap_or(0);
        let kept = actions[..cut].to_vec();
        let taken = actions.len() - cut;
        let mut referee = Referee::new(self.referee.start().clone());
        for action in kept {
            referee.play(action).expect("an action played here before");
        }
        self.referee = referee;
        taken
    }

    /// The last whole move of a side (chance's outcomes after it aside). A move still in
    /// progress (a Fakerghast real tile awaiting its fake) is not one yet.
    pub fn last(&self) -> Option<LastMove<G>> {
        let moves = game::whole_moves(self.referee.start(), self.referee.actions());
        let (_, range) = moves
            .into_iter()
            .rev()
            .find(|(mover, _)| *mover != Mover::Chance)?;
        Some(LastMove {
            before: self.referee.position_after(range.start),
            actions: self.referee.actions()[range.clone()].to_vec(),
            after: self.referee.position_after(range.end),
            before_last: self.referee.position_after(range.end - 1),
        })
    }

    /// The moves one per line, each in full, as `ghast replay` reads them.
    pub fn record(&self) -> String {
        game::moves_in_full(self.referee.start(), self.referee.actions())
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
        Session::new(&GhastOptions::default(), human, 10, 0)
    }

    fn play(session: &mut Session<Ghast>, text: &str) {
        let action = session.game().parse_action(text).unwrap();
        session.play(action).unwrap();
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
        let last = s.last().unwrap();
        assert_eq!(last.before.action_to_string(last.actions[0]), "pass");
        assert_eq!(last.before.position().cells, last.after.position().cells);
    }

    /// In Fakerghast the human is told the bot's pair in public form, a pair half placed is
    /// no move yet, and undo takes back whole moves.
    #[test]
    fn fakerghast_moves_are_whole_and_the_bots_are_public() {
        use ghast::{Fakerghast, RawFakerghastOptions};
        let options = RawFakerghastOptions {
            size: 3,
            fakerghast: Some(1),
            ..RawFakerghastOptions::default()
        }
        .validate()
        .unwrap();
        let mut s = Session::<Fakerghast>::new(&options, Side::Second, 8, 0);
        for text in ["d1:2", "+c1:4", "e1:0", "+e2:5"] {
            let action = s.game().parse_action(text).unwrap();
            s.play(action).unwrap();
        }
        assert_eq!(s.move_texts(), ["c1:4,d1:2", "e1:0+e2:5"]);
        let action = s.game().parse_action("pass").unwrap();
        s.play(action).unwrap();
        assert_eq!(
            s.last().unwrap().actions.len(),
            1,
            "the pass, with orange's reveal"
        );
        assert_eq!(s.move_texts()[2], "pass/d1");
        assert_eq!(s.record(), "d1:2+c1:4\ne1:0+e2:5\npass\n");
        assert_eq!(s.undo(), 1 + 2, "orange's pass and blue's pair");
        assert_eq!(s.undo(), 2, "orange's pair, back to the start");
        assert!(s.move_texts().is_empty());
    }
}
