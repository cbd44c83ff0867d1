//! Property tests of Ghast over random games of every size, beyond the suite every game runs
//! (tests/conformance.rs): a game mapped by a symmetry gives the mapped positions, every tile
//! has oxygen after every move (checked against a slow, cell-by-cell reference), and planes
//! and policy indices commute with the symmetries.

use game::{Game, Side};
use ghast::{Ghast, GhastOptions, Piece, Position, RawOptions, Tile};
use proptest::prelude::*;

/// Random options (every size, so both bit-set widths play) and a random game under them:
/// at each step the choice picks one of the legal actions.
fn options_and_choices() -> impl Strategy<Value = (GhastOptions, Vec<u32>)> {
    (
        2i64..=7,
        0i64..=2,
        0i64..=2,
        prop::collection::vec(any::<u32>(), 1..300),
    )
        .prop_map(|(size, o, b, choices)| {
            let raw = RawOptions {
                size,
                win_margin: 2 * size,
                vetoes: [o, b],
                ..RawOptions::default()
            };
            (raw.validate().unwrap(), choices)
        })
}

/// Plays the game the choices describe; calls `visit` with each action and the state after it.
fn play(options: &GhastOptions, choices: &[u32], mut visit: impl FnMut(usize, &Ghast)) {
    let mut game = Ghast::new(options);
    let mut legal = Vec::new();
    for &choice in choices {
        game.legal_actions(&mut legal);
        if legal.is_empty() {
            break;
        }
        let action = legal[choice as usize % legal.len()];
        game.apply(action);
        visit(action, &game);
    }
}

/// Aliveness by the words of RULES.md section 5, one hex at a time.
fn reference_alive(position: &Position, tile: &Tile) -> Vec<bool> {
    let g = position.geometry;
    let coupler = |piece: Piece, d: usize| {
        tile.couplers
            .iter()
            .any(|&k| (piece.orientation + usize::from(k)) % 6 == d)
    };
    let mut alive = vec![false; position.cells.len()];
    let mut stack: Vec<usize> = g
        .on_board_cells()
        .filter(|&cell| {
            position.cells[cell].is_some_and(|piece| {
                (0..6).any(|d| {
                    coupler(piece, d)
                        && g.neighbour(cell, d, 1)
                            .is_some_and(|n| position.cells[n].is_none())
                })
            })
        })
        .collect();
    while let Some(cell) = stack.pop() {
        if std::mem::replace(&mut alive[cell], true) {
            continue;
        }
        let piece = position.cells[cell].unwrap();
        for d in 0..6 {
            let back = (d + 3) % 6;
            let friend_at = |steps: i32| {
                let n = g.neighbour(cell, d, steps)?;
                position.cells[n]
                    .filter(|other| other.side == piece.side)
                    .map(|other| (n, other))
            };
            let coupled = |&(_, other): &(usize, Piece)| coupler(piece, d) && coupler(other, back);
            if let Some((n, _)) = friend_at(1).filter(coupled) {
                stack.push(n);
            }
            let shoots = (piece.orientation + usize::from(tile.ranged)) % 6 == d;
            let receives = |&(_, other): &(usize, Piece)| {
                (other.orientation + usize::from(tile.receiver)) % 6 == back
            };
            if let Some((n, _)) = friend_at(2).filter(|found| shoots && receives(found)) {
                stack.push(n);
            }
        }
    }
    alive
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn rotated_and_mirrored_games_give_transformed_positions((options, choices) in options_and_choices()) {
        let mirror_shift = usize::from(options.tile().mirror_shift().unwrap());
        for sym in [1, 6, 9] {
            let mut image = Ghast::new(&options);
            play(&options, &choices, |action, game| {
                let mapped = image.transform_action(sym, action);
                assert!(image.is_legal(mapped), "sym {sym}: {} maps to illegal {}", game.action_to_string(action), image.action_to_string(mapped));
                image.apply(mapped);
                assert_eq!(image.position(), game.position().transformed(sym, mirror_shift), "sym {sym}");
                assert_eq!(image.result(), game.result());
            });
        }
    }

    #[test]
    fn every_tile_has_oxygen_after_every_move((options, choices) in options_and_choices()) {
        play(&options, &choices, |action, game| {
            let position = game.position();
            let alive = reference_alive(&position, options.tile());
            for cell in options.geometry().on_board_cells() {
                if position.cells[cell].is_some() {
                    assert!(alive[cell], "{} starved after {} in {position}", options.geometry().hex_name(cell), game.action_to_string(action));
                }
            }
            let counts: usize = Side::BOTH.iter().map(|&s| game.tile_count(s) as usize).sum();
            assert_eq!(counts, position.cells.iter().flatten().count());
        });
    }
}

proptest! {
    /// The network sees symmetric positions symmetrically: encode(transform(p)) equals
    /// transform(encode(p)), cells moved and orientation planes permuted, and the legal
    /// actions map onto each other.
    #[test]
    fn planes_and_policy_indices_commute_with_symmetries(
        (options, choices) in options_and_choices(),
        sym_choice in any::<usize>(),
    ) {
        use game::Planes;
        let start = Ghast::new(&options);
        let sym = sym_choice % start.symmetry_count();
        let mut played = Vec::new();
        play(&options, &choices, |action, _| played.push(action));
        let (mut original, mut mapped) = (Ghast::new(&options), Ghast::new(&options));
        for &action in &played {
            original.apply(action);
            mapped.apply(start.transform_action(sym, action));
        }
        let shape = original.plane_shape();
        let (mut planes, mut mapped_planes) = (vec![0.0; shape.len()], vec![0.0; shape.len()]);
        original.encode(&mut planes);
        mapped.encode(&mut mapped_planes);
        let geometry = options.geometry();
        let shift = options.tile().mirror_shift().map_or(0, usize::from);
        let cells = shape.cells();
        for plane in 0..shape.channels {
            let mapped_plane = match plane {
                0..=11 | 15..=20 => {
                    let base = if plane < 6 { 0 } else if plane < 12 { 6 } else { 15 };
                    base + ghast::symmetry::map_orientation(sym, plane - base, shift)
                }
                _ => plane,
            };
            for cell in geometry.on_board_cells() {
                let to = hexgrid::map_cell(geometry, sym, cell);
                prop_assert_eq!(
                    planes[plane * cells + cell],
                    mapped_planes[mapped_plane * cells + to],
                    "plane {} cell {} under symmetry {}", plane, cell, sym
                );
            }
        }
        let (mut legal, mut mapped_legal) = (Vec::new(), Vec::new());
        original.legal_actions(&mut legal);
        mapped.legal_actions(&mut mapped_legal);
        prop_assert_eq!(legal.len(), mapped_legal.len());
        for action in legal {
            prop_assert!(mapped.is_legal(start.transform_action(sym, action)));
        }
    }
}
