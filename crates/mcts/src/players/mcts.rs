use super::Player;
use crate::config::SearchConfig;
use crate::search::Search;
use game::Evaluator;
use game::Game;

/// PUCT search guided by an evaluator that runs on the caller's thread and has no device to
/// fail ([`crate::UniformEvaluator`], [`crate::RolloutEvaluator`]), with a fixed visit budget
/// per move and the most visited move played. (A network's search is `play::Bot`, an agent
/// that reports a failed device.) A decision with one legal
/// action is played without a search: in a dice game most forced passes and single-disc
/// choices would otherwise each cost a full budget of visits (or of UCT's playouts) that
/// cannot change the move.
#[derive(Debug)]
pub struct MctsPlayer<G: Game, E> {
    name: String,
    search: Search<G>,
    evaluator: E,
    visits: u32,
    legal: Vec<usize>,
}

impl<G: Game, E: Evaluator<G>> MctsPlayer<G, E> {
    pub fn new(
        name: impl Into<String>,
        evaluator: E,
        config: SearchConfig,
        visits: u32,
        seed: u64,
    ) -> Self {
        Self {
            name: name.into(),
            search: Search::new(config, seed),
            evaluator,
            visits,
            legal: Vec::new(),
        }
    }
}

impl<G: Game, E: Evaluator<G>> Player<G> for MctsPlayer<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G) -> usize {
        game.legal_actions(&mut self.legal);
        if let [only] = self.legal[..] {
            return only;
        }
        self.search
            .run(game, &mut self.evaluator, self.visits)
            .expect("a player's evaluator has no device to fail")
            .action
    }

    fn observe(&mut self, action: usize) {
        self.search.advance(action);
    }

    fn reset(&mut self) {
        self.search.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::Nim;
    use game::{DeviceError, Evaluation, Game};

    /// Counts the positions it is asked to judge.
    struct Counting(usize);

    impl Evaluator<Nim> for Counting {
        fn evaluate(
            &mut self,
            positions: &[&Nim],
            out: &mut [Evaluation],
        ) -> Result<(), DeviceError> {
            self.0 += positions.len();
            crate::UniformEvaluator.evaluate(positions, out)
        }
    }

    #[test]
    fn a_forced_decision_is_played_without_a_search_and_a_real_one_is_searched() {
        let mut player = MctsPlayer::new("count", Counting(0), SearchConfig::play(), 16, 1);
        // One stone left: taking it is the only legal action.
        assert_eq!(player.choose(&Nim::start(1, 3, None)), Nim::take(1));
        assert_eq!(
            player.evaluator.0, 0,
            "no position judged for a forced move"
        );
        let open = Nim::start(5, 3, None);
        let action = player.choose(&open);
        assert!(open.is_legal(action));
        assert!(player.evaluator.0 > 0, "a real choice is searched");
    }
}
