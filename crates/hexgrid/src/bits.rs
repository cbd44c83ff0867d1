//! Bit sets over board cells.
//!
//! Boards up to size 6 (an 11 x 11 square, 121 cells) fit a `u128`, which keeps the standard
//! games fast; sizes 7 and 8 (up to 15 x 15, 225 cells) need [`U256`], and sizes up to 13 (25 x
//! 25, 625 cells) [`Words`]. Rules are written once, generic over [`Bits`].

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A fixed-width set of cell indices with the operations a bitboard flood fill needs.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + std::hash::Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// How many cells the set can hold.
    const CAPACITY: usize;
    const ZERO: Self;

    fn bit(index: usize) -> Self;
    /// Moves every member towards higher indices; members shifted past the end are lost.
    fn shl(self, by: u32) -> Self;
    /// Moves every member towards lower indices; members shifted below zero are lost.
    fn shr(self, by: u32) -> Self;
    fn count(self) -> u32;
    fn lowest(self) -> usize;
    /// Index of the `k`-th member (0-based, by increasing index); `k < self.count()`.
    fn select(self, k: u32) -> usize;

    fn is_zero(self) -> bool {
        self == Self::ZERO
    }

    fn contains(self, index: usize) -> bool {
        !(self & Self::bit(index)).is_zero()
    }

    /// Members in increasing order.
    fn ones(self) -> Ones<Self> {
        Ones(self)
    }
}

/// Iterator over the members of a [`Bits`] set.
pub struct Ones<B>(B);

impl<B: Bits> Iterator for Ones<B> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0.is_zero() {
            return None;
        }
        let index = self.0.lowest();
        self.0 = self.0 ^ B::bit(index);
        Some(index)
    }

    /// Exact, so that collecting the members allocates once.
    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.0.count() as usize;
        (count, Some(count))
    }
}

impl<B: Bits> ExactSizeIterator for Ones<B> {}

/// Index of the `k`-th set bit of `word`, narrowing by halves so it costs a few popcounts
/// instead of a loop over up to 64 bits.
fn select_u64(mut word: u64, mut k: u32) -> usize {
    let mut base = 0;
    for width in [32u32, 16, 8] {
        let low = word & ((1u64 << width) - 1);
        let ones = low.count_ones();
        if k >= ones {
            k -= ones;
            word >>= width;
            base += width;
        } else {
            word = low;
        }
    }
    for _ in 0..k {
        word &= word - 1;
    }
    base as usize + word.trailing_zeros() as usize
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    const ZERO: Self = 0;

    #[inline(always)]
    fn bit(index: usize) -> Self {
        1 << index
    }

    #[inline(always)]
    fn shl(self, by: u32) -> Self {
        self << by
    }

    #[inline(always)]
    fn shr(self, by: u32) -> Self {
        self >> by
    }

    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }

    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }

    fn select(self, k: u32) -> usize {
        let low = self as u64;
        let ones = low.count_ones();
        if k < ones {
            select_u64(low, k)
        } else {
            64 + select_u64((self >> 64) as u64, k - ones)
        }
    }
}

/// A 256-bit set: two `u128` halves, `lo` holding indices 0..128.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct U256 {
    lo: u128,
    hi: u128,
}

impl BitAnd for U256 {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, rhs: Self) -> Self {
        U256 {
            lo: self.lo & rhs.lo,
            hi: self.hi & rhs.hi,
        }
    }
}

impl BitAndAssign for U256 {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Self) {
        *self = *self & rhs;
    }
}

impl BitOr for U256 {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, rhs: Self) -> Self {
        U256 {
            lo: self.lo | rhs.lo,
            hi: self.hi | rhs.hi,
        }
    }
}

impl BitOrAssign for U256 {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Self) {
        *self = *self | rhs;
    }
}

impl BitXor for U256 {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, rhs: Self) -> Self {
        U256 {
            lo: self.lo ^ rhs.lo,
            hi: self.hi ^ rhs.hi,
        }
    }
}

impl Not for U256 {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        U256 {
            lo: !self.lo,
            hi: !self.hi,
        }
    }
}

impl Bits for U256 {
    const CAPACITY: usize = 256;
    const ZERO: Self = U256 { lo: 0, hi: 0 };

    fn bit(index: usize) -> Self {
        if index < 128 {
            U256 {
                lo: 1 << index,
                hi: 0,
            }
        } else {
            U256 {
                lo: 0,
                hi: 1 << (index - 128),
            }
        }
    }

    fn shl(self, by: u32) -> Self {
        match by {
            0 => self,
            1..128 => U256 {
                lo: self.lo << by,
                hi: (self.hi << by) | (self.lo >> (128 - by)),
            },
            128..256 => U256 {
                lo: 0,
                hi: self.lo << (by - 128),
            },
            _ => Self::ZERO,
        }
    }

    fn shr(self, by: u32) -> Self {
        match by {
            0 => self,
            1..128 => U256 {
                lo: (self.lo >> by) | (self.hi << (128 - by)),
                hi: self.hi >> by,
            },
            128..256 => U256 {
                lo: self.hi >> (by - 128),
                hi: 0,
            },
            _ => Self::ZERO,
        }
    }

    fn count(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }

    fn lowest(self) -> usize {
        if self.lo != 0 {
            self.lo.trailing_zeros() as usize
        } else {
            128 + self.hi.trailing_zeros() as usize
        }
    }

    fn select(self, k: u32) -> usize {
        let ones = self.lo.count_ones();
        if k < ones {
            self.lo.select(k)
        } else {
            128 + self.hi.select(k - ones)
        }
    }
}

/// A set of `N * 64` cells in `N` words, word 0 holding indices 0..64: for the largest boards,
/// where speed matters less than fitting at all.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Words<const N: usize>([u64; N]);

impl<const N: usize> Default for Words<N> {
    fn default() -> Self {
        Words([0; N])
    }
}

macro_rules! words_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, $op:tt) => {
        impl<const N: usize> $trait for Words<N> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: Self) -> Self {
                Words(std::array::from_fn(|i| self.0[i] $op rhs.0[i]))
            }
        }

        impl<const N: usize> $assign_trait for Words<N> {
            #[inline(always)]
            fn $assign(&mut self, rhs: Self) {
                *self = *self $op rhs;
            }
        }
    };
}

words_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
words_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl<const N: usize> BitXor for Words<N> {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, rhs: Self) -> Self {
        Words(std::array::from_fn(|i| self.0[i] ^ rhs.0[i]))
    }
}

impl<const N: usize> Not for Words<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Words(self.0.map(|word| !word))
    }
}

impl<const N: usize> Bits for Words<N> {
    const CAPACITY: usize = 64 * N;
    const ZERO: Self = Words([0; N]);

    fn bit(index: usize) -> Self {
        let mut words = [0; N];
        words[index / 64] = 1 << (index % 64);
        Words(words)
    }

    fn shl(self, by: u32) -> Self {
        let (whole, part) = ((by / 64) as usize, by % 64);
        Words(std::array::from_fn(|i| {
            let Some(from) = i.checked_sub(whole) else {
                return 0;
            };
            let carry = match (part, from.checked_sub(1)) {
                (1.., Some(below)) => self.0[below] >> (64 - part),
                _ => 0,
            };
            (self.0[from] << part) | carry
        }))
    }

    fn shr(self, by: u32) -> Self {
        let (whole, part) = ((by / 64) as usize, by % 64);
        Words(std::array::from_fn(|i| {
            let from = i + whole;
            if from >= N {
                return 0;
            }
            let carry = match part {
                1.. if from + 1 < N => self.0[from + 1] << (64 - part),
                _ => 0,
            };
            (self.0[from] >> part) | carry
        }))
    }

    fn count(self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }

    fn lowest(self) -> usize {
        self.0
            .iter()
            .position(|&word| word != 0)
            .map_or(Self::CAPACITY, |i| {
                64 * i + self.0[i].trailing_zeros() as usize
            })
    }

    fn select(self, mut k: u32) -> usize {
        for (i, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones();
            if k < ones {
                return 64 * i + select_u64(word, k);
            }
            k -= ones;
        }
        Self::CAPACITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_select<B: Bits>(set: B, members: &[usize]) {
        for (k, &index) in members.iter().enumerate() {
            assert_eq!(set.select(k as u32), index);
        }
        assert_eq!(set.ones().collect::<Vec<_>>(), members);
        assert_eq!(set.count() as usize, members.len());
    }

    #[test]
    fn select_finds_each_member() {
        let members = [0, 5, 63, 64, 100, 127];
        let set = members.iter().fold(0u128, |acc, &i| acc | u128::bit(i));
        check_select(set, &members);
        let wide = [1, 127, 128, 130, 200, 255];
        let set = wide.iter().fold(U256::ZERO, |acc, &i| acc | U256::bit(i));
        check_select(set, &wide);
    }

    #[test]
    fn wide_shifts_cross_the_halves() {
        let set = U256::bit(120) | U256::bit(3);
        assert_eq!(set.shl(13), U256::bit(133) | U256::bit(16));
        assert_eq!(set.shl(13).shr(13), set);
        assert_eq!(U256::bit(140).shr(26), U256::bit(114));
        assert_eq!(U256::bit(250).shl(26), U256::ZERO);
    }

    #[test]
    fn words_agree_with_u256() {
        let members = [0, 1, 63, 64, 65, 127, 128, 191, 200, 255];
        let narrow = members
            .iter()
            .fold(U256::ZERO, |acc, &i| acc | U256::bit(i));
        let wide = members
            .iter()
            .fold(Words::<4>::ZERO, |acc, &i| acc | Words::bit(i));
        check_select(wide, &members);
        for by in [0, 1, 13, 63, 64, 65, 127, 128, 200, 255] {
            let ones = |set: Words<4>| set.ones().collect::<Vec<_>>();
            assert_eq!(
                ones(wide.shl(by)),
                narrow.shl(by).ones().collect::<Vec<_>>(),
                "shl {by}"
            );
            assert_eq!(
                ones(wide.shr(by)),
                narrow.shr(by).ones().collect::<Vec<_>>(),
                "shr {by}"
            );
        }
        assert_eq!(Words::<10>::bit(600).shr(25), Words::bit(575));
    }
}
