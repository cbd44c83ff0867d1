//! Turning sampled positions of game records into training examples.
//!
//! A record holds moves, not tensors: the example for move `i` comes from replaying the game
//! with the fast rules. A random symmetry is applied by mapping every action through
//! [`Game::transform_action`] before it is played, so the position, the policy target and the
//! final board all come out transformed together, with no plane-level bookkeeping.

use game::Planes;
use replay::GameRecord;

/// One position and what the network should have predicted there, all from the point of view
/// of the side to move.
pub struct Example<G> {
    pub position: G,
    /// The search's policy target over (transformed) actions.
    pub policy: Vec<(usize, f32)>,
    /// Index of the final result in a win/draw/loss triple.
    pub wdl_index: usize,
    /// The mover's final score minus the opponent's.
    pub lead: f32,
    /// Final owner of each cell, +1 the mover's.
    pub ownership: Vec<f32>,
}

/// Replays `record` under symmetry `symmetry` and returns the example for `move_index`.
///
/// Fails, naming the move, when the record does not replay (a record of other options, or a
/// damaged one): the caller skips it rather than training on garbage.
pub fn example_at<G: Planes>(
    options: &G::Options,
    record: &GameRecord,
    move_index: usize,
    symmetry: usize,
) -> Result<Example<G>, String> {
    let mut game = G::new(options);
    let mut example = None;
    for (index, played) in record.moves.iter().enumerate() {
        let action = game.transform_action(symmetry, played.action as usize);
        if !game.is_legal(action) {
            return Err(format!(
                "move {} ({}) is illegal when replayed",
                index + 1,
                game.action_to_string(action)
            ));
        }
        if index == move_index {
            let total: u32 = played.policy.iter().map(|&(_, weight)| weight).sum();
            let policy = played
                .policy
                .iter()
                .map(|&(action, weight)| {
                    let action = game.transform_action(symmetry, action as usize);
                    (action, weight as f32 / total.max(1) as f32)
                })
                .collect();
            example = Some((game.clone(), policy));
        }
        game.apply(action);
    }
    let (position, policy) = example.ok_or_else(|| {
        format!(
            "move {} is past the end of a {}-move game",
            move_index + 1,
            record.moves.len()
        )
    })?;
    let mover = position.to_move();
    let mut ownership = vec![0.0; position.plane_shape().cells()];
    game.ownership(mover, &mut ownership);
    Ok(Example {
        wdl_index: record.outcome.wdl_index_for(mover),
        lead: game.score(mover) - game.score(mover.other()),
        position,
        policy,
        ownership,
    })
}
