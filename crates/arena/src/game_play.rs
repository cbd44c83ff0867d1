//! One game between two agents from a given opening, and the random openings themselves.

use crate::agent::{Agent, AgentFailure, Choice};
use game::{Game, Outcome, Side};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// How a game ended, from the board's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    pub outcome: Outcome,
    /// The rules' end reason (`margin`, `passes`, ...), or `resign` or `forfeit`.
    pub reason: String,
    /// Why an agent forfeited (crashed, refused a move, played an illegal one).
    pub forfeit: Option<String>,
}

/// `moves` random legal actions from the start, never one that ends the game, so every
/// opening leaves a game to play; shorter only if every move would end it, longer by the
/// actions that finish a move of several ([`Game::mid_move`]), so that every side is told
/// whole moves.
pub fn random_opening<G: Game>(options: &G::Options, moves: usize, seed: u64) -> Vec<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = G::new(options);
    let (mut legal, mut opening) = (Vec::new(), Vec::with_capacity(moves));
    while opening.len() < moves || game.mid_move() {
        game.legal_actions(&mut legal);
        legal.retain(|&action| {
            let mut after = game.clone();
            after.apply(action);
            after.outcome().is_none()
        });
        let Some(&action) = legal.choose(&mut rng) else {
            break;
        };
        game.apply(action);
        opening.push(action);
    }
    opening
}

/// Plays `opening`, then lets `first` and `second` choose for their sides until the game
/// ends. Returns the actions played (opening included) and the ending. A failing agent loses.
pub fn play_game<G: Game>(
    options: &G::Options,
    opening: &[usize],
    first: &mut dyn Agent<G>,
    second: &mut dyn Agent<G>,
) -> (Vec<usize>, Ending) {
    let mut game = G::new(options);
    let mut moves = Vec::new();
    let ending = play_moves(&mut game, opening, [first, second], &mut moves).unwrap_or_else(
        |(side, why)| Ending {
            outcome: Outcome::Win(side.other()),
            reason: "forfeit".to_owned(),
            forfeit: Some(why.0),
        },
    );
    (moves, ending)
}

/// The game loop; an error names the side that failed.
fn play_moves<G: Game>(
    game: &mut G,
    opening: &[usize],
    agents: [&mut dyn Agent<G>; 2],
    moves: &mut Vec<usize>,
) -> Result<Ending, (Side, AgentFailure)> {
    for side in Side::BOTH {
        agents[side.index()]
            .new_game(game.options(), side)
            .map_err(|why| (side, why))?;
    }
    let mut next = opening.iter().copied();
    loop {
        if let Some(outcome) = game.outcome() {
            let reason = game.end_reason().unwrap_or("ended").to_owned();
            return Ok(Ending {
                outcome,
                reason,
                forfeit: None,
            });
        }
        let mover = game.to_move();
        let action = match next.next() {
            Some(action) => action,
            None => match agents[mover.index()].choose(game) {
                Ok(Choice::Play(action)) if game.is_legal(action) => action,
                Ok(Choice::Play(action)) => {
                    let text = game.action_to_string(action);
                    return Err((
                        mover,
                        AgentFailure(format!("played the illegal move `{text}`")),
                    ));
                }
                Ok(Choice::Resign) => {
                    return Ok(Ending {
                        outcome: Outcome::Win(mover.other()),
                        reason: "resign".to_owned(),
                        forfeit: None,
                    });
                }
                Err(why) => return Err((mover, why)),
            },
        };
        for side in Side::BOTH {
            agents[side.index()]
                .observe(game, action)
                .map_err(|why| (side, why))?;
        }
        game.apply(action);
        moves.push(action);
    }
}
