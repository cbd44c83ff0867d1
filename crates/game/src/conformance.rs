//! One suite of checks that every game's tests run, as OpenSpiel's games all run its
//! basic tests: a game's test file calls [`Conformance::check`] with its rules and its vectors,
//! and keeps only what is particular to the game.
//!
//! On random games (seeded, so a failure repeats) it checks at every position that:
//! - the legal list, `is_legal` and `parse_action` agree, and every action's text reads back
//!   as that action;
//! - `random_legal_action` draws what a uniform pick from the list draws;
//! - a position string reads back as the same string, in a game that reads them;
//! - every symmetry maps the legal set onto the legal set of the position its actions reach,
//!   and has an inverse among the symmetries; the game played under the symmetry has the
//!   same outcome and score, and each side's ownership mapped cell for cell (what training's
//!   augmentation reads its targets from);
//! - chance's outcomes are listed, distinct, and their probabilities sum to one;
//! - the planes have the declared shape and finite values, the board mask is 0 or 1, and
//!   ownership lies in [-1, 1];
//! - each side, keeping its own copy of the game from the moves as they are told to it
//!   (`told_move`, `play_told`), sees what the true game lets it see;
//! - no text, however malformed, panics a parser: random bytes, legal actions' texts and the
//!   position string mutated and cut at every point (a panic names the seed, the ply and the
//!   text);
//! - the game ends, and its record (`moves_in_full`) replays to the same result;
//! - the referee's own actions, as self-play and the arena take them
//!   ([`Referee::play_automatic`]), keep their promises: an opening of k decisions plays k
//!   and finishes the move under way without ending the game, a forced decision is the only
//!   legal one, and a driver that decides only where they stop plays the game to its end.
//!
//! Then it replays the game's vectors and checks that the illegal ones are refused with their
//! reasons, and that the transpositions it is given reach equal hashes.

use crate::vectors::{
    ReadPosition, check_refusal, check_replay_reading, illegal_vectors, replay_vectors,
};
use crate::{
    Automatic, ChanceStream, Game, Opening, Planes, Referee, Side, moves_in_full, uniform_pick,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What one game's conformance test gives the suite.
#[derive(Clone, Debug)]
pub struct Conformance<'a, G: Game> {
    /// Rules to play random games under: the defaults unless told otherwise.
    pub options: Vec<G::Options>,
    /// Random games played under each set of rules.
    pub random_games: usize,
    /// Decisions after which a random game is cut short (some games run long at random).
    pub max_actions: usize,
    /// Replay files (`*-replay.txt`), whole.
    pub replay_vectors: &'a [&'a str],
    /// Illegal-move files (`*-illegal.txt`), whole.
    pub illegal_vectors: &'a [&'a str],
    /// For each reason word of the illegal files, words one of which its refusals must say.
    pub reasons: &'a [(&'a str, &'a [&'a str])],
    /// Pairs of move lists (whitespace separated, from the start under the default rules)
    /// that reach the same position in different orders.
    pub transpositions: &'a [(&'a str, &'a str)],
    /// Whether a position string holds the whole state, so that a position read back goes
    /// on exactly as the game does (same hash); not so in Go, whose strings leave out ko and
    /// passes.
    pub positions_are_complete: bool,
    pub seed: u64,
}

impl<G: Game> Default for Conformance<'_, G> {
    fn default() -> Self {
        Conformance {
            options: vec![G::Options::default()],
            random_games: 20,
            max_actions: 400,
            replay_vectors: &[],
            illegal_vectors: &[],
            reasons: &[],
            transpositions: &[],
            positions_are_complete: true,
            seed: 0,
        }
    }
}

/// Failures, with where they happened; the suite reports the first few and their count.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn check(&mut self, result: Result<(), String>, at: impl FnOnce() -> String) {
        if let Err(why) = result {
            self.0.push(format!("{}: {why}", at()));
        }
    }
}

impl<G: Planes> Conformance<'_, G> {
    /// Runs every check; panics listing the failures, each with the game, the rules, the
    /// random game's seed and the ply where it happened.
    pub fn check(&self) {
        let failures = self.failures();
        if !failures.is_empty() {
            let shown: Vec<&str> = failures.iter().take(10).map(String::as_str).collect();
            panic!(
                "{}: {} conformance failures, the first:\n  {}",
                G::NAME,
                failures.len(),
                shown.join("\n  ")
            );
        }
    }

    /// Every failure, in words (empty when the game conforms).
    pub fn failures(&self) -> Vec<String> {
        let mut failures = Failures::default();
        for options in &self.options {
            for k in 0..self.random_games {
                let seed = self.seed.wrapping_mul(1_000_003).wrapping_add(k as u64);
                self.random_game(options, seed, &mut failures);
                failures.check(self.automatic_game(options, seed), || {
                    format!("{} {options:?}, opened game {seed}", G::NAME)
                });
            }
        }
        let read: ReadPosition<'_, G> = &G::from_position_text;
        let read = reads_positions::<G>().then_some(read);
        for text in self.replay_vectors {
            match replay_vectors(text) {
                Err(why) => failures.0.push(format!("a replay file: {why}")),
                Ok(games) => {
                    for vector in &games {
                        let replayed =
                            check_replay_reading::<G>(vector, read, self.positions_are_complete);
                        failures.check(replayed, || "replay vectors".to_owned());
                    }
                }
            }
        }
        for text in self.illegal_vectors {
            match illegal_vectors(text) {
                Err(why) => failures.0.push(format!("an illegal file: {why}")),
                Ok(blocks) => {
                    for block in &blocks {
                        let words = self
                            .reasons
                            .iter()
                            .find(|(reason, _)| *reason == block.reason)
                            .map(|(_, words)| *words);
                        let result = match words {
                            Some(words) => check_refusal::<G>(block, words),
                            None => Err(format!("no words given for reason `{}`", block.reason)),
                        };
                        failures.check(result, || "illegal vectors".to_owned());
                    }
                }
            }
        }
        for (first, second) in self.transpositions {
            failures.check(transposition::<G>(first, second), || {
                format!("transposition `{first}` / `{second}`")
            });
        }
        failures.0
    }

    /// Plays one random game under `options`, checking every position on the way.
    fn random_game(&self, options: &G::Options, seed: u64, failures: &mut Failures) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let start = G::new(options);
        let mut referee = Referee::new(start.clone());
        // Each side's copy of the game, kept from the moves as told to it.
        let mut views = [start.clone(), start.clone()];
        let symmetries = start.symmetry_count();
        let mut mirrored: Vec<G> = (0..symmetries).map(|_| start.clone()).collect();
        let mut scratch = Vec::new();
        for ply in 0..self.max_actions {
            let game = referee.game().clone();
            let at = || format!("{} {options:?}, random game {seed}, ply {ply}", G::NAME);
            failures.check(actions_agree(&game), at);
            failures.check(planes_are_sound(&game), at);
            failures.check(parsers_survive(&game, &mut rng), at);
            failures.check(position_text_reads_back(&game), at);
            failures.check(symmetric_targets(&game, &mirrored), at);
            if let Err(why) = symmetries_hold(&game, &mirrored) {
                failures.0.push(format!("{}: {why}", at()));
                return;
            }
            if game.outcome().is_some() {
                break;
            }
            let action = if game.is_chance() {
                failures.check(chance_is_sound(&game), at);
                let mut outcomes = Vec::new();
                game.chance_outcomes(&mut outcomes);
                outcomes[rng.random_range(0..outcomes.len())].0
            } else {
                let draw: u64 = rng.random();
                failures.check(random_pick_agrees(&game, draw, &mut scratch), at);
                game.random_legal_action(&mut ChaCha8Rng::seed_from_u64(draw), &mut scratch)
            };
            for (sym, mirror) in mirrored.iter_mut().enumerate() {
                mirror.apply(game.transform_action(sym, action));
            }
            if let Err(why) = referee.play(action) {
                failures.0.push(format!(
                    "{}: the referee refused a legal action: {why}",
                    at()
                ));
                return;
            }
            if let Some(played) = referee.last_move() {
                for side in [Side::First, Side::Second] {
                    let told = played.told_to(side);
                    let view = &mut views[side.index()];
                    let seen = view.play_told(&told).map(|_| ()).and_then(|()| {
                        let truth = referee.game().position_seen_by(side);
                        if view.position_seen_by(side) == truth {
                            Ok(())
                        } else {
                            Err(format!(
                                "after `{told}` {side:?} sees {} where the game shows it {truth}",
                                view.position_seen_by(side)
                            ))
                        }
                    });
                    failures.check(seen, || format!("{}: told to {side:?}", at()));
                }
            }
        }
        let at = || format!("{} {options:?}, random game {seed}", G::NAME);
        if referee.game().outcome().is_some() {
            failures.check(
                record_replays(&start, referee.actions(), referee.game()),
                at,
            );
        }
    }
}

impl<G: Game> Conformance<'_, G> {
    /// Plays a game the way self-play does: the referee's automatic actions (chance, an
    /// opening of up to 4 decisions, forced decisions) until a side decides, a uniformly
    /// random decision, and again, to the end or `max_actions`.
    fn automatic_game(&self, options: &G::Options, seed: u64) -> Result<(), String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6f70_656e);
        let start = G::new(options);
        let opening = Opening {
            actions: rng.random_range(0..=4),
            seed: rng.random(),
        };
        let mut referee = Referee::new(start.clone())
            .with_opening(opening)
            .plays_forced_decisions();
        let mut chance = ChanceStream::new(rng.random());
        let (mut opening_decisions, mut decisions) = (0, 0);
        let mut legal = Vec::new();
        while decisions < self.max_actions {
            let before = referee.game().clone();
            match referee.play_automatic(&mut chance) {
                Some(Automatic::Chance(_)) => {}
                Some(Automatic::Opening(action)) => {
                    opening_decisions += 1;
                    decisions += 1;
                    if referee.game().outcome().is_some() {
                        return Err(format!(
                            "the opening's `{}` ended the game",
                            before.action_to_string(action)
                        ));
                    }
                }
                Some(Automatic::Forced(action)) => {
                    decisions += 1;
                    before.legal_actions(&mut legal);
                    if legal != [action] {
                        return Err(format!(
                            "`{}` was played as forced among {} legal actions",
                            before.action_to_string(action),
                            legal.len()
                        ));
                    }
                }
                None if referee.is_over() => break,
                None => {
                    if referee.game().is_chance() {
                        return Err("the referee left a chance outcome undrawn".to_owned());
                    }
                    let action = referee.game().random_legal_action(&mut rng, &mut legal);
                    referee.play(action)?;
                    decisions += 1;
                }
            }
        }
        // Where the opening ended, unless every decision there ends the game (then it may
        // stop short, even within a move), it has played its decisions and a whole move.
        let mut opened = start.clone();
        for &action in &referee.actions()[..referee.opening_actions()] {
            opened.apply(action);
        }
        opened.legal_actions(&mut legal);
        let could_go_on = legal.iter().any(|&action| {
            let mut after = opened.clone();
            after.apply(action);
            after.outcome().is_none()
        });
        if referee.opening_actions() > 0 && could_go_on {
            if opening_decisions < opening.actions {
                return Err(format!(
                    "an opening of {} decisions played {opening_decisions}",
                    opening.actions
                ));
            }
            if opened.mid_move() {
                return Err("the opening stopped within a move".to_owned());
            }
        }
        if referee.game().outcome().is_some() {
            record_replays(&start, referee.actions(), referee.game())?;
        }
        Ok(())
    }
}

/// The legal list, `is_legal`, `parse_action` and the actions' texts agree.
fn actions_agree<G: Game>(game: &G) -> Result<(), String> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    if legal.is_empty() != game.outcome().is_some() {
        return Err(format!(
            "{} legal actions in a game {}",
            legal.len(),
            if game.outcome().is_some() {
                "that is over"
            } else {
                "that goes on"
            }
        ));
    }
    let mut sorted = legal.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != legal.len() {
        return Err(format!("the legal list repeats an action: {legal:?}"));
    }
    for &action in &legal {
        if !game.is_legal(action) {
            return Err(format!("is_legal refuses listed action {action}"));
        }
        let text = game.action_to_string(action);
        match game.parse_action(&text) {
            Ok(read) if read == action => {}
            Ok(read) => return Err(format!("`{text}` ({action}) reads back as {read}")),
            Err(why) => return Err(format!("`{text}` ({action}) does not read back: {why}")),
        }
    }
    // Decisions are numbered below num_actions; chance's outcomes may lie beyond it.
    let bound = if game.is_chance() {
        legal
            .iter()
            .max()
            .map_or(0, |&m| m + 1)
            .max(game.num_actions())
    } else {
        game.num_actions()
    };
    if let Some(&beyond) = legal.iter().find(|&&a| !game.is_chance() && a >= bound) {
        return Err(format!("legal action {beyond} is past num_actions {bound}"));
    }
    // A few past the end too: `is_legal` must refuse what no position can play.
    for action in (0..bound + 3).filter(|a| sorted.binary_search(a).is_err()) {
        if game.is_legal(action) {
            return Err(format!("is_legal accepts unlisted action {action}"));
        }
        if action >= bound {
            continue;
        }
        let text = game.action_to_string(action);
        if let Ok(read) = game.parse_action(&text)
            && sorted.binary_search(&read).is_err()
        {
            return Err(format!(
                "parse_action accepts `{text}` ({read}), which is not legal"
            ));
        }
    }
    Ok(())
}

/// `random_legal_action` with a generator seeded `draw` picks what a uniform pick from the
/// legal list picks with the same generator.
fn random_pick_agrees<G: Game>(
    game: &G,
    draw: u64,
    scratch: &mut Vec<usize>,
) -> Result<(), String> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let listed = legal[uniform_pick(&mut ChaCha8Rng::seed_from_u64(draw), legal.len())];
    let drawn = game.random_legal_action(&mut ChaCha8Rng::seed_from_u64(draw), scratch);
    if drawn == listed {
        Ok(())
    } else {
        Err(format!(
            "random_legal_action drew {drawn}, the listed pick is {listed}"
        ))
    }
}

/// Whether the game reads position strings at all ([`Game::from_position_text`]).
fn reads_positions<G: Game>() -> bool {
    let start = G::new(&G::Options::default());
    G::from_position_text(start.options(), &start.position_text()).is_ok()
}

/// A position string reads back as itself, in a game that reads position strings.
fn position_text_reads_back<G: Game>(game: &G) -> Result<(), String> {
    let text = game.position_text();
    match G::from_position_text(game.options(), &text) {
        Ok(read) if read.position_text() == text => Ok(()),
        Ok(read) => Err(format!("`{text}` reads back as `{}`", read.position_text())),
        Err(why) if why.contains("reads no position strings") => Ok(()),
        Err(why) => Err(format!("`{text}` does not read back: {why}")),
    }
}

/// Every symmetry maps the legal set onto the legal set of the position its actions reach
/// (`mirrored[sym]`, the game replayed with every action mapped), and has an inverse.
fn symmetries_hold<G: Game>(game: &G, mirrored: &[G]) -> Result<(), String> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let mut mirror_legal = Vec::new();
    for (sym, mirror) in mirrored.iter().enumerate() {
        let mut mapped: Vec<usize> = legal
            .iter()
            .map(|&a| game.transform_action(sym, a))
            .collect();
        mapped.sort_unstable();
        mirror.legal_actions(&mut mirror_legal);
        mirror_legal.sort_unstable();
        if mapped != mirror_legal {
            return Err(format!(
                "symmetry {sym} maps the legal set onto {mapped:?}, but its position allows {mirror_legal:?}"
            ));
        }
        let inverse = (0..mirrored.len()).find(|&back| {
            legal
                .iter()
                .all(|&a| game.transform_action(back, game.transform_action(sym, a)) == a)
        });
        if inverse.is_none() {
            return Err(format!(
                "symmetry {sym} has no inverse among the symmetries"
            ));
        }
    }
    if game.transform_action(0, legal.first().copied().unwrap_or(0))
        != legal.first().copied().unwrap_or(0)
    {
        return Err("symmetry 0 is not the identity".to_owned());
    }
    Ok(())
}

/// The game under each symmetry (`mirrored[sym]`) has the outcome and each side's score of
/// `game`, and each side's ownership target mapped: cell `c` of `game` is, where a side
/// decides, the cell of the mapped action `c` (a cell's action on the policy's first plane)
/// in the mirror. Training's augmentation plays the mapped game and reads its targets there,
/// so they must be the original's, mapped.
fn symmetric_targets<G: Planes>(game: &G, mirrored: &[G]) -> Result<(), String> {
    let shape = game.plane_shape();
    let cells = shape.cells();
    let mut mask = vec![0.0; cells];
    game.board_mask(&mut mask);
    let (mut owned, mut mirror_owned) = (vec![0.0; cells], vec![0.0; cells]);
    for (sym, mirror) in mirrored.iter().enumerate() {
        if mirror.outcome() != game.outcome() {
            return Err(format!(
                "under symmetry {sym} the game ends {:?}, not {:?}",
                mirror.outcome(),
                game.outcome()
            ));
        }
        for side in Side::BOTH {
            if mirror.score(side) != game.score(side) {
                return Err(format!(
                    "under symmetry {sym} {side:?} scores {}, not {}",
                    mirror.score(side),
                    game.score(side)
                ));
            }
            game.ownership(side, &mut owned);
            mirror.ownership(side, &mut mirror_owned);
            // Where a side decides, a cell's action on the first plane is the cell (at chance
            // the actions are outcomes, which the symmetries leave alone).
            if game.policy_layout().spatial_planes == 0 || game.is_chance() {
                continue;
            }
            for cell in (0..cells).filter(|&cell| mask[cell] == 1.0) {
                let mapped = game.transform_action(sym, cell) % cells;
                if mirror_owned[mapped] != owned[cell] {
                    return Err(format!(
                        "under symmetry {sym} {side:?}'s ownership of cell {cell} ({}) is {} at \
                         its image, cell {mapped}",
                        owned[cell], mirror_owned[mapped]
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Chance's outcomes are the legal list, distinct, with probabilities that sum to one.
fn chance_is_sound<G: Game>(game: &G) -> Result<(), String> {
    let mut outcomes = Vec::new();
    game.chance_outcomes(&mut outcomes);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let mut listed: Vec<usize> = outcomes.iter().map(|&(a, _)| a).collect();
    listed.sort_unstable();
    legal.sort_unstable();
    if listed != legal {
        return Err(format!(
            "chance's outcomes {listed:?} are not its legal actions {legal:?}"
        ));
    }
    if outcomes.iter().any(|&(_, p)| !(p > 0.0 && p <= 1.0)) {
        return Err(format!(
            "an outcome's probability is outside (0, 1]: {outcomes:?}"
        ));
    }
    let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
    if (total - 1.0).abs() > 1e-9 {
        return Err(format!("chance's probabilities sum to {total}"));
    }
    Ok(())
}

/// The planes have the declared shape, every value written and finite; the board mask is 0
/// or 1; ownership lies in [-1, 1].
fn planes_are_sound<G: Planes>(game: &G) -> Result<(), String> {
    let shape = game.plane_shape();
    let mut planes = vec![f32::NAN; shape.len()];
    game.encode(&mut planes);
    if let Some(index) = planes.iter().position(|v| !v.is_finite()) {
        return Err(format!(
            "plane value {index} of {} is {}",
            shape.len(),
            planes[index]
        ));
    }
    let mut mask = vec![f32::NAN; shape.cells()];
    game.board_mask(&mut mask);
    if mask.iter().any(|&v| v != 0.0 && v != 1.0) {
        return Err(format!(
            "the board mask holds values other than 0 and 1: {mask:?}"
        ));
    }
    for side in [Side::First, Side::Second] {
        let mut owned = vec![f32::NAN; shape.cells()];
        game.ownership(side, &mut owned);
        if owned.iter().any(|v| !(-1.0..=1.0).contains(v)) {
            return Err(format!("ownership for {side:?} leaves [-1, 1]: {owned:?}"));
        }
    }
    let layout = game.policy_layout();
    let spatial = layout.spatial_planes * shape.cells();
    if spatial + layout.global_actions != game.num_actions() {
        return Err(format!(
            "the policy layout holds {} actions, the game {}",
            spatial + layout.global_actions,
            game.num_actions()
        ));
    }
    Ok(())
}

/// Malformed text never panics a parser: random bytes (read as text, invalid UTF-8 replaced),
/// the texts of three random legal actions and the position string cut at every point, each
/// mutated once (a character replaced, dropped or doubled, and the text doubled). A panic
/// comes back as the error, naming the text.
fn parsers_survive<G: Game>(game: &G, rng: &mut ChaCha8Rng) -> Result<(), String> {
    const ALPHABET: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:+-/,. ()[]#=%*@!\xc3\xa9";
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let mut texts: Vec<String> = (0..4)
        .map(|_| {
            let length = rng.random_range(0..16);
            let bytes: Vec<u8> = (0..length).map(|_| rng.random()).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect();
    let valid = (0..3)
        .filter(|_| !legal.is_empty())
        .map(|_| game.action_to_string(legal[rng.random_range(0..legal.len())]))
        .chain(std::iter::once(game.position_text()))
        .collect::<Vec<String>>();
    for text in valid {
        let chars: Vec<char> = text.chars().collect();
        for cut in 0..chars.len() {
            texts.push(chars[..cut].iter().collect());
        }
        if !chars.is_empty() {
            let at = rng.random_range(0..chars.len());
            let other = char::from(ALPHABET[rng.random_range(0..ALPHABET.len() - 2)]);
            let mut mutate = |edit: &dyn Fn(&mut Vec<char>)| {
                let mut mutated = chars.clone();
                edit(&mut mutated);
                texts.push(mutated.into_iter().collect());
            };
            mutate(&|text| text[at] = other);
            mutate(&|text| {
                text.remove(at);
            });
            mutate(&|text| text.insert(at, text[at]));
        }
        texts.push(format!("{text}{text}"));
    }
    for text in &texts {
        let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = game.parse_action(text);
            let _ = game.parse_move(text);
            let _ = game.clone().play_told(text);
            let _ = G::from_position_text(game.options(), text);
        }));
        if let Err(payload) = parsed {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            return Err(format!("parsing {text:?} panicked: {message}"));
        }
    }
    Ok(())
}

/// A finished game's record, each move in full, replays from the start to the same result.
fn record_replays<G: Game>(start: &G, actions: &[usize], end: &G) -> Result<(), String> {
    let moves = moves_in_full(start, actions);
    let mut replayed = start.clone();
    for text in &moves {
        replayed
            .play_told(text)
            .map_err(|why| format!("the record's move `{text}` does not replay: {why}"))?;
    }
    if replayed.result_text() != end.result_text() || replayed.hash() != end.hash() {
        return Err(format!(
            "the record replays to {:?}, the game ended {:?}",
            replayed.result_text(),
            end.result_text()
        ));
    }
    Ok(())
}

/// Two move lists from the start reach positions with equal hashes and position strings.
fn transposition<G: Game>(first: &str, second: &str) -> Result<(), String> {
    let play = |moves: &str| -> Result<G, String> {
        let mut game = G::new(&G::Options::default());
        for text in moves.split_whitespace() {
            game.play_told(text)
                .map_err(|why| format!("`{text}`: {why}"))?;
        }
        Ok(game)
    };
    let (a, b) = (play(first)?, play(second)?);
    if a.hash() != b.hash() || a.position_text() != b.position_text() {
        return Err(format!(
            "`{}` ({:x}) and `{}` ({:x}) differ",
            a.position_text(),
            a.hash(),
            b.position_text(),
            b.hash()
        ));
    }
    Ok(())
}
