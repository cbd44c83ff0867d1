//! Zobrist keys, made at compile time from a fixed seed so that hashes are the same in every
//! process (the evaluation cache and records may compare them across runs).

use crate::point::PADDED;

const fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One key per padded point and stone colour (1 Black, 2 White), then one per ko point.
static KEYS: [[u64; 3]; PADDED] = {
    let mut keys = [[0; 3]; PADDED];
    let mut p = 0;
    while p < PADDED {
        let mut k = 0;
        while k < 3 {
            keys[p][k] = mix((3 * p + k) as u64);
            k += 1;
        }
        p += 1;
    }
    keys
};

pub const WHITE_TO_MOVE: u64 = mix(u64::MAX);
pub const PASSED: u64 = mix(u64::MAX - 1);

pub fn stone(padded: usize, colour: u8) -> u64 {
    KEYS[padded][usize::from(colour) - 1]
}

pub fn ko(padded: usize) -> u64 {
    KEYS[padded][2]
}

/// The key of the number of moves played: the move limit makes it part of the future.
pub fn moves_played(moves: u16) -> u64 {
    mix(u64::from(moves) << 32 | 0x6d6f_7665)
}
