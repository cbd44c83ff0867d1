//! Squares and bitboards: square `8 x (rank - 1) + (file - 1)` (a1 = 0, h8 = 63, section 10's
//! numbering, so a square is its own action), one bit per square, and the attack tables of
//! the pieces, built at compile time.

/// A set of squares, bit `s` for square `s`.
pub type Bits = u64;

pub const fn bit(square: usize) -> Bits {
    1 << square
}

pub const fn file_of(square: usize) -> usize {
    square % 8
}

pub const fn rank_of(square: usize) -> usize {
    square / 8
}

pub const fn square_at(file: usize, rank: usize) -> usize {
    8 * rank + file
}

/// `a1`, ..., `h8`.
pub fn square_name(square: usize) -> String {
    let file = char::from(b'a' + file_of(square) as u8);
    format!("{file}{}", rank_of(square) + 1)
}

/// A square's name, case-insensitive; `None` for anything else.
pub fn parse_square(text: &str) -> Option<usize> {
    let [file, rank] = text.as_bytes() else {
        return None;
    };
    let file = file.to_ascii_lowercase();
    ((b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(rank))
        .then(|| square_at(usize::from(file - b'a'), usize::from(rank - b'1')))
}

/// The squares of a set, lowest first.
pub fn squares(mut bits: Bits) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let square = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            square
        })
    })
}

/// The dark squares: a1 is dark, and a square is dark iff file + rank is even (section 1).
pub const DARK: Bits = {
    let mut bits = 0;
    let mut square = 0;
    while square < 64 {
        if (file_of(square) + rank_of(square)).is_multiple_of(2) {
            bits |= bit(square);
        }
        square += 1;
    }
    bits
};

pub const LIGHT: Bits = !DARK;

pub const RANK_1: Bits = 0xff;
pub const RANK_2: Bits = RANK_1 << 8;
pub const RANK_8: Bits = RANK_1 << 56;

pub const fn file_bits(file: usize) -> Bits {
    0x0101_0101_0101_0101 << file
}

pub const A1: usize = 0;
pub const B1: usize = 1;
pub const C1: usize = 2;
pub const D1: usize = 3;
pub const E1: usize = 4;
pub const F1: usize = 5;
pub const G1: usize = 6;
pub const H1: usize = 7;
pub const C8: usize = 58;
pub const D8: usize = 59;
pub const F8: usize = 61;

/// The twelve main pieces' squares (section 1): while Full Nexus holds, they stand there.
pub const MAIN: Bits = 0xe7e7;
/// The Bishop c1's block and the Bishop f1's block (section 6.4).
pub const C1_BLOCK: Bits = 0x0707;
pub const F1_BLOCK: Bits = 0xe0e0;
/// Where a rescued Knight goes: the dark squares of rank 8.
pub const RESCUE: Bits = RANK_8 & DARK;
/// Where a Respawn puts a pawn: d1 and e1.
pub const RESPAWN: Bits = bit(D1) | bit(E1);
/// The squares across from the Bishops: c8 and f8.
pub const ACROSS: Bits = bit(C8) | bit(F8);
/// The centre files, whose pawns scout in Full Nexus.
pub const CENTRE: Bits = file_bits(3) | file_bits(4);

/// The steps of the eight rays as (file, rank) offsets: the four rook rays, then the four
/// bishop rays; the first two of each kind go towards higher squares.
const RAYS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

const fn step(square: usize, (df, dr): (i32, i32)) -> Option<usize> {
    let file = file_of(square) as i32 + df;
    let rank = rank_of(square) as i32 + dr;
    if file < 0 || file > 7 || rank < 0 || rank > 7 {
        None
    } else {
        Some(square_at(file as usize, rank as usize))
    }
}

/// Every square along each ray from each square, the square itself excluded.
const RAY_BITS: [[Bits; 64]; 8] = {
    let mut table = [[0; 64]; 8];
    let mut ray = 0;
    while ray < 8 {
        let mut square = 0;
        while square < 64 {
            let mut at = step(square, RAYS[ray]);
            while let Some(next) = at {
                table[ray][square] |= bit(next);
                at = step(next, RAYS[ray]);
            }
            square += 1;
        }
        ray += 1;
    }
    table
};

const fn leaper_table(steps: [(i32, i32); 8]) -> [Bits; 64] {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let mut k = 0;
        while k < 8 {
            if let Some(to) = step(square, steps[k]) {
                table[square] |= bit(to);
            }
            k += 1;
        }
        square += 1;
    }
    table
}

pub const KNIGHT_ATTACKS: [Bits; 64] = leaper_table([
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// The eight squares around each square (a Transcend's blast).
pub const NEIGHBOURS: [Bits; 64] = leaper_table(RAYS);

/// The squares a slider on `square` reaches along `ray` over empty squares of `occupied`, the
/// first occupied one included.
fn ray_attacks(ray: usize, square: usize, occupied: Bits) -> Bits {
    let full = RAY_BITS[ray][square];
    let blockers = full & occupied;
    if blockers == 0 {
        return full;
    }
    // Rays 0, 1, 4 and 5 go towards higher squares: their first blocker is the lowest.
    let first = if matches!(ray, 0 | 1 | 4 | 5) {
        blockers.trailing_zeros() as usize
    } else {
        63 - blockers.leading_zeros() as usize
    };
    full ^ RAY_BITS[ray][first]
}

pub fn rook_attacks(square: usize, occupied: Bits) -> Bits {
    (0..4).fold(0, |bits, ray| bits | ray_attacks(ray, square, occupied))
}

pub fn bishop_attacks(square: usize, occupied: Bits) -> Bits {
    (4..8).fold(0, |bits, ray| bits | ray_attacks(ray, square, occupied))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_print_as_section_1_names_them() {
        assert_eq!(parse_square("a1"), Some(0));
        assert_eq!(parse_square("H8"), Some(63));
        assert_eq!(parse_square("e4"), Some(28));
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
        assert_eq!(square_name(28), "e4");
        assert!(DARK & bit(parse_square("d8").unwrap()) != 0);
        assert!(DARK & bit(parse_square("e8").unwrap()) == 0);
        assert_eq!(
            squares(RESCUE).map(square_name).collect::<Vec<_>>(),
            ["b8", "d8", "f8", "h8"]
        );
        assert_eq!(
            squares(MAIN).map(square_name).collect::<Vec<_>>(),
            [
                "a1", "b1", "c1", "f1", "g1", "h1", "a2", "b2", "c2", "f2", "g2", "h2"
            ]
        );
    }

    #[test]
    fn sliders_stop_at_the_first_piece_and_include_it() {
        let d4 = parse_square("d4").unwrap();
        let blockers = bit(parse_square("d6").unwrap()) | bit(parse_square("f6").unwrap());
        let rook: Vec<String> = squares(rook_attacks(d4, blockers))
            .map(square_name)
            .collect();
        assert!(rook.contains(&"d6".to_owned()) && !rook.contains(&"d7".to_owned()));
        assert_eq!(rook.len(), 3 + 2 + 3 + 4);
        let bishop: Vec<String> = squares(bishop_attacks(d4, blockers))
            .map(square_name)
            .collect();
        assert!(bishop.contains(&"f6".to_owned()) && !bishop.contains(&"g7".to_owned()));
        assert_eq!(KNIGHT_ATTACKS[0].count_ones(), 2);
        assert_eq!(NEIGHBOURS[d4].count_ones(), 8);
    }
}
