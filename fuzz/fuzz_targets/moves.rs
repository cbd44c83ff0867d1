#![no_main]
//! Position strings and moves as users type them (`ghast replay`, GTP, the web page): parsing
//! must refuse what is not a legal move with an error, and playing what it accepts must not
//! panic. Input: a game byte (its remainder by the number of games picks one, in the list's
//! order), a line of the game's rules as `KEY=VALUE` words (rules that do not read leave the
//! game's defaults), a position line (the start, if it does not read), then one move per
//! line; each line is tried as one action (chance's outcomes included), then as a whole move
//! as a side is told it (a Fakerghast pair in full or in public form with its reveals, a
//! Vastuz placement with its steals, a Ghost Chess turn with its marks).

use game::rules::{Rule, with_rules};
use game::{Game, Planes};
use ghast_fuzz::{Pick, for_every_game};
use libfuzzer_sys::fuzz_target;

/// Plays each line that parses as a legal move until the game ends.
fn play_lines<G: Game>(mut game: G, moves: &str) {
    for line in moves.lines() {
        if game.outcome().is_some() {
            break;
        }
        if let Ok(action) = game.parse_action(line) {
            game.apply(action);
        } else {
            let _ = game.play_told(line);
        }
    }
}

fn every_game<G: Planes>(names: &mut Vec<&'static str>) {
    names.push(G::NAME);
}

/// The game `pick` names, under the rules of `rules`, from `position`, playing `moves`.
fn play<G: Planes>(pick: &Pick, rules: &str, position: &str, moves: &str) {
    if !pick.is(G::NAME) {
        return;
    }
    let rules: Vec<Rule> = rules
        .split_whitespace()
        .filter_map(|word| Rule::parse(word).ok())
        .collect();
    let options = with_rules(&G::Options::default(), &rules).unwrap_or_default();
    let game = G::from_position_text(&options, position).unwrap_or_else(|_| G::new(&options));
    play_lines(game, moves);
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut lines = text.splitn(3, '\n');
    let rules = lines.next().unwrap_or_default();
    let position = lines.next().unwrap_or_default();
    let moves = lines.next().unwrap_or_default();
    let mut names = Vec::new();
    for_every_game!(every_game(&mut names));
    let pick = Pick::new(selector, names);
    for_every_game!(play(&pick, rules, position, moves));
});
