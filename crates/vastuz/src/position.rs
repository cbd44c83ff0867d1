//! Position strings (VASTUZ.md section 6.3): rows from the top, runs of empty points as
//! numbers, `x` Black, `o` White, then the side to move and the number of the next move.

use crate::state::{BLACK, State, WHITE};
use hexgrid::{Bits, Geometry};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("position `{text}`: {why}")]
    Bad { text: String, why: String },
}

/// What a position string holds, before it becomes a state.
pub(crate) struct Parsed {
    pub stones: [Vec<usize>; 2],
    pub mover: usize,
    pub move_number: u16,
}

pub(crate) fn parse(geometry: Geometry, text: &str) -> Result<Parsed, PositionError> {
    let bad = |why: String| PositionError::Bad {
        text: text.to_owned(),
        why,
    };
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [board, side, number] = fields[..] else {
        return Err(bad(
            "expected three fields: the rows, the side to move and the move number".into(),
        ));
    };
    let mover = match side {
        "b" => BLACK,
        "w" => WHITE,
        other => {
            return Err(bad(format!(
                "the side to move is `b` or `w`, not `{other}`"
            )));
        }
    };
    let move_number = number
        .parse::<u16>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| bad(format!("the move number must be 1 or more, not `{number}`")))?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != geometry.width() {
        return Err(bad(format!(
            "a size-{} board has {} rows, not {}",
            geometry.size(),
            geometry.width(),
            rows.len()
        )));
    }
    let mut stones = [Vec::new(), Vec::new()];
    for (y, row) in rows.iter().enumerate() {
        let columns = geometry.row(y as i32);
        let (mut x, mut run) = (*columns.start(), 0u32);
        let flush = |run: &mut u32, x: &mut i32| {
            *x += *run as i32;
            *run = 0;
        };
        for ch in row.chars() {
            match ch {
                '0'..='9' => {
                    if run == 0 && ch == '0' {
                        return Err(bad(format!("row {} has a run starting with 0", y + 1)));
                    }
                    run = run * 10 + ch.to_digit(10).expect("a digit");
                    if run > 25 {
                        return Err(bad(format!("row {} has too many points", y + 1)));
                    }
                }
                'x' | 'o' => {
                    flush(&mut run, &mut x);
                    if x > *columns.end() {
                        return Err(bad(format!("row {} has too many points", y + 1)));
                    }
                    let colour = if ch == 'x' { BLACK } else { WHITE };
                    stones[colour].push(geometry.cell(x, y as i32));
                    x += 1;
                }
                other => {
                    return Err(bad(format!(
                        "row {} has `{other}`: points are runs of empty points, `x` or `o`",
                        y + 1
                    )));
                }
            }
        }
        flush(&mut run, &mut x);
        let expected = columns.end() - columns.start() + 1;
        let found = x - columns.start();
        if found != expected {
            return Err(bad(format!(
                "row {} has {found} points, not {expected}",
                y + 1
            )));
        }
    }
    Ok(Parsed {
        stones,
        mover,
        move_number,
    })
}

impl<B: Bits> State<B> {
    /// The position string; within a turn the taken stone is off the board.
    pub fn position_text(&self) -> String {
        let geometry = self.tables.geometry();
        let mut text = String::new();
        for y in 0..geometry.width() as i32 {
            if y > 0 {
                text.push('/');
            }
            let mut run = 0;
            for x in geometry.row(y) {
                match self.colour_at(geometry.cell(x, y)) {
                    None => run += 1,
                    Some(colour) => {
                        if run > 0 {
                            text.push_str(&run.to_string());
                            run = 0;
                        }
                        text.push(if colour == BLACK { 'x' } else { 'o' });
                    }
                }
            }
            if run > 0 {
                text.push_str(&run.to_string());
            }
        }
        let side = if self.mover == BLACK { 'b' } else { 'w' };
        format!("{text} {side} {}", self.move_number)
    }
}
