//! The referee between two agents in a game whose turns hand decisions to the opponent (a
//! Respawn or extra move in Black's turn, the Knights' captures in White's): each agent is
//! asked only for its own side's decisions (or, if it decides whole moves as a GTP engine
//! does, for every decision of its own turns), and hears every action once, in order.

use game::{Agent, AgentFailure, ChanceStream, Choice, Game, Opening, Referee, Side, play_game};
use ghostchess::{GhostChess, GhostChessOptions};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// Random decisions (rarely a Transcend), checking what it is asked and keeping what it hears.
struct Checking {
    side: Side,
    /// Whether it says it decides whole moves ([`Agent::whole_moves`]).
    whole_moves: bool,
    /// Whether it is asked for whole moves: when either agent decides them, both are.
    asked_whole_moves: bool,
    rng: SmallRng,
    heard: Vec<usize>,
    /// The game as the agent follows it from what it hears.
    follows: Option<GhostChess>,
    handed_over: usize,
}

impl Agent<GhostChess> for Checking {
    fn new_game(&mut self, _: &GhostChessOptions, side: Side) -> Result<(), AgentFailure> {
        self.side = side;
        Ok(())
    }

    fn choose(&mut self, game: &GhostChess) -> Result<Choice, AgentFailure> {
        if self.asked_whole_moves {
            assert_eq!(game.mover(), self.side, "asked in the other's turn");
        } else {
            assert_eq!(
                game.to_move(),
                self.side,
                "asked for the other side's decision"
            );
        }
        let follows = self.follows.as_ref().expect("a start");
        assert_eq!(
            follows.hash(),
            game.hash(),
            "asked before hearing the game so far"
        );
        if game.mid_move() && game.mover() != game.decider() {
            self.handed_over += 1;
        }
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        if game.is_legal(ghostchess::NO) && self.rng.random_range(0..10) > 0 {
            return Ok(Choice::Play(ghostchess::NO));
        }
        Ok(Choice::Play(*legal.choose(&mut self.rng).unwrap()))
    }

    fn observe_action(&mut self, action: usize) -> Result<(), AgentFailure> {
        self.heard.push(action);
        self.follows.as_mut().unwrap().apply(action);
        Ok(())
    }

    fn whole_moves(&self) -> bool {
        self.whole_moves
    }
}

#[test]
fn each_agent_decides_only_for_its_side_and_hears_every_action_once_in_order() {
    let handed_over = play_checked_games([false, false]);
    assert!(handed_over > 0, "no turn handed a decision to the opponent");
}

/// With an agent that decides whole moves, the side beginning a move decides all of it; each
/// agent must still hear the other's actions (an in-process search beside a GTP engine once
/// was not told the engine's moves, lost track of the game and, asked a forced move without a
/// search, applied it to its stale position).
#[test]
fn beside_an_agent_deciding_whole_moves_each_still_hears_every_action_once_in_order() {
    play_checked_games([true, false]);
    play_checked_games([false, true]);
    play_checked_games([true, true]);
}

/// Plays 200 random games, each agent deciding whole moves or not as `whole_moves` says, and
/// checks each heard every action once, in order. Returns how many decisions an agent was
/// asked for in the other side's turn.
fn play_checked_games(whole_moves: [bool; 2]) -> usize {
    let options = GhostChessOptions::default();
    let shadow = "2R2N2/8/3q1n2/8/8/P7/8/2B2B1R b - - - 0 11";
    let mut handed_over = 0;
    for seed in 0..200 {
        let start = if seed % 2 == 0 {
            GhostChess::new(&options)
        } else {
            GhostChess::from_position(&options, shadow).unwrap()
        };
        let agent = |k: u64| Checking {
            side: Side::First,
            whole_moves: whole_moves[k as usize],
            asked_whole_moves: whole_moves.contains(&true),
            rng: SmallRng::seed_from_u64(seed * 2 + k),
            heard: Vec::new(),
            follows: Some(start.clone()),
            handed_over: 0,
        };
        let (mut white, mut black) = (agent(0), agent(1));
        let mut referee = Referee::new(start.clone());
        play_game(
            &mut referee,
            [&mut white, &mut black],
            Opening::NONE,
            &mut ChanceStream::new(seed),
        )
        .expect("agents without a device");
        assert!(referee.game().outcome().is_some());
        assert_eq!(white.heard, referee.actions());
        assert_eq!(black.heard, referee.actions());
        handed_over += white.handed_over + black.handed_over;
    }
    handed_over
}
