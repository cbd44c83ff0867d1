//! Position strings (section 9.3): `<board> <side> <protected> <nexus> <frozen> <lost>
//! <turn>`, written and read back.

use crate::board::{Bits, bit, parse_square, square_at, square_name, squares};
use crate::options::GhostChessOptions;
use crate::rules::{BLACK, Decision, GhostChess, PIECES, Piece, WHITE};
use std::fmt;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Error)]
pub enum PositionError {
    #[error("a position has seven fields (board side protected nexus frozen lost turn), got {0}")]
    Fields(usize),
    #[error("the board has eight ranks separated by `/`, got {0}")]
    Ranks(usize),
    #[error(
        "rank {rank} of the board (`{text}`) does not fill eight squares with P N B R q n and digits"
    )]
    Rank { rank: usize, text: String },
    #[error("the board has {0} Ghosts; Black has one at most")]
    Ghosts(u32),
    #[error("the board has {0} black Knights; Black has two at most")]
    BlackKnights(u32),
    #[error("the side to move is `w` or `b`, got `{0}`")]
    Side(String),
    #[error("`{0}` is not `-` or squares of Black pieces separated by commas")]
    Protected(String),
    #[error("protections and a frozen piece belong to White's turn only (Black is to move)")]
    BlackTurnMarks,
    #[error("the nexus field is `F` or `-`, got `{0}`")]
    Nexus(String),
    #[error("Full Nexus (`F`) needs White's twelve main pieces on their squares")]
    FullNexus,
    #[error("the frozen field is `-` or the square of a White piece, got `{0}`")]
    Frozen(String),
    #[error("the Knights lost are 0, 1 or 2, got `{0}`")]
    Lost(String),
    #[error("the turn is a number from 1, got `{0}`")]
    Turn(String),
}

impl fmt::Display for GhostChess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(square_at(file, rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.letter())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = if self.mover() == WHITE { "w" } else { "b" };
        let frozen = squares(self.frozen())
            .next()
            .map_or("-".into(), square_name);
        let nexus = if self.full_nexus() { "F" } else { "-" };
        write!(
            f,
            " {side} {} {nexus} {frozen} {} {}",
            protected_text(self.protected()),
            self.knights_lost(),
            self.turn()
        )
    }
}

/// Squares in board order (rank 8 first, a to h within a rank), comma separated, or `-`.
fn protected_text(bits: Bits) -> String {
    if bits == 0 {
        return "-".into();
    }
    (0..8)
        .rev()
        .flat_map(|rank| (0..8).map(move |file| square_at(file, rank)))
        .filter(|&square| bits & bit(square) != 0)
        .map(square_name)
        .collect::<Vec<_>>()
        .join(",")
}

impl GhostChess {
    /// Reads a position string between turns; a game over by what the string shows (no
    /// Ghost, no White piece, two Knights lost, the limit passed) reads as over.
    pub fn from_position(
        options: &GhostChessOptions,
        text: &str,
    ) -> Result<GhostChess, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, protected, nexus, frozen, lost, turn] = fields[..] else {
            return Err(PositionError::Fields(fields.len()));
        };
        let pieces = read_board(board)?;
        let mover = match side {
            "w" => WHITE,
            "b" => BLACK,
            other => return Err(PositionError::Side(other.into())),
        };
        let black = pieces[Piece::Ghost as usize] | pieces[Piece::BlackKnight as usize];
        let white = pieces[..4].iter().fold(0, |all, bits| all | bits);
        let protected_bits = match protected {
            "-" => 0,
            list => list.split(',').try_fold(0, |bits, name| {
                parse_square(name)
                    .filter(|&square| black & bit(square) != 0)
                    .map(|square| bits | bit(square))
                    .ok_or_else(|| PositionError::Protected(list.into()))
            })?,
        };
        let full_nexus = match nexus {
            "F" => true,
            "-" => false,
            other => return Err(PositionError::Nexus(other.into())),
        };
        if full_nexus {
            let start = GhostChess::new(options);
            let main = crate::board::MAIN;
            let same = (0..4).all(|k| pieces[k] & main == start.bits(PIECES[k]) & main);
            if !same || white & main != main {
                return Err(PositionError::FullNexus);
            }
        }
        let frozen_bits = match frozen {
            "-" => 0,
            name => parse_square(name)
                .filter(|&square| white & bit(square) != 0)
                .map(bit)
                .ok_or_else(|| PositionError::Frozen(name.into()))?,
        };
        if mover == BLACK && (protected_bits | frozen_bits) != 0 {
            return Err(PositionError::BlackTurnMarks);
        }
        let lost = match lost {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            other => return Err(PositionError::Lost(other.into())),
        };
        let turn = turn
            .parse::<u32>()
            .ok()
            .filter(|&turn| turn >= 1)
            .ok_or_else(|| PositionError::Turn(turn.into()))?;
        let game = GhostChess::from_parts(
            options,
            pieces,
            mover,
            protected_bits,
            full_nexus,
            frozen_bits,
            lost,
            turn,
        );
        debug_assert!(game.decision() == Decision::From || game.ending().is_some());
        Ok(game)
    }
}

fn read_board(text: &str) -> Result<[Bits; 6], PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(PositionError::Ranks(ranks.len()));
    }
    let mut pieces = [0; 6];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - row;
        let bad = || PositionError::Rank {
            rank: rank + 1,
            text: (*rank_text).into(),
        };
        let mut file = 0;
        for c in rank_text.chars() {
            if let Some(run) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += run as usize;
            } else {
                let piece = Piece::from_letter(c).ok_or_else(bad)?;
                if file >= 8 {
                    return Err(bad());
                }
                pieces[piece as usize] |= bit(square_at(file, rank));
                file += 1;
            }
            if file > 8 {
                return Err(bad());
            }
        }
        if file != 8 {
            return Err(bad());
        }
    }
    let ghosts = pieces[Piece::Ghost as usize].count_ones();
    if ghosts > 1 {
        return Err(PositionError::Ghosts(ghosts));
    }
    let knights = pieces[Piece::BlackKnight as usize].count_ones();
    if knights > 2 {
        return Err(PositionError::BlackKnights(knights));
    }
    Ok(pieces)
}
