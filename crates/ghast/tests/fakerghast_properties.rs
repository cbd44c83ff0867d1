//! Property tests of Fakerghast over random games: what a side sees never depends on which
//! tile of an opponent pair is real, and the board's symmetries hold as in Ghast.

use game::{BoardView, Game, Planes, Side};
use ghast::fakerghast::{Move, RawFakerghastOptions};
use ghast::symmetry::map_orientation;
use ghast::{Fakerghast, FakerghastOptions};
use hexgrid::map_cell;
use proptest::prelude::*;

/// Random options of both variants on sizes 3..=7 (so both bit-set widths play) and a random
/// game: each choice picks one of the legal decisions.
fn options_and_choices() -> impl Strategy<Value = (FakerghastOptions, Vec<u32>)> {
    (
        3i64..=7,
        0i64..=3,
        0i64..=3,
        prop::collection::vec(any::<u32>(), 1..240),
    )
        .prop_map(|(size, delay, fakes, choices)| {
            let raw = RawFakerghastOptions {
                size,
                win_margin: 2 * size,
                fakerghast: Some(delay),
                fakes: if delay == 0 {
                    [fakes + 1, fakes]
                } else {
                    [0, 0]
                },
                ..RawFakerghastOptions::default()
            };
            (raw.validate().unwrap(), choices)
        })
}

/// Plays the game the choices describe; returns it and the moves of its finished turns.
fn play(options: &FakerghastOptions, choices: &[u32]) -> (Fakerghast, Vec<Move>) {
    let mut game = Fakerghast::new(options);
    let (mut legal, mut moves) = (Vec::new(), Vec::new());
    for &choice in choices {
        game.legal_actions(&mut legal);
        if legal.is_empty() {
            break;
        }
        game.apply(legal[choice as usize % legal.len()]);
        if game.pending().is_none() {
            moves.push(
                game.last_move()
                    .expect("a decision without a pending tile ends a turn"),
            );
        }
    }
    (game, moves)
}

/// How many pairs of `owner` are still face down in `game`, read from the full position
/// string's pair tokens.
fn hidden_pairs(game: &Fakerghast, owner: Side) -> usize {
    let letter = if owner == Side::First { 'o' } else { 'b' };
    game.full_text()
        .split_whitespace()
        .skip(3)
        .filter(|token| token.starts_with(letter))
        .count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The twin game plays the same moves but with the real and fake tile swapped in every
    /// pair of `owner` that is still face down at the end. Until the end, the other side sees
    /// the same: its view, every public move, its planes and legal decisions; and its sample of
    /// the hidden truth makes both games one state.
    #[test]
    fn what_a_side_sees_never_depends_on_the_other_sides_hidden_choice(
        (options, choices) in options_and_choices(),
        owner_first in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let owner = if owner_first { Side::First } else { Side::Second };
        let viewer = owner.other();
        let (game, moves) = play(&options, &choices);
        let hidden = hidden_pairs(&game, owner);
        // Pairs are revealed oldest first, so the owner's pairs still hidden are its last ones.
        let owners_pairs: Vec<usize> = (0..moves.len())
            .filter(|&turn| (turn % 2 == 0) == (owner == Side::First))
            .filter(|&turn| matches!(moves[turn], Move::Pair { .. }))
            .collect();
        let still_hidden = &owners_pairs[owners_pairs.len() - hidden..];
        let mut original = Fakerghast::new(&options);
        let mut twin = Fakerghast::new(&options);
        for (turn, &played) in moves.iter().enumerate() {
            let swapped = match played {
                Move::Pair { real, fake } if still_hidden.contains(&turn) => {
                    Move::Pair { real: fake, fake: real }
                }
                other => other,
            };
            original.apply_move(played);
            twin.apply_move(swapped);
            prop_assert_eq!(original.last_move_public(), twin.last_move_public());
            prop_assert_eq!(original.view_text(viewer), twin.view_text(viewer));
            prop_assert_eq!(original.result(), twin.result());
        }
        prop_assert_eq!(original.full_text(), game.full_text());
        if original.outcome().is_none() && original.pending().is_none() && original.to_move() == viewer {
            let shape = original.plane_shape();
            let (mut planes, mut twin_planes) = (vec![0.0; shape.len()], vec![0.0; shape.len()]);
            original.encode(&mut planes);
            twin.encode(&mut twin_planes);
            prop_assert_eq!(planes, twin_planes);
            let (mut legal, mut twin_legal) = (Vec::new(), Vec::new());
            original.legal_actions(&mut legal);
            twin.legal_actions(&mut twin_legal);
            prop_assert_eq!(legal, twin_legal);
            original.sample_hidden(seed);
            twin.sample_hidden(seed);
            prop_assert_eq!(original.full_text(), twin.full_text());
            prop_assert_eq!(original.hash(), twin.hash());
        }
    }

    /// A game played with every decision mapped by a symmetry stays the mapped image of the
    /// original: each tile, face up or down, on the mapped hex in the mapped orientation, the
    /// same result, and the planes and legal decisions mapped alike.
    #[test]
    fn rotated_and_mirrored_games_give_transformed_positions(
        (options, choices) in options_and_choices(),
        sym_choice in any::<usize>(),
    ) {
        let start = Fakerghast::new(&options);
        let sym = sym_choice % start.symmetry_count();
        let geometry = options.ghast().geometry();
        let shift = options.ghast().tile().mirror_shift().map_or(0, usize::from);
        let (mut original, mut image) = (start.clone(), start.clone());
        let mut legal = Vec::new();
        for &choice in &choices {
            original.legal_actions(&mut legal);
            if legal.is_empty() {
                break;
            }
            let action = legal[choice as usize % legal.len()];
            let mapped = start.transform_action(sym, action);
            prop_assert!(image.is_legal(mapped), "{} maps to illegal {}", original.action_to_string(action), image.action_to_string(mapped));
            original.apply(action);
            image.apply(mapped);
            prop_assert_eq!(original.result(), image.result());
        }
        let viewer = original.to_move();
        let (board, mapped_board) = (original.board(viewer), image.board(viewer));
        for cell in &board.cells {
            let index = geometry.cell(cell.x, cell.y);
            let to = geometry.hex_name(map_cell(geometry, sym, index));
            let other = mapped_board.cells.iter().find(|c| c.name == to).unwrap();
            prop_assert_eq!(
                cell.tile.as_ref().map(|t| (t.colour, map_orientation(sym, t.orientation, shift))),
                other.tile.as_ref().map(|t| (t.colour, t.orientation))
            );
            prop_assert_eq!(
                cell.face_down.as_ref().map(|t| (t.colour, map_orientation(sym, t.orientation, shift), t.turns_left, t.real)),
                other.face_down.as_ref().map(|t| (t.colour, t.orientation, t.turns_left, t.real))
            );
            prop_assert_eq!(cell.open, other.open);
        }
        let shape = original.plane_shape();
        let (mut planes, mut mapped_planes) = (vec![0.0; shape.len()], vec![0.0; shape.len()]);
        original.encode(&mut planes);
        image.encode(&mut mapped_planes);
        let cells = shape.cells();
        for plane in 0..shape.channels {
            let base = [0, 6, 12, 19, 30].into_iter().find(|&b| (b..b + 6).contains(&plane));
            let mapped_plane = base.map_or(plane, |b| b + map_orientation(sym, plane - b, shift));
            for cell in geometry.on_board_cells() {
                let to = map_cell(geometry, sym, cell);
                prop_assert_eq!(planes[plane * cells + cell], mapped_planes[mapped_plane * cells + to], "plane {} under symmetry {}", plane, sym);
            }
        }
    }
}
