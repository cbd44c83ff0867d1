use super::Player;
use crate::config::SearchConfig;
use crate::search::Search;
use game::Evaluator;
use game::Game;

/// PUCT search guided by any evaluator (a network, or [`crate::UniformEvaluator`]), with a
/// fixed visit budget per move and the most visited move played.
#[derive(Debug)]
pub struct MctsPlayer<G: Game, E> {
    name: String,
    search: Search<G>,
    evaluator: E,
    visits: u32,
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
        }
    }
}

impl<G: Game, E: Evaluator<G>> Player<G> for MctsPlayer<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G) -> usize {
        self.search
            .run(game, &mut self.evaluator, self.visits)
            .action
    }

    fn observe(&mut self, action: usize) {
        self.search.advance(action);
    }

    fn reset(&mut self) {
        self.search.clear();
    }
}
