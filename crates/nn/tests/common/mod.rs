//! A toy game for the network's tests: players alternately fill cells of a square board;
//! whoever holds more cells when the board is full (or both pass) wins. The board may sit in a
//! larger grid, so that tests can check that padding is invisible to the network.
#![allow(dead_code)] // Each test binary uses a different part of this module.

use game::{Game, Outcome, PlaneShape, Planes, PolicyLayout, Side};
use nn::{Inputs, Network};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use tch::{Device, Kind};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToyOptions {
    /// Side of the playable square.
    pub size: usize,
    /// Side of the grid the square is drawn in (at least `size`).
    pub grid: usize,
}

impl Default for ToyOptions {
    fn default() -> Self {
        ToyOptions { size: 3, grid: 3 }
    }
}

#[derive(Clone, Debug)]
pub struct Toy {
    options: ToyOptions,
    cells: Vec<Option<Side>>,
    to_move: Side,
    passes: u8,
}

impl Toy {
    fn pass(&self) -> usize {
        self.options.grid * self.options.grid
    }

    fn cell(&self, action: usize) -> Option<usize> {
        let grid = self.options.grid;
        let (y, x) = (action / grid, action % grid);
        (action < self.pass() && y < self.options.size && x < self.options.size)
            .then_some(y * self.options.size + x)
    }

    fn is_over(&self) -> bool {
        self.passes >= 2 || self.cells.iter().all(Option::is_some)
    }

    /// Writes `value(owner)` for each on-board cell of the grid, 0 elsewhere.
    fn per_cell(&self, out: &mut [f32], value: impl Fn(Option<Side>) -> f32) {
        let grid = self.options.grid;
        out.fill(0.0);
        for (index, &owner) in self.cells.iter().enumerate() {
            let (y, x) = (index / self.options.size, index % self.options.size);
            out[y * grid + x] = value(owner);
        }
    }
}

impl Game for Toy {
    type Options = ToyOptions;

    const NAME: &'static str = "toy";

    fn new(options: &ToyOptions) -> Self {
        assert!(options.size <= options.grid);
        Toy {
            options: options.clone(),
            cells: vec![None; options.size * options.size],
            to_move: Side::First,
            passes: 0,
        }
    }

    fn options(&self) -> &ToyOptions {
        &self.options
    }

    fn num_actions(&self) -> usize {
        self.pass() + 1
    }

    fn to_move(&self) -> Side {
        self.to_move
    }

    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if !self.is_over() {
            out.extend(
                (0..self.pass()).filter(|&a| self.cell(a).is_some_and(|c| self.cells[c].is_none())),
            );
            out.push(self.pass());
        }
    }

    fn is_legal(&self, action: usize) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        legal.contains(&action)
    }

    fn apply(&mut self, action: usize) {
        match self.cell(action) {
            Some(cell) => {
                self.cells[cell] = Some(self.to_move);
                self.passes = 0;
            }
            None => self.passes += 1,
        }
        self.to_move = self.to_move.other();
    }

    fn outcome(&self) -> Option<Outcome> {
        let lead = self.score(Side::First) - self.score(Side::Second);
        self.is_over().then_some(match lead {
            lead if lead > 0.0 => Outcome::Win(Side::First),
            lead if lead < 0.0 => Outcome::Win(Side::Second),
            _ => Outcome::Draw,
        })
    }

    fn hash(&self) -> u64 {
        self.cells.iter().fold(self.to_move.index() as u64, |h, c| {
            h * 3 + c.map_or(0, |s| s.index() as u64 + 1)
        })
    }

    fn score(&self, side: Side) -> f32 {
        self.cells.iter().filter(|&&c| c == Some(side)).count() as f32
    }

    fn symmetry_count(&self) -> usize {
        1
    }

    fn transform_action(&self, _sym: usize, action: usize) -> usize {
        action
    }

    fn action_to_string(&self, action: usize) -> String {
        action.to_string()
    }

    fn parse_action(&self, text: &str) -> Result<usize, String> {
        text.parse()
            .ok()
            .filter(|&a| self.is_legal(a))
            .ok_or_else(|| format!("illegal: {text}"))
    }
}

impl Planes for Toy {
    const PLANES_DOC: &'static str = "| 0 | the toy's one feature |";

    fn plane_shape(&self) -> PlaneShape {
        PlaneShape {
            channels: 3,
            height: self.options.grid,
            width: self.options.grid,
        }
    }

    fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: 1,
            global_actions: 1,
        }
    }

    fn encode(&self, out: &mut [f32]) {
        let cells = self.options.grid * self.options.grid;
        let me = self.to_move;
        self.per_cell(&mut out[..cells], |c| f32::from(c == Some(me)));
        self.per_cell(&mut out[cells..2 * cells], |c| {
            f32::from(c == Some(me.other()))
        });
        self.per_cell(&mut out[2 * cells..], |_| 1.0);
    }

    fn ownership(&self, side: Side, out: &mut [f32]) {
        self.per_cell(out, |c| match c {
            Some(owner) if owner == side => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        });
    }

    fn board_mask(&self, out: &mut [f32]) {
        self.per_cell(out, |_| 1.0);
    }
}

pub fn options(size: usize, grid: usize) -> ToyOptions {
    ToyOptions { size, grid }
}

/// A position after `moves` random placements (fewer if the game ends first).
pub fn random_position(options: &ToyOptions, moves: usize, rng: &mut StdRng) -> Toy {
    let mut game = Toy::new(options);
    let mut legal = Vec::new();
    for _ in 0..moves {
        game.legal_actions(&mut legal);
        legal.retain(|&a| a != game.pass());
        match legal.choose(rng) {
            Some(&action) => game.apply(action),
            None => break,
        }
    }
    game
}

/// `count` positions with 0 to size*size/2 random moves each.
pub fn random_positions(options: &ToyOptions, count: usize, seed: u64) -> Vec<Toy> {
    let mut rng = StdRng::seed_from_u64(seed);
    let half = options.size * options.size / 2;
    (0..count)
        .map(|_| {
            let moves = rng.random_range(0..=half);
            random_position(options, moves, &mut rng)
        })
        .collect()
}

/// The network's inputs for `positions`, on the CPU in f32.
pub fn inputs(positions: &[Toy]) -> Inputs {
    let mut batch = nn::HostBatch::default();
    let refs: Vec<&Toy> = positions.iter().collect();
    batch.encode(&refs, refs.len());
    batch.inputs(Device::Cpu, Kind::Float).to_owned()
}

/// A tiny network for the toy game, on the CPU.
///
/// Also limits libtorch to one thread: the test harness already runs tests in parallel, and
/// spinning thread pools on a busy machine slow tiny nets down a hundredfold.
pub fn tiny_network() -> Network {
    Network::new(tiny_config(), Device::Cpu)
}

/// The tiny net with an auxiliary soft-policy output.
pub fn tiny_network_with_soft_policy() -> Network {
    let config = nn::NetConfig {
        soft_policy: true,
        ..tiny_config()
    };
    Network::new(config, Device::Cpu)
}

fn tiny_config() -> nn::NetConfig {
    nn::set_intra_op_threads(1);
    let layout = PolicyLayout {
        spatial_planes: 1,
        global_actions: 1,
    };
    nn::NetConfig::preset(nn::Preset::Tiny, 3, layout)
}

/// Asserts that two evaluations of one position agree to float precision.
pub fn assert_close(a: &game::Evaluation, b: &game::Evaluation) {
    assert!(
        (a.value - b.value).abs() < 1e-5,
        "{} vs {}",
        a.value,
        b.value
    );
    assert!((a.lead - b.lead).abs() < 1e-4, "{} vs {}", a.lead, b.lead);
    assert_eq!(a.policy.len(), b.policy.len());
    let diff = a
        .policy
        .iter()
        .zip(&b.policy)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max);
    assert!(diff < 1e-5, "policy differs by {diff}");
}
