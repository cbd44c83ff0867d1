//! An ASCII picture of a position, for GTP's `showboard` and for people at a terminal.

use crate::ghast::Ghast;
use crate::position::Piece;
use game::{Game, Side};
use hexgrid::Geometry;
use std::fmt::Write;

/// Horizontal characters per hex; a row is shifted by half of it from the row above, which is
/// what makes a square grid of rows draw as a hexagon.
const PITCH: usize = 4;

/// The board as offset rows of pointy-top hexes: `.` an empty hex, `O3` an Orange tile of
/// orientation 3, `B0` a Blue one. Row numbers stand on the left; each column's letter stands
/// just above and to the left of its first hex, and the column runs down to the right from
/// there. Below the board: whose move it is, the tile counts, pending veto answers and the
/// position string.
pub fn diagram(game: &Ghast) -> String {
    let position = game.position();
    let mut out = picture(position.geometry, |cell| tile_text(position.cells[cell]));
    out.push_str(&summary(game));
    out
}

/// The board's rows of hexes with their row numbers and column letters; `text(cell)` is what
/// stands on a hex (two characters at most).
pub(crate) fn picture(geometry: Geometry, text: impl Fn(usize) -> String) -> String {
    let radius = geometry.radius();
    let width = geometry.width() as i32;
    // Hex (x, y) sits 2x + y half-pitches right; the leftmost label, column a's at
    // (0, R - 1), starts the canvas.
    let column = |x: i32, y: i32| PITCH / 2 * (2 * x + y + 1 - radius) as usize;
    let mut lines: Vec<Vec<u8>> = (-1..width).map(|_| Vec::new()).collect();
    let mut put = |x: i32, y: i32, text: &str| {
        let line = &mut lines[(y + 1) as usize];
        let at = column(x, y);
        if line.len() < at + text.len() {
            line.resize(at + text.len(), b' ');
        }
        line[at..at + text.len()].copy_from_slice(text.as_bytes());
    };
    for x in 0..width {
        let letter = char::from(b'a' + x as u8).to_string();
        put(x, (radius - x - 1).max(-1), &letter);
    }
    for y in 0..width {
        for x in geometry.row(y) {
            put(x, y, &text(geometry.cell(x, y)));
        }
    }
    let mut out = String::new();
    for (y, line) in lines.iter().enumerate() {
        let label = if y == 0 { String::new() } else { y.to_string() };
        let row = String::from_utf8_lossy(line);
        writeln!(out, "{label:>2} {}", row.trim_end()).expect("writing to a String");
    }
    out
}

fn tile_text(piece: Option<Piece>) -> String {
    match piece {
        None => ".".to_owned(),
        Some(Piece { side, orientation }) => format!("{}{orientation}", colour_letter(side)),
    }
}

pub(crate) fn colour_letter(side: Side) -> char {
    match side {
        Side::First => 'O',
        Side::Second => 'B',
    }
}

/// The sides' names as GTP and the rules write them: Orange moves first.
pub(crate) const COLOURS: [&str; 2] = ["orange", "blue"];

/// The colour's name as GTP and the rules write it.
pub fn colour_name(side: Side) -> &'static str {
    COLOURS[side.index()]
}

fn summary(game: &Ghast) -> String {
    let [orange_vetoes, blue_vetoes] = game.vetoes_left();
    let mut out = format!(
        "O orange {} tiles, B blue {} tiles (komi {}); vetoes left {orange_vetoes},{blue_vetoes}\n",
        game.tile_count(Side::First),
        game.tile_count(Side::Second),
        game.options().komi(),
    );
    out.push_str(
        "orientation: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE (where the ranged coupler points)\n",
    );
    match (game.result(), game.pending()) {
        (Some(result), _) => writeln!(out, "result {result}"),
        (None, Some(pending)) => writeln!(
            out,
            "{} to accept or veto {}",
            colour_name(game.to_move()),
            pending.to_text(game.options().geometry())
        ),
        (None, None) => writeln!(out, "{} to move", colour_name(game.to_move())),
    }
    .expect("writing to a String");
    write!(out, "position {game}").expect("writing to a String");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RawOptions;

    fn game(size: i64, position: &str) -> Ghast {
        let options = RawOptions {
            size,
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        Ghast::from_position_str(&options, position).unwrap()
    }

    #[test]
    fn rows_are_offset_and_columns_labelled() {
        let text = diagram(&game(2, "2/1a1/B1 b 3"));
        let board: Vec<&str> = text.lines().take(4).collect();
        assert_eq!(
            board,
            [
                "     b   c",
                " 1 a   .   .",
                " 2   .   O0  .",
                " 3     B1  ."
            ]
        );
        assert!(text.contains("blue to move"), "{text}");
        assert!(text.ends_with("position 2/1a1/B1 b 3"), "{text}");
    }

    #[test]
    fn the_centre_of_the_standard_board_is_in_the_middle() {
        let text = diagram(&game(6, "6/7/8/9/10/5c5/10/9/8/7/6 b 2"));
        let middle = text.lines().nth(6).unwrap();
        assert!(middle.starts_with(" 6 "), "{middle}");
        let centre = middle.find("O2").unwrap();
        let top = text.lines().nth(1).unwrap();
        let top_middle = (top.find('.').unwrap() + top.rfind('.').unwrap()) / 2;
        assert_eq!(centre, top_middle, "{text}");
    }
}
