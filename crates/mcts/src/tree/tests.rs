use super::*;
use crate::batch::Batch;
use crate::config::{Formula, MoveChoice};
use crate::evaluator::UniformEvaluator;
use crate::toy::Nim;
use game::{DeviceError, Evaluation, Evaluator};

/// Uniform values of zero with a fixed policy, counting the positions it is asked about.
#[derive(Default)]
struct Scripted {
    policy: Vec<f32>,
    positions: usize,
}

impl Evaluator<Nim> for Scripted {
    fn evaluate(&mut self, positions: &[&Nim], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        self.positions += positions.len();
        if self.policy.is_empty() {
            return UniformEvaluator.evaluate(positions, out);
        }
        for evaluation in out.iter_mut() {
            evaluation.policy.clone_from(&self.policy);
            evaluation.value = 0.0;
        }
        Ok(())
    }
}

fn quiet() -> SearchConfig {
    SearchConfig {
        root_noise: false,
        ..SearchConfig::default()
    }
}

/// The minimax value, for the side to move in `game`, of the position the tree's move leads to.
fn value_of_choice(game: &Nim, tree: &Tree<Nim>) -> f32 {
    let mut after = game.clone();
    after.apply(tree.best_action());
    if after.to_move() == game.to_move() {
        after.solve()
    } else {
        -after.solve()
    }
}

fn searched(game: Nim, config: SearchConfig, visits: u32, seed: u64) -> Tree<Nim> {
    searched_by(&mut UniformEvaluator, game, config, visits, seed)
}

fn searched_by(
    evaluator: &mut impl Evaluator<Nim>,
    game: Nim,
    config: SearchConfig,
    visits: u32,
    seed: u64,
) -> Tree<Nim> {
    let mut tree = Tree::new(game, config, seed);
    tree.set_budget(visits);
    Batch::new()
        .run(std::slice::from_mut(&mut tree), evaluator)
        .unwrap();
    tree
}

fn is_uniform(priors: &[f32]) -> bool {
    priors
        .iter()
        .all(|&p| (p - 1.0 / priors.len() as f32).abs() < 1e-6)
}

fn children(tree: &Tree<Nim>) -> Vec<ChildStats> {
    tree.root_children().collect()
}

#[test]
fn takes_a_win_that_ends_the_game_inside_the_tree() {
    let tree = searched(Nim::start(3, 3, None), quiet(), 100, 1);
    assert_eq!(tree.best_action(), Nim::take(3));
    let win = children(&tree)
        .into_iter()
        .find(|c| c.action == Nim::take(3))
        .unwrap();
    assert_eq!(win.value, Some(1.0), "a terminal child has its exact value");
    assert!(tree.root_value() > 0.5, "{}", tree.root_value());
}

#[test]
fn a_move_that_loses_at_once_is_never_chosen_while_another_is_legal() {
    // Misère Nim with two stones: taking both loses at once, taking one wins. The policy puts
    // nearly all its mass on the loss, and with few visits batched 16 at a time the terminal
    // loss gathers the most visits; neither the choice by visits, nor by LCB, nor a draw
    // with a temperature may play it.
    let misere = |stones| {
        Nim::new(&crate::toy::NimOptions {
            stones,
            max_take: 2,
            extra_turn_take: None,
            futile_take: None,
            last_stone_loses: true,
        })
    };
    for move_choice in [MoveChoice::MostVisits, MoveChoice::Lcb] {
        let config = SearchConfig {
            formula: Formula::Puct,
            move_choice,
            ..quiet()
        };
        let mut tree = Tree::new(misere(2), config, 3);
        tree.set_budget(8);
        let mut evaluator = Scripted {
            policy: vec![0.05, 0.95],
            ..Scripted::default()
        };
        Batch::new()
            .run(std::slice::from_mut(&mut tree), &mut evaluator)
            .unwrap();
        let visits = |action| {
            children(&tree)
                .into_iter()
                .find(|child| child.action == action)
                .map_or(0, |child| child.visits)
        };
        assert!(
            visits(Nim::take(2)) > visits(Nim::take(1)),
            "the loss is the most visited ({} against {}), as the test needs",
            visits(Nim::take(2)),
            visits(Nim::take(1))
        );
        assert_eq!(tree.best_action(), Nim::take(1), "{move_choice:?}");
        for _ in 0..20 {
            assert_eq!(tree.choose_action(1.0), Nim::take(1), "{move_choice:?}");
        }
    }
    // With nothing else legal, the losing move is still played.
    let tree = searched(misere(1), quiet(), 8, 3);
    assert_eq!(tree.best_action(), Nim::take(1));
}

#[test]
fn terminal_nodes_are_never_sent_to_the_evaluator() {
    let mut tree = Tree::new(Nim::start(1, 3, None), quiet(), 0);
    tree.set_budget(20);
    let mut evaluator = Scripted::default();
    Batch::new()
        .run(std::slice::from_mut(&mut tree), &mut evaluator)
        .unwrap();
    assert_eq!(evaluator.positions, 1, "only the root");
    assert_eq!(tree.root_visit_count(), 20);
}

#[test]
fn values_follow_the_side_to_move_when_a_side_moves_twice() {
    // Taking two stones gives another turn, so sides do not alternate; the search must agree
    // with minimax on who wins from each start.
    for stones in 2..=9 {
        let game = Nim::start(stones, 3, Some(2));
        let exact = game.solve();
        let tree = searched(game.clone(), quiet(), 3000, 2);
        assert_eq!(
            tree.root_value() > 0.0,
            exact > 0.0,
            "{stones} stones: {}",
            tree.root_value()
        );
        assert_eq!(
            value_of_choice(&game, &tree),
            exact,
            "{stones} stones: the chosen move keeps the minimax value"
        );
    }
}

#[test]
fn batching_without_virtual_loss_gives_the_sequential_tree() {
    let config = SearchConfig {
        virtual_loss: 0,
        leaves_per_tree: 8,
        ..SearchConfig::default()
    };
    let games: Vec<Nim> = (5..13)
        .map(|stones| Nim::start(stones, 4, Some(3)))
        .collect();
    let mut trees: Vec<Tree<Nim>> = games
        .iter()
        .enumerate()
        .map(|(seed, game)| {
            let mut tree = Tree::new(game.clone(), config.clone(), seed as u64);
            tree.set_budget(300);
            tree
        })
        .collect();
    Batch::new().run(&mut trees, &mut UniformEvaluator).unwrap();
    let one_leaf = SearchConfig {
        leaves_per_tree: 1,
        ..config
    };
    for (seed, (game, batched)) in games.into_iter().zip(&trees).enumerate() {
        let alone = searched(game, one_leaf.clone(), 300, seed as u64);
        assert_eq!(children(batched), children(&alone), "tree {seed}");
        assert_eq!(batched.node_count(), alone.node_count());
    }
}

#[test]
fn virtual_loss_spreads_the_leaves_of_one_step() {
    let step_leaves = |virtual_loss| {
        let config = SearchConfig {
            virtual_loss,
            leaves_per_tree: 4,
            ..quiet()
        };
        let mut trees = [Tree::new(Nim::start(20, 6, None), config, 0)];
        trees[0].set_budget(100);
        let mut batch = Batch::new();
        assert_eq!(
            batch.step(&mut trees, &mut UniformEvaluator).unwrap(),
            1,
            "only the root to start with"
        );
        let leaves = batch.step(&mut trees, &mut UniformEvaluator).unwrap();
        let visited = trees[0].root_children().filter(|c| c.visits > 0).count();
        (leaves, visited)
    };
    assert_eq!(
        step_leaves(0),
        (1, 1),
        "without virtual loss the second leaf collides"
    );
    assert_eq!(step_leaves(1), (4, 4));
}

#[test]
fn puct_visits_follow_the_priors_when_values_are_equal() {
    let mut evaluator = Scripted {
        policy: vec![0.1, 0.6, 0.3],
        ..Scripted::default()
    };
    let mut tree = Tree::new(Nim::start(40, 3, None), quiet(), 0);
    tree.set_budget(1001);
    Batch::new()
        .run(std::slice::from_mut(&mut tree), &mut evaluator)
        .unwrap();
    let mut visits = [0u32; 3];
    for child in tree.root_children() {
        visits[child.action] = child.visits;
    }
    assert!(visits[1] > visits[2] && visits[2] > visits[0], "{visits:?}");
    assert!((visits[1] as f32 / 1000.0 - 0.6).abs() < 0.1, "{visits:?}");
}

#[test]
fn first_play_urgency_keeps_the_search_on_checked_moves() {
    let spread = |fpu_reduction| {
        let config = SearchConfig {
            fpu_reduction,
            ..quiet()
        };
        let tree = searched(Nim::start(60, 8, None), config, 30, 0);
        tree.root_children().filter(|c| c.visits > 0).count()
    };
    assert_eq!(
        spread(0.0),
        8,
        "with no reduction the uniform priors try every move"
    );
    assert!(
        spread(1.0) < 8,
        "a large reduction leaves some moves unvisited"
    );
}

#[test]
fn c_puct_log_grows_the_exploration_weight_with_the_visits() {
    let tree = |c_puct_log| {
        let config = SearchConfig {
            c_puct_log,
            ..quiet()
        };
        Tree::new(Nim::start(30, 5, None), config, 0)
    };
    let visits = 4500.0f32;
    // KataGo's weight at 4,500 visits: c_puct + 0.45 ln((4,500 + 500) / 500).
    let expected = (1.1 + 0.45 * 10f32.ln()) * visits.sqrt();
    let grown = tree(0.45).exploration(ROOT, visits);
    assert!(
        (grown - expected).abs() < 1e-3 * expected,
        "{grown} {expected}"
    );
    assert_eq!(tree(0.0).exploration(ROOT, visits), 1.1 * visits.sqrt());
}

/// Values a position +0.9 or -0.9 by the parity of the stones left, so that a move and its
/// replies disagree and the utilities backed up through a node spread widely.
struct ByParity;

impl Evaluator<Nim> for ByParity {
    fn evaluate(&mut self, positions: &[&Nim], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        UniformEvaluator.evaluate(positions, out)?;
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            evaluation.value = if position.stones_left() % 2 == 0 {
                0.9
            } else {
                -0.9
            };
        }
        Ok(())
    }
}

#[test]
fn variance_scaling_explores_where_values_disagree_and_narrows_where_they_agree() {
    let scaled = SearchConfig {
        c_puct_stdev_scale: 0.85,
        ..quiet()
    };
    let visits = 300.0f32;
    let plain_weight = 1.1 * visits.sqrt();
    // Values that disagree from move to move: the weight grows, and moves other than the
    // most visited get more of the visits.
    let disagreeing = |config| {
        let tree = searched_by(
            &mut ByParity,
            Nim::start(400, 8, None),
            config,
            visits as u32,
            0,
        );
        let most = tree.root_children().map(|c| c.visits).max().unwrap();
        (tree.exploration(ROOT, visits), visits as u32 - 1 - most)
    };
    let (plain, plain_others) = disagreeing(quiet());
    let (widened, widened_others) = disagreeing(scaled.clone());
    assert_eq!(plain, plain_weight);
    assert!(widened > 1.5 * plain, "{widened} {plain}");
    assert!(
        widened_others > plain_others,
        "visits off the most visited move: {widened_others} scaled, {plain_others} plain"
    );
    // Every leaf valued 0 (a long game, no end within reach): the utilities agree, and the
    // weight shrinks toward (1 - 0.85) of c_puct as the visits outweigh the prior spread.
    let agreed = searched(Nim::start(400, 8, None), scaled, visits as u32, 0);
    let ratio = agreed.exploration(ROOT, visits) / plain_weight;
    assert!(ratio < 0.3, "{ratio}");
}

#[test]
fn ucb1_tries_every_move_once_before_any_twice() {
    let config = SearchConfig {
        formula: Formula::Ucb1,
        c_puct: 2.0,
        ..quiet()
    };
    let tree = searched(Nim::start(30, 5, None), config, 6, 3);
    let visits: Vec<u32> = tree.root_children().map(|c| c.visits).collect();
    assert_eq!(visits, [1; 5]);
}

#[test]
fn root_noise_is_seeded_and_keeps_a_distribution() {
    let priors = |noise, seed| {
        let config = SearchConfig {
            root_noise: noise,
            ..SearchConfig::default()
        };
        let tree = searched(Nim::start(30, 10, None), config, 1, seed);
        tree.root_children().map(|c| c.prior).collect::<Vec<f32>>()
    };
    assert!(is_uniform(&priors(false, 1)));
    let noisy = priors(true, 1);
    assert!((noisy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    assert!(
        noisy.iter().all(|&p| p >= 0.75 * 0.1 - 1e-6),
        "noise takes at most a quarter"
    );
    assert!(!is_uniform(&noisy));
    assert_eq!(noisy, priors(true, 1));
    assert_ne!(noisy, priors(true, 2));
}

#[test]
fn a_kept_root_gets_fresh_noise() {
    let mut tree = searched(Nim::start(30, 10, None), SearchConfig::default(), 200, 1);
    let action = tree.best_action();
    tree.advance(action);
    let before: Vec<f32> = tree.root_children().map(|c| c.prior).collect();
    assert!(
        is_uniform(&before),
        "priors below the root were never noised"
    );
    tree.set_budget(tree.root_visit_count() + 1);
    Batch::new()
        .run(std::slice::from_mut(&mut tree), &mut UniformEvaluator)
        .unwrap();
    let after: Vec<f32> = tree.root_children().map(|c| c.prior).collect();
    assert!(!is_uniform(&after));
}

#[test]
fn advance_keeps_the_chosen_subtree() {
    let mut tree = searched(Nim::start(12, 3, None), quiet(), 500, 0);
    let best = tree.root_children().max_by_key(|c| c.visits).unwrap();
    tree.advance(best.action);
    assert_eq!(tree.root_visit_count(), best.visits);
    assert_eq!(tree.game().hash(), {
        let mut game = Nim::start(12, 3, None);
        game.apply(best.action);
        game.hash()
    });
    let children_total: u32 = tree.root_children().map(|c| c.visits).sum();
    assert_eq!(
        children_total + 1,
        best.visits,
        "children's visits plus the node's own"
    );
}

#[test]
fn advance_by_an_untried_action_starts_over() {
    let mut tree = searched(Nim::start(30, 10, None), quiet(), 3, 0);
    let untried = tree.root_children().find(|c| c.visits == 0).unwrap().action;
    tree.advance(untried);
    assert_eq!(tree.root_visit_count(), 0);
    assert_eq!(tree.node_count(), 1);
}

#[test]
fn a_finished_game_is_done_at_once() {
    let mut game = Nim::start(2, 3, None);
    game.apply(Nim::take(2));
    let mut trees = [Tree::new(game, quiet(), 0)];
    trees[0].set_budget(10);
    assert!(trees[0].is_done());
    assert_eq!(
        Batch::new()
            .step(&mut trees, &mut UniformEvaluator)
            .unwrap(),
        0
    );
}

#[test]
fn temperature_zero_plays_the_most_visited_move() {
    let mut tree = searched(Nim::start(9, 3, None), quiet(), 400, 0);
    let most = tree
        .root_children()
        .max_by_key(|c| c.visits)
        .unwrap()
        .action;
    assert_eq!(tree.choose_action(0.0), most);
}

#[test]
fn temperature_one_samples_in_proportion_to_visits() {
    let mut tree = searched(Nim::start(40, 3, None), quiet(), 300, 0);
    let mut visits = [0u32; 3];
    for child in tree.root_children() {
        visits[child.action] = child.visits;
    }
    let total: u32 = visits.iter().sum();
    let mut drawn = [0u32; 3];
    for _ in 0..6000 {
        drawn[tree.choose_action(1.0)] += 1;
    }
    for (action, (&v, &d)) in visits.iter().zip(&drawn).enumerate() {
        let expected = v as f32 / total as f32;
        assert!(
            (d as f32 / 6000.0 - expected).abs() < 0.03,
            "action {action}: {drawn:?} vs {visits:?}"
        );
    }
    let mut tree = searched(Nim::start(3, 3, None), quiet(), 300, 0);
    let sharp = (0..200)
        .filter(|_| tree.choose_action(0.05) == Nim::take(3))
        .count();
    assert!(
        sharp > 190,
        "a low temperature nearly always plays the best move: {sharp}"
    );
}

fn gumbel(noise: bool, actions: u32) -> SearchConfig {
    SearchConfig {
        formula: Formula::Gumbel,
        root_noise: noise,
        gumbel_actions: actions,
        ..SearchConfig::default()
    }
}

#[test]
fn gumbel_search_agrees_with_minimax_when_sides_move_twice() {
    for noise in [false, true] {
        for stones in 2..=9 {
            let game = Nim::start(stones, 3, Some(2));
            let exact = game.solve();
            let tree = searched(game.clone(), gumbel(noise, 16), 400, stones.into());
            assert_eq!(
                value_of_choice(&game, &tree),
                exact,
                "{stones} stones, noise {noise}"
            );
        }
    }
}

#[test]
fn sequential_halving_spends_the_budget_on_the_considered_moves_in_rounds() {
    // 8 legal moves, 4 considered, 16 simulations: a round of one visit each, then the
    // better two get 4 + 4 more visits between them... the schedule [0 0 0 0 1 1 1 1] then
    // [2 2 3 3 4 4 5 5].
    let tree = searched(Nim::start(20, 8, None), gumbel(true, 4), 17, 3);
    let mut visits: Vec<u32> = children(&tree).iter().map(|c| c.visits).collect();
    visits.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(visits, [6, 6, 2, 2, 0, 0, 0, 0]);
    let played = tree.best_action();
    let winner = children(&tree)
        .into_iter()
        .find(|c| c.action == played)
        .unwrap();
    assert_eq!(winner.visits, 6, "the winner comes from the last round");
}

#[test]
fn the_improved_policy_is_a_distribution_that_favours_the_winning_move() {
    let tree = searched(Nim::start(3, 3, None), gumbel(false, 16), 50, 4);
    let target = tree.policy_target();
    let total: f32 = target.iter().map(|&(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-5, "{total}");
    let (best, _) = target
        .iter()
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    assert_eq!(best, Nim::take(3));
    assert_eq!(tree.best_action(), Nim::take(3));
}

#[test]
fn a_gumbel_tree_starts_afresh_after_each_move() {
    let mut tree = searched(Nim::start(12, 3, None), gumbel(true, 16), 40, 5);
    let action = tree.best_action();
    tree.advance(action);
    assert_eq!(tree.root_visit_count(), 0, "no statistics kept");
    assert_eq!(tree.node_count(), 1);
}

#[test]
fn forced_playouts_visit_every_noised_move_and_pruning_takes_them_back() {
    let config = SearchConfig {
        forced_playouts: 2.0,
        ..SearchConfig::default()
    };
    let tree = searched(Nim::start(40, 8, None), config, 400, 6);
    let total: f32 = children(&tree).iter().map(|c| c.visits as f32).sum();
    for child in children(&tree) {
        let forced = (2.0 * child.prior * total).sqrt();
        assert!(
            child.visits as f32 + 1.0 >= forced.floor(),
            "{child:?} has fewer than its {forced} forced visits"
        );
    }
    let raw: Vec<(usize, u32)> = tree.root_visits();
    let pruned = tree.policy_target();
    let best = raw.iter().max_by_key(|&&(_, v)| v).unwrap();
    let share = |action: usize, list: &[(usize, f32)]| {
        list.iter()
            .find(|&&(a, _)| a == action)
            .map_or(0.0, |&(_, p)| p)
    };
    let raw_total: u32 = raw.iter().map(|&(_, v)| v).sum();
    assert!(
        share(best.0, &pruned) >= best.1 as f32 / raw_total as f32,
        "pruning only takes from the other moves"
    );
    assert!(pruned.len() <= raw.len());
}

#[test]
fn surprise_is_zero_for_a_target_equal_to_the_priors_and_positive_otherwise() {
    let tree = searched(Nim::start(3, 3, None), quiet(), 60, 7);
    let priors: Vec<(usize, f32)> = children(&tree)
        .iter()
        .map(|c| (c.action, c.prior))
        .collect();
    assert!(tree.policy_surprise(&priors).abs() < 1e-6);
    let target = tree.policy_target();
    assert!(
        tree.policy_surprise(&target) > 0.1,
        "the search found the win"
    );
}

#[test]
fn lcb_move_choice_still_takes_a_sure_win() {
    let config = SearchConfig {
        move_choice: MoveChoice::Lcb,
        ..quiet()
    };
    let tree = searched(Nim::start(3, 3, None), config, 100, 8);
    assert_eq!(tree.best_action(), Nim::take(3));
}

/// What selection's early stop relies on, at every expanded node of a searched tree: the
/// edges with a child come first, and the next edge has the highest prior of the rest.
#[test]
fn children_form_a_prefix_followed_by_the_best_remaining_prior() {
    for (seed, config) in [SearchConfig::default(), quiet(), gumbel(true, 8)]
        .into_iter()
        .enumerate()
    {
        let gumbel_root = config.formula == Formula::Gumbel;
        let mut tree = Tree::new(Nim::start(30, 12, Some(3)), config, seed as u64);
        tree.set_budget(500);
        let mut evaluator = Scripted {
            policy: (1..=12).map(|i| ((i * 7) % 12) as f32 + 1.0).collect(),
            positions: 0,
        };
        Batch::new()
            .run(std::slice::from_mut(&mut tree), &mut evaluator)
            .unwrap();
        for (id, node) in tree.nodes.nodes.iter().enumerate() {
            if node.state != NodeState::Expanded || (gumbel_root && id == 0) {
                continue;
            }
            let edges = tree.nodes.edges_of(id as u32);
            let children = edges.iter().take_while(|e| e.child().is_some()).count();
            assert!(edges[children..].iter().all(|e| e.child().is_none()));
            if let Some(next) = edges.get(children) {
                assert!(edges[children..].iter().all(|e| e.prior <= next.prior));
            }
        }
    }
}

#[test]
fn gumbel_inner_nodes_keep_only_the_moves_their_schedule_could_try() {
    // 30 legal moves at the root, priors rising with the move. Sequential halving over 2
    // root moves with 8 visits gives each of them 4 (one expands it, three add a child
    // each), so an inner node keeps the 3 likeliest moves; the root keeps all 30.
    let max_take = 30;
    let weights: Vec<f32> = (1..=max_take).map(|a| a as f32).collect();
    let total: f32 = weights.iter().sum();
    let mut evaluator = Scripted {
        policy: weights.iter().map(|w| w / total).collect(),
        positions: 0,
    };
    let kept_per_node = 3;
    let mut tree = Tree::new(Nim::start(100, max_take, None), gumbel(false, 2), 3);
    tree.set_budget(8);
    Batch::new()
        .run(std::slice::from_mut(&mut tree), &mut evaluator)
        .unwrap();
    assert_eq!(tree.nodes.edges_of(ROOT).len(), max_take as usize);
    let mut most_visits = 0;
    for id in 1..tree.nodes.nodes.len() as NodeId {
        let node = tree.nodes.node(id);
        if node.state != NodeState::Expanded {
            continue;
        }
        most_visits = most_visits.max(node.visits);
        let edges = tree.nodes.edges_of(id);
        assert!(
            node.visits as usize - 1 <= edges.len(),
            "node {id}: {} visits, so up to {} children, but only {} moves kept",
            node.visits,
            node.visits - 1,
            edges.len()
        );
        let mut kept: Vec<usize> = edges.iter().map(|edge| edge.action as usize).collect();
        kept.sort_unstable();
        let likeliest: Vec<usize> = (max_take - kept_per_node..max_take)
            .map(|a| a as usize)
            .collect();
        assert_eq!(kept, likeliest, "node {id}");
        assert_eq!(
            edges[0].action as usize,
            max_take as usize - 1,
            "the likeliest move comes first"
        );
    }
    assert_eq!(
        most_visits as usize - 1,
        kept_per_node as usize,
        "a root move's node uses every move it keeps"
    );
}

/// A chance node's outcomes get visits in proportion to their (unequal) probabilities,
/// within one visit, and no chance position is ever sent to the evaluator; the side to move
/// calls the likeliest face, and the root's value is that call's exact value.
#[test]
fn chance_nodes_share_their_visits_by_probability_and_are_never_evaluated() {
    use crate::toy::LoadedDie;
    struct NoChance;
    impl Evaluator<LoadedDie> for NoChance {
        fn evaluate(
            &mut self,
            positions: &[&LoadedDie],
            out: &mut [Evaluation],
        ) -> Result<(), DeviceError> {
            assert!(
                positions.iter().all(|p| !p.is_chance()),
                "a chance position evaluated"
            );
            UniformEvaluator.evaluate(positions, out)?;
            Ok(())
        }
    }
    for (formula, leaves) in [(Formula::Puct, 1), (Formula::Puct, 8), (Formula::Gumbel, 4)] {
        let config = SearchConfig {
            formula,
            leaves_per_tree: leaves,
            ..quiet()
        };
        let mut tree = Tree::new(LoadedDie::new(&()), config, 5);
        tree.set_budget(800);
        Batch::new()
            .run(std::slice::from_mut(&mut tree), &mut NoChance)
            .unwrap();
        assert_eq!(tree.best_action(), 1, "{formula:?}: the likeliest face");
        let exact = 2.0 * LoadedDie::FACES[1] as f32 - 1.0;
        if formula == Formula::Puct {
            assert!(
                (tree.root_value() - exact).abs() < 0.05,
                "{formula:?}: {}",
                tree.root_value()
            );
        }
        for call in tree.nodes.edges_of(ROOT) {
            let Some(chance) = call.child() else { continue };
            let node = tree.nodes.node(chance);
            assert_eq!(node.state, NodeState::Chance);
            let total = node.visits as f64;
            for throw in tree.nodes.edges_of(chance) {
                let face = (0..LoadedDie::FACES.len())
                    .find(|&face| LoadedDie::throw(face) == throw.action as usize)
                    .expect("an outcome is a face");
                let visits = throw.child().map_or(0, |c| tree.nodes.node(c).visits) as f64;
                let expected = LoadedDie::FACES[face] * total;
                assert!(
                    (visits - expected).abs() <= 1.0,
                    "{formula:?}: call {}, face {face}: {visits} of {total} visits",
                    call.action
                );
            }
        }
    }
}

/// The value of `game` for its side to move when `erratic` plays a uniformly random move
/// with probability `rate` at each of its decisions (except at `game` itself when `root`):
/// expectimax over the mixture, the search's target under [`Tree::expect_erratic`].
fn erratic_value(game: &Nim, erratic: Side, rate: f32, root: bool) -> f32 {
    if let Some(outcome) = game.outcome() {
        return outcome.value_for(game.to_move());
    }
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let values: Vec<f32> = legal
        .into_iter()
        .map(|action| value_after(game, action, erratic, rate))
        .collect();
    let best = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if root || game.to_move() != erratic {
        return best;
    }
    let mean = values.iter().sum::<f32>() / values.len() as f32;
    (1.0 - rate) * best + rate * mean
}

/// [`erratic_value`] of the position after `action`, for the side that plays it.
fn value_after(game: &Nim, action: usize, erratic: Side, rate: f32) -> f32 {
    let mut next = game.clone();
    next.apply(action);
    let value = erratic_value(&next, erratic, rate, false);
    if next.to_move() == game.to_move() {
        value
    } else {
        -value
    }
}

/// Against an erratic opponent the search plays for its blunders. In Nim from 4 stones
/// (take 1 to 3, the last stone wins) every move loses to best play; if the opponent plays at
/// random half the time, taking 1 loses least (it wins when the opponent does not take all 3
/// left: 4r/3 - 1 = -1/3), ahead of taking 2 (-1/2) and 3 (-1). Under PUCT (every move kept)
/// and Gumbel (an erratic side's inner nodes keep every move) the search finds that move and
/// its expectimax value, where without the expectation every move looks equally lost.
#[test]
fn against_an_erratic_opponent_the_search_plays_for_its_blunders() {
    let game = Nim::start(4, 3, None);
    let rate = 0.5;
    for formula in [Formula::Puct, Formula::Gumbel] {
        let config = SearchConfig {
            formula,
            root_noise: false,
            ..SearchConfig::default()
        };
        let mut tree = Tree::new(game.clone(), config, 3);
        tree.expect_erratic(Some((Side::Second, rate)));
        tree.set_budget(20_000);
        Batch::new()
            .run(std::slice::from_mut(&mut tree), &mut UniformEvaluator)
            .unwrap();
        assert_eq!(tree.best_action(), Nim::take(1), "{formula:?}");
        let expected = value_after(&game, Nim::take(1), Side::Second, rate);
        assert!(
            (expected + 1.0 / 3.0).abs() < 1e-6,
            "the oracle: {expected}"
        );
        let best = children(&tree)
            .into_iter()
            .find(|child| child.action == Nim::take(1))
            .and_then(|child| child.value)
            .expect("the best move was visited");
        assert!(
            (best - expected).abs() < 0.05,
            "{formula:?}: {best}, expected {expected}"
        );
        let mut minimax = Tree::new(game.clone(), tree.config.clone(), 3);
        minimax.set_budget(20_000);
        Batch::new()
            .run(std::slice::from_mut(&mut minimax), &mut UniformEvaluator)
            .unwrap();
        assert!(
            minimax.root_value() < -0.9,
            "{formula:?}: lost against best play"
        );
    }
}

/// Every position looks won (+0.3) yet far behind on the score (-10), to its side to move.
struct WinningButBehind;

impl Evaluator<Nim> for WinningButBehind {
    fn evaluate(&mut self, positions: &[&Nim], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        UniformEvaluator.evaluate(positions, out)?;
        for evaluation in out.iter_mut() {
            evaluation.value = 0.3;
            evaluation.lead = -10.0;
        }
        Ok(())
    }
}

/// The search maximises the game value plus the score term, but backs the game value up on
/// its own as well: resignation and win rates must not read a lead as a loss.
#[test]
fn the_game_value_is_backed_up_apart_from_the_score_term() {
    let config = SearchConfig {
        score_utility: 1.0,
        score_scale: 5.0,
        formula: Formula::Puct,
        ..quiet()
    };
    let mut tree = Tree::new(Nim::start(30, 3, None), config, 3);
    tree.set_budget(1);
    Batch::new()
        .run(std::slice::from_mut(&mut tree), &mut WinningButBehind)
        .unwrap();
    let score_term = std::f32::consts::FRAC_2_PI * (-10.0f32 / 5.0).atan();
    assert!((tree.root_value() - (0.3 + score_term)).abs() < 1e-6);
    assert!((tree.root_game_value() - 0.3).abs() < 1e-6);

    // A few visits more, none reaching the end of the game: every backup is some node's
    // (0.3, 0.3 + score term) with one sign, so each mean keeps that ratio.
    tree.set_budget(6);
    Batch::new()
        .run(std::slice::from_mut(&mut tree), &mut WinningButBehind)
        .unwrap();
    let ratio = (0.3 + score_term) / 0.3;
    let visited: Vec<ChildStats> = children(&tree)
        .into_iter()
        .filter(|c| c.visits > 0)
        .collect();
    assert!(
        visited.iter().any(|c| c.game_value != Some(0.0)),
        "{visited:?}"
    );
    for child in visited {
        let (value, game_value) = (child.value.unwrap(), child.game_value.unwrap());
        assert!((-1.0..=1.0).contains(&game_value), "{child:?}");
        assert!((value - ratio * game_value).abs() < 1e-5, "{child:?}");
    }
}

#[test]
fn a_search_that_skips_futile_moves_never_tries_one_unless_nothing_else_is_legal() {
    // Nim where taking `futile` stones is futile.
    let nim = |stones, futile| {
        Nim::new(&crate::toy::NimOptions {
            stones,
            max_take: 3,
            extra_turn_take: None,
            futile_take: Some(futile),
            last_stone_loses: false,
        })
    };
    let tried = |tree: &Tree<Nim>| -> Vec<usize> {
        let mut actions: Vec<usize> = children(tree)
            .into_iter()
            .filter(|child| child.visits > 0)
            .map(|child| child.action)
            .collect();
        actions.sort_unstable();
        actions
    };
    let skipping = SearchConfig {
        skip_futile: true,
        ..quiet()
    };
    let tree = searched(nim(10, 2), quiet(), 200, 1);
    assert_eq!(tried(&tree), [Nim::take(1), Nim::take(2), Nim::take(3)]);
    let tree = searched(nim(10, 2), skipping.clone(), 200, 1);
    assert_eq!(tried(&tree), [Nim::take(1), Nim::take(3)]);
    assert!(
        children(&tree).iter().all(|c| c.action != Nim::take(2)),
        "the futile move gets no edge"
    );
    // One stone left: taking it is the only legal move, futile or not, so it is searched.
    let tree = searched(nim(1, 1), skipping, 20, 1);
    assert_eq!(tried(&tree), [Nim::take(1)]);
    assert_eq!(tree.best_action(), Nim::take(1));
}

/// Values of zero, uniform priors, and a lead for the side to move of the stones left.
struct LeadIsStonesLeft;

impl Evaluator<Nim> for LeadIsStonesLeft {
    fn evaluate(&mut self, positions: &[&Nim], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        UniformEvaluator.evaluate(positions, out)?;
        for (position, evaluation) in positions.iter().zip(out.iter_mut()) {
            evaluation.lead = position.stones_left() as f32;
        }
        Ok(())
    }
}

#[test]
fn leads_are_backed_up_from_the_root_movers_view() {
    let config = SearchConfig {
        formula: Formula::Ucb1,
        ..quiet()
    };
    let mut tree = Tree::new(Nim::start(20, 3, None), config, 0);
    // The root, then each of its three moves once.
    tree.set_budget(4);
    Batch::new()
        .run(std::slice::from_mut(&mut tree), &mut LeadIsStonesLeft)
        .unwrap();
    for child in children(&tree) {
        let taken = child.action as f32 + 1.0;
        assert_eq!(child.visits, 1);
        assert_eq!(child.lead, Some(-(20.0 - taken)), "{child:?}");
        assert!(child.value_error.is_some_and(|e| e > 0.0), "{child:?}");
    }
    assert_eq!(tree.root_lead(), (20.0 - 19.0 - 18.0 - 17.0) / 4.0);
}

#[test]
fn a_principal_variation_follows_the_most_visited_replies() {
    let game = Nim::start(12, 3, None);
    let tree = searched(game.clone(), quiet(), 400, 3);
    for child in children(&tree).into_iter().filter(|c| c.visits > 0) {
        let line = tree.principal_variation(child.action, 5);
        assert!(!line.is_empty() && line.len() <= 5, "{line:?}");
        assert_eq!(line[0], (child.action, child.visits));
        assert!(
            line.windows(2).all(|pair| pair[0].1 >= pair[1].1),
            "{line:?}"
        );
        let mut position = game.clone();
        for &(action, _) in &line {
            assert!(position.is_legal(action), "{line:?}");
            position.apply(action);
        }
    }
    assert_eq!(tree.principal_variation(tree.best_action(), 0), []);
}

#[test]
fn a_move_filter_keeps_avoided_moves_out_of_the_root_only_until_its_depth() {
    let game = Nim::start(12, 3, None);
    let mut tree = Tree::new(game.clone(), quiet(), 0);
    tree.set_move_filter(Some(crate::MoveFilter {
        restrictions: vec![crate::MoveRestriction {
            side: game.to_move(),
            actions: vec![Nim::take(1)],
            until_depth: 1,
            allow_only: false,
        }],
    }));
    tree.set_budget(200);
    Batch::new()
        .run(std::slice::from_mut(&mut tree), &mut UniformEvaluator)
        .unwrap();
    let actions: Vec<usize> = children(&tree).iter().map(|c| c.action).collect();
    assert_eq!(actions.len(), 2, "{actions:?}");
    assert!(!actions.contains(&Nim::take(1)));
    // Two moves down the same side moves again, and may take one stone there.
    let deeper = tree.principal_variation(tree.best_action(), 3);
    assert_eq!(deeper.len(), 3, "{deeper:?}");
}
