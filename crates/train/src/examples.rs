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
    /// The search's value of the position (its root value, in [-1, 1]), which
    /// `[training] search_value_share` mixes into the value target.
    pub search_value: f32,
    /// The mover's score minus the opponent's: at the game's end, or `lead_horizon` moves
    /// after the position (see [`example_at`]).
    pub lead: f32,
    /// Final owner of each cell, +1 the mover's.
    pub ownership: Vec<f32>,
}

/// Replays `record` under symmetry `symmetry` and returns the example for `move_index`.
///
/// The lead target is the score difference at the game's end (KataGo's final score) when
/// `lead_horizon` is 0, else `lead_horizon` moves after the position (or at the end, if that
/// comes first): a game whose score is material, taken and lost all game long (Ghost Chess),
/// gets a target that says what a move wins or loses soon, instead of one blurred by
/// everything that happens up to the end.
///
/// Fails, naming the move, when the record does not replay (a record of other options, or a
/// damaged one): the caller skips it rather than training on garbage.
pub fn example_at<G: Planes>(
    options: &G::Options,
    record: &GameRecord,
    move_index: usize,
    symmetry: usize,
    lead_horizon: usize,
) -> Result<Example<G>, String> {
    let mut game = G::new(options);
    let mut example = None;
    let mut lead = None;
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
            example = Some((game.clone(), policy, played.root_value.clamp(-1.0, 1.0)));
        }
        game.apply(action);
        if let Some((position, ..)) = &example
            && lead_horizon > 0
            && index + 1 == move_index + lead_horizon
        {
            lead = Some(game.score_lead(position.to_move()));
        }
    }
    let (position, policy, search_value) = example.ok_or_else(|| {
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
        search_value,
        lead: lead.unwrap_or_else(|| game.score_lead(mover)),
        position,
        policy,
        ownership,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{Game, Outcome, Side};
    use ghast::{Ghast, RawOptions};
    use replay::MoveRecord;

    /// A game of Ghast on a small board, its first legal move each turn, to its end.
    fn first_moves(options: &ghast::GhastOptions) -> (GameRecord, Vec<Ghast>) {
        let mut game = Ghast::new(options);
        let (mut moves, mut positions, mut legal) = (Vec::new(), vec![game.clone()], Vec::new());
        while game.outcome().is_none() {
            game.legal_actions(&mut legal);
            let action = legal[legal.len() / 2];
            game.apply(action);
            moves.push(MoveRecord::unsearched(action, false));
            positions.push(game.clone());
        }
        let record = GameRecord {
            generation: 0,
            moves,
            outcome: game.outcome().unwrap_or(Outcome::Draw),
            end_reason: "margin".into(),
            final_position: game.position_text(),
            resign_playthrough: None,
            handicap: None,
        };
        (record, positions)
    }

    /// A size-3 board whose margin no one reaches, so that its games run to the end.
    fn unwinnable_small_board() -> ghast::GhastOptions {
        RawOptions {
            size: 3,
            win_margin: 30,
            ..RawOptions::default()
        }
        .validate()
        .unwrap()
    }

    /// The lead target is the mover's score lead `lead_horizon` moves on, or at the end when
    /// the horizon is 0 or runs past it.
    #[test]
    fn the_lead_is_read_at_the_horizon_or_at_the_end() {
        let options = unwinnable_small_board();
        let (record, positions) = first_moves(&options);
        let last = positions.len() - 1;
        assert!(last > 6, "a game of {last} moves");
        let lead =
            |position: &Ghast, mover: Side| position.score(mover) - position.score(mover.other());
        for index in [0, 2, 5] {
            let mover = positions[index].to_move();
            let read = |horizon| {
                example_at::<Ghast>(&options, &record, index, 0, horizon)
                    .unwrap()
                    .lead
            };
            assert_eq!(read(0), lead(&positions[last], mover));
            assert_eq!(read(3), lead(&positions[index + 3], mover));
            assert_eq!(read(last + 10), lead(&positions[last], mover));
        }
        let changes = (0..last - 3)
            .filter(|&i| {
                let mover = positions[i].to_move();
                lead(&positions[i + 3], mover) != lead(&positions[last], mover)
            })
            .count();
        assert!(
            changes > 0,
            "the horizon's lead differs from the final one somewhere"
        );
    }

    /// An example's search value is the root value recorded with its move, clamped to [-1, 1]
    /// (a search that adds a score term to its values may stray past them).
    #[test]
    fn the_search_value_is_the_root_value_of_the_positions_move() {
        let options = unwinnable_small_board();
        let (mut record, _) = first_moves(&options);
        for (index, played) in record.moves.iter_mut().enumerate() {
            played.root_value = index as f32 * 0.5 - 1.5;
        }
        let value = |index| {
            example_at::<Ghast>(&options, &record, index, 0, 0)
                .unwrap()
                .search_value
        };
        assert!(record.moves.len() > 6, "{} moves", record.moves.len());
        assert_eq!(value(0), -1.0, "-1.5 clamped");
        assert_eq!(value(2), -0.5);
        assert_eq!(value(6), 1.0, "1.5 clamped");
    }
}
