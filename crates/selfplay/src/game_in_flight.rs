use crate::resign_calibration::TriggerLevels;
use game::{Game, Referee, Side};
use mcts::ResignWatch;
use replay::{GameRecord, Handicapped, MoveRecord, ResignPlaythrough};

/// The record of one game being played, kept beside its search tree.
#[derive(Debug, Default)]
pub struct GameInFlight {
    pub moves: Vec<MoveRecord>,
    /// Decisions made so far (chance's outcomes in `moves` not counted): the temperature
    /// schedule's clock.
    pub decisions: u32,
    /// Whether the search now running for the next move is a full one.
    pub full_search: bool,
    pub watch: ResignWatch,
    /// This game never resigns; it records who would have instead.
    pub playthrough: bool,
    pub would_have_resigned: Option<ResignPlaythrough>,
    /// Where each side would have resigned, for calibrating the threshold.
    pub trigger_levels: TriggerLevels,
    /// The model generation playing the game (the newest one that played a move of it).
    pub generation: u32,
    /// The board it is played on ([`crate::Boards`]; 0: the run's own).
    pub board: usize,
    /// The side that plays with the handicap in this game, if it is a handicap game, and
    /// the share of its decisions that are random.
    pub handicap: Option<(Side, f64)>,
}

impl GameInFlight {
    /// Closes the game, which `referee` says is over, and hands its record over, leaving
    /// `self` empty.
    pub fn finish<G: Game>(&mut self, referee: &Referee<G>) -> GameRecord {
        let ending = referee.ending().expect("a game that is over");
        GameRecord {
            generation: self.generation,
            moves: std::mem::take(&mut self.moves),
            outcome: ending.outcome,
            end_reason: ending.reason,
            final_position: referee.game().position_text(),
            resign_playthrough: self.would_have_resigned.take(),
            handicap: self.handicap.map(|(side, rate)| Handicapped {
                side,
                random_decisions: rate as f32,
            }),
        }
    }
}
