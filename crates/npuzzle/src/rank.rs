//! The engine's one ranking: the number of a placement of `k` tiles on `n` cells (a
//! k-permutation), with no gaps, and back; and of a set of `k` cells ([`Combinations`], colex). (Packing, where a board's tiles are only squeezed
//! into a word to hash and compare, is [`crate::packed`].)
//!
//! The positions `p_0 … p_{k-1}` of a pattern's tiles (in the pattern's tile order) are ranked
//! as a number in a mixed radix: digit `i` is `p_i` less the number of earlier tiles on lower
//! cells, in base `n - i`. Every placement gets a distinct rank in `0 .. n!/(n-k)!`.
//!
//! The pattern databases number their tables' entries so. A whole permutation (`k = n`, a
//! small board's tiles by cell) ranks the same way, as its index in lexicographic order: the
//! small boards' distance tables ([`crate::distance::table`]) use it so, and the 8-puzzle's
//! closed set numbers its states by the same rank of the tiles' order without the blank,
//! halved, read from a packed key by two table lookups (`HalfOrderRanks`, for
//! `search::ranked`). The pattern databases' build ranks its tiles' order
//! by [`Ranker::rank_order`], and the challenge codes write a board as its Lehmer code
//! ([`lehmer_digits`]), the digits of the same rank.

use std::sync::OnceLock;

/// The number of ways to place `k` distinct tiles on `n` cells: `n!/(n-k)!`.
pub fn entries(n: usize, k: usize) -> u64 {
    (0..k).map(|i| (n - i) as u64).product()
}

/// Ranks and unranks the placements of `k` tiles on `n ≤ 32` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranker {
    n: usize,
    k: usize,
    /// The weight of each digit: `(n-1-i)! / (n-k)!`.
    weights: Vec<u64>,
    /// Whether every rank fits a `u32`, so unranking divides in 32 bits.
    narrow: bool,
}

impl Ranker {
    /// A ranker for `k` tiles on `n` cells.
    pub fn new(n: usize, k: usize) -> Ranker {
        assert!(k <= n && n <= 32, "a ranker needs k <= n <= 32");
        let weights = (0..k).map(|i| entries(n - 1 - i, k - 1 - i)).collect();
        let narrow = entries(n, k) <= u64::from(u32::MAX);
        Ranker {
            n,
            k,
            weights,
            narrow,
        }
    }

    /// The number of ranks.
    pub fn len(&self) -> u64 {
        entries(self.n, self.k)
    }

    /// The weight of each digit, tile by tile: `(n-1-i)! / (n-k)!`.
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// Whether there are no ranks (never: there is always at least one placement).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The rank of the positions, given in the pattern's tile order.
    #[inline(always)]
    pub fn rank(&self, positions: &[u8]) -> u64 {
        let mut seen = 0u32;
        let mut rank = 0u64;
        for (&p, &w) in positions.iter().zip(&self.weights) {
            let below = (seen & ((1u32 << p) - 1)).count_ones() as u64;
            rank += (p as u64 - below) * w;
            seen |= 1 << p;
        }
        rank
    }

    /// The rank of the order of `k` distinct values below 32 (for a whole permutation, `k = n`,
    /// the same as [`Ranker::rank`]): each value's digit counts the later values below it (see
    /// [`lehmer_digits`]), so only the values' order counts, not the values. The pattern
    /// databases' build numbers a pattern's tiles' order so, from their cells' numbers.
    #[inline(always)]
    pub fn rank_order(&self, values: &[u8]) -> u64 {
        let mut later = 0u32;
        let mut rank = 0u64;
        for i in (0..values.len()).rev() {
            let below = (later & ((1u32 << values[i]) - 1)).count_ones();
            rank += u64::from(below) * self.weights[i];
            later |= 1 << values[i];
        }
        rank
    }

    /// The positions a rank stands for, written into `positions` (length `k`).
    pub fn unrank(&self, rank: u64, positions: &mut [u8]) {
        self.unrank_with(rank, positions, nth_set_bit);
    }

    /// [`Ranker::unrank`] with the way to find the `n`th set bit of a mask given (a `pdep`
    /// where the CPU has one).
    #[inline(always)]
    pub fn unrank_with(
        &self,
        mut rank: u64,
        positions: &mut [u8],
        select: impl Fn(u32, u32) -> u32,
    ) {
        let mut seen = 0u32;
        // 32-bit division where the ranks fit, as a build's always do: it takes a fraction of
        // the time of a 64-bit one on many CPUs.
        let narrow = self.narrow;
        for (i, &w) in self.weights.iter().enumerate() {
            let digit = if narrow {
                let (r, w) = (rank as u32, w as u32);
                rank = u64::from(r % w);
                r / w
            } else {
                let digit = rank / w;
                rank %= w;
                digit as u32
            };
            // The digit-th cell not yet taken.
            let cell = select(!seen, digit);
            positions[i] = cell as u8;
            seen |= 1 << cell;
        }
    }
}

/// Ranks and unranks the sets of `k` of `n ≤ 32` cells (combinations, as masks) by their colex
/// rank: the sum of `C(cell, j)` over the set's cells in increasing order (`j` from 1), which
/// numbers the sets in increasing order of their masks. The pattern databases' build numbers
/// the cells a pattern's tiles occupy so (`pdb::layout`), by table lookups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combinations {
    /// The colex rank's share of the low 16 cells of a set, by their mask.
    /// (The colex rank of a set of the low 16 cells, below C(16, 8), fits 16 bits.)
    low_rank: Vec<u16>,
    /// The share of the cells from 16 on, by how many low cells there are and their mask:
    /// `high_rank[(low_count << high_bits) + mask]` (empty on boards of up to 16 cells).
    high_rank: Vec<u32>,
    /// Cells past the first 16.
    high_bits: u32,
    /// The cells of each set, by colex rank.
    sets: Vec<u32>,
}

impl Combinations {
    /// The combinations of `k` of `n` cells.
    pub fn new(n: usize, k: usize) -> Combinations {
        assert!(k <= n && n <= 32, "combinations need k <= n <= 32");
        let (low_rank, high_rank, high_bits) = rank_tables(n, k);
        // Every set of k cells in increasing order of its mask (Gosper's hack), which is the
        // colex order.
        let mut sets = Vec::new();
        let mut occupied: u64 = (1u64 << k) - 1;
        while occupied < (1u64 << n) {
            sets.push(occupied as u32);
            if k == 0 {
                break;
            }
            let c = occupied & occupied.wrapping_neg();
            let r = occupied + c;
            occupied = (((r ^ occupied) >> 2) / c) | r;
        }
        Combinations {
            low_rank,
            high_rank,
            high_bits,
            sets,
        }
    }

    /// The number of sets: `C(n, k)`.
    pub fn len(&self) -> u32 {
        self.sets.len() as u32
    }

    /// Whether there are no sets (never: the empty set is one when `k = 0`).
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The colex rank of a set of `k` cells, as a mask.
    #[inline(always)]
    pub fn rank(&self, occupied: u32) -> u32 {
        let low = occupied & 0xFFFF;
        let rank = u32::from(self.low_rank[low as usize]);
        if self.high_bits == 0 {
            return rank;
        }
        let row = (low.count_ones() as usize) << self.high_bits;
        rank + self.high_rank[row + (occupied >> 16) as usize]
    }

    /// The set of cells a rank stands for, as a mask.
    #[inline(always)]
    pub fn unrank(&self, rank: u32) -> u32 {
        self.sets[rank as usize]
    }
}

/// The tables of [`Combinations::rank`] for sets of `k` of `cells` cells: the colex rank, the
/// sum of `C(cell, j)` over the set's cells in increasing order (`j` from 1), split at cell 16.
fn rank_tables(cells: usize, k: usize) -> (Vec<u16>, Vec<u32>, u32) {
    let binomial = binomials(cells);
    let share = |mut mask: u32, offset: usize, before: usize| {
        let mut rank = 0;
        let mut j = before + 1;
        while mask != 0 && j <= k {
            rank += binomial[mask.trailing_zeros() as usize + offset][j];
            j += 1;
            mask &= mask - 1;
        }
        rank
    };
    let low_bits = cells.min(16);
    let high_bits = cells - low_bits;
    let low = (0..1u32 << low_bits)
        .map(|m| share(m, 0, 0) as u16)
        .collect();
    let high = if high_bits == 0 {
        Vec::new()
    } else {
        (0..=k)
            .flat_map(|before| (0..1u32 << high_bits).map(move |m| (m, before)))
            .map(|(m, before)| share(m, 16, before))
            .collect()
    };
    (low, high, high_bits as u32)
}

/// Pascal's triangle up to `cells` rows, 33 columns.
fn binomials(cells: usize) -> Vec<[u32; 33]> {
    let mut binomial = vec![[0u32; 33]; cells + 1];
    for n in 0..=cells {
        binomial[n][0] = 1;
        for j in 1..=n.min(32) {
            binomial[n][j] = binomial[n - 1][j - 1] + if j < n { binomial[n - 1][j] } else { 0 };
        }
    }
    binomial
}

/// How many tiles each of the two looks of [`HalfOrderRanks::rank`] reads.
const QUARTER: usize = 4;

/// How many entries a [`HalfOrderRanks`] table has: four tiles of three bits each.
const BY_FOUR: usize = 1 << (3 * QUARTER);

/// The most cells a board ranked by [`HalfOrderRanks`] may have: its other tiles, at most 8,
/// fit four bits each in a word.
const MAX_HALF_ORDER_CELLS: usize = 9;

/// The rank of the order of a small board's tiles without the blank (their lexicographic
/// index, [`Ranker::rank_order`] of a whole permutation), halved, from the tiles packed four
/// bits each (as [`PackedTiles`](crate::packed::PackedTiles) packs them, the blank left out),
/// for boards of 4 to 9 cells: the 8-puzzle's closed set numbers its states by it
/// (`search::ranked`).
///
/// By two table lookups, each indexed by four tiles ([`by_fours`]). A tile's digit is the
/// count of smaller tiles after it: that is `tile − 1` less the smaller tiles before it, so the
/// digits of the first four tiles depend on those four alone; and the digits of the fifth and
/// sixth, the last whose weights (those of [`Ranker::weights`]) are even, on the last four
/// alone. The last two digits weigh 1 and 1, and the last is always 0: halved, they drop out.
/// Two lookups replace a chain of eight steps.
pub(crate) struct HalfOrderRanks {
    /// Halved weighted digits of the first four tiles, from their values.
    first: [u16; BY_FOUR],
    /// Halved weighted digits of the fifth and sixth tiles, from the last four.
    last: [u8; BY_FOUR],
}

/// [`HalfOrderRanks`] for boards of 4 to 9 cells, each made the first time one is asked for.
static HALF_ORDER_RANKS: [OnceLock<HalfOrderRanks>; MAX_HALF_ORDER_CELLS - 3] =
    [const { OnceLock::new() }; _];

impl HalfOrderRanks {
    /// The tables for boards of `cells` cells (4 to 9).
    pub(crate) fn of(cells: usize) -> &'static HalfOrderRanks {
        HALF_ORDER_RANKS[cells - 4].get_or_init(|| HalfOrderRanks::new(cells))
    }

    /// Works the tables out for boards of `cells` cells: the digits weighted by the whole
    /// permutation's [`Ranker`] of the `cells - 1` tiles, halved.
    fn new(cells: usize) -> HalfOrderRanks {
        let ranker = Ranker::new(cells - 1, cells - 1);
        let weight = |i: usize| ranker.weights().get(i).map_or(0, |&w| w as u32 / 2);
        let mut ranks = HalfOrderRanks {
            first: [0; BY_FOUR],
            last: [0; BY_FOUR],
        };
        for four in 0..BY_FOUR {
            // Three bits read 8 as 0, so 0 reads as 8: a cell past a board smaller than 3×3
            // holds 0 and reads as the largest tile, which no digit counts.
            let tiles: [u32; QUARTER] = std::array::from_fn(|at| match (four >> (3 * at)) & 7 {
                0 => 8,
                bits => bits as u32,
            });
            let (mut first, mut last) = (0, 0);
            for (at, &tile) in tiles.iter().enumerate() {
                let smaller = |others: &[u32]| others.iter().filter(|&&t| t < tile).count() as u32;
                // Four tiles with repeats name no order; their entries are never read.
                first += weight(at) * (tile - 1).saturating_sub(smaller(&tiles[..at]));
                last += weight(QUARTER + at) * smaller(&tiles[at + 1..]);
            }
            ranks.first[four] = first as u16;
            ranks.last[four] = last as u8;
        }
        ranks
    }

    /// The halved rank of the order of the tiles `order` (1 up, four bits each, the first
    /// in the low bits).
    #[inline(always)]
    pub(crate) fn rank(&self, order: u64) -> u32 {
        let (first, last) = by_fours(order);
        u32::from(self.first[first]) + u32::from(self.last[last])
    }
}

/// The first four and the last four of an order's eight tiles, packed four bits each, as two
/// [`HalfOrderRanks`] indices: their low three bits, run together. Both halves at once: each
/// byte's two fields close up, then each half's two bytes.
#[inline(always)]
fn by_fours(order: u64) -> (usize, usize) {
    let order = order as u32;
    let bytes = (order & 0x0707_0707) | ((order >> 1) & 0x3838_3838);
    let halves = (bytes & 0x003F_003F) | ((bytes >> 2) & 0x0FC0_0FC0);
    let mask = BY_FOUR as u32 - 1;
    ((halves & mask) as usize, ((halves >> 16) & mask) as usize)
}

/// The Lehmer code of distinct values, of any count: digit `i` counts the later values below
/// value `i`, and is below `n - i`. A whole permutation's [`Ranker::rank`] (and any values'
/// [`Ranker::rank_order`]) is these digits as one mixed-radix number; the challenge codes write
/// a board's digits in runs that fit 64 bits.
pub fn lehmer_digits(values: &[u8]) -> Vec<u8> {
    (0..values.len())
        .map(|i| values[i + 1..].iter().filter(|&&v| v < values[i]).count() as u8)
        .collect()
}

/// The permutation of `0..digits.len()` whose Lehmer code is `digits` (see [`lehmer_digits`]);
/// `None` when a digit `i` is not below `n - i`.
pub fn from_lehmer_digits(digits: &[u8]) -> Option<Vec<u8>> {
    let mut unused: Vec<u8> = (0..digits.len()).map(|v| v as u8).collect();
    digits
        .iter()
        .map(|&d| (usize::from(d) < unused.len()).then(|| unused.remove(usize::from(d))))
        .collect()
}

/// The position of the `n`th set bit of `mask` (from 0), by clearing the lower set bits one
/// by one: on any CPU.
#[inline(always)]
pub(crate) fn nth_set_bit(mask: u32, n: u32) -> u32 {
    let mut left = mask;
    for _ in 0..n {
        left &= left - 1;
    }
    left.trailing_zeros()
}

/// [`nth_set_bit`], by one `pdep` where `BMI2` is true.
///
/// # Safety
///
/// With `BMI2` true the CPU must have BMI2 (`is_x86_feature_detected!("bmi2")` said yes); with
/// it false, nothing is required.
#[inline(always)]
pub(crate) unsafe fn select_bit<const BMI2: bool>(mask: u32, n: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: the caller's promise: the CPU has BMI2.
        return unsafe { std::arch::x86_64::_pdep_u32(1 << n, mask) }.trailing_zeros();
    }
    nth_set_bit(mask, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdep_and_the_loop_select_the_same_bit() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let mut mask = 0x9E37_79B9u32;
            for _ in 0..2_000 {
                mask = mask.rotate_left(7) ^ mask.wrapping_mul(0x2545_F491);
                for n in 0..mask.count_ones() {
                    // SAFETY: the CPU has BMI2, as just checked.
                    let pdep = unsafe { select_bit::<true>(mask, n) };
                    assert_eq!(pdep, nth_set_bit(mask, n));
                }
            }
        }
    }

    #[test]
    fn the_order_of_any_values_ranks_as_its_permutation_and_as_its_lehmer_digits() {
        let ranker = Ranker::new(4, 4);
        for rank in 0..ranker.len() {
            let mut order = [0u8; 4];
            ranker.unrank(rank, &mut order);
            assert_eq!(ranker.rank_order(&order), rank);
            // Values far apart in the same order rank the same.
            let spread = order.map(|v| 3 + 7 * v);
            assert_eq!(ranker.rank_order(&spread), rank);
            let digits = lehmer_digits(&order);
            let mixed = (0..4).fold(0, |r, i| r * (4 - i) as u64 + u64::from(digits[i]));
            assert_eq!(mixed, rank);
            assert_eq!(from_lehmer_digits(&digits).as_deref(), Some(&order[..]));
        }
        assert_eq!(from_lehmer_digits(&[0, 3, 0, 0]), None);
    }

    #[test]
    fn a_packed_order_ranks_by_two_lookups_as_the_ranker_ranks_it_halved() {
        for cells in 4..=MAX_HALF_ORDER_CELLS {
            let tiles = cells - 1;
            let (ranker, halves) = (Ranker::new(tiles, tiles), HalfOrderRanks::of(cells));
            let mut order = vec![0u8; tiles];
            for rank in 0..ranker.len() {
                ranker.unrank(rank, &mut order);
                // The tiles are 1 up, the first in the low four bits.
                let packed = (order.iter().rev()).fold(0u64, |key, &v| key << 4 | u64::from(v + 1));
                assert_eq!(u64::from(halves.rank(packed)), rank / 2, "{order:?}");
            }
        }
    }

    #[test]
    fn combinations_rank_in_increasing_order_of_their_masks() {
        for (n, k) in [(9, 3), (20, 4), (25, 6), (6, 0)] {
            let combinations = Combinations::new(n, k);
            assert_eq!(u64::from(combinations.len()), entries(n, k) / entries(k, k));
            let mut last = None;
            for rank in 0..combinations.len() {
                let set = combinations.unrank(rank);
                assert_eq!(set.count_ones() as usize, k);
                assert!(last < Some(set));
                assert_eq!(combinations.rank(set), rank);
                last = Some(set);
            }
        }
    }

    #[test]
    fn ranks_are_a_bijection() {
        for (n, k) in [(9, 3), (9, 8), (16, 2), (6, 6), (5, 1)] {
            let ranker = Ranker::new(n, k);
            let mut seen = vec![false; ranker.len() as usize];
            let mut positions = vec![0u8; k];
            for rank in 0..ranker.len() {
                ranker.unrank(rank, &mut positions);
                let mut distinct = positions.clone();
                distinct.sort_unstable();
                distinct.dedup();
                assert_eq!(distinct.len(), k);
                assert!(positions.iter().all(|&p| (p as usize) < n));
                let back = ranker.rank(&positions);
                assert_eq!(back, rank);
                assert!(!seen[back as usize]);
                seen[back as usize] = true;
            }
        }
        assert_eq!(entries(16, 8), 518_918_400);
        assert_eq!(entries(25, 6), 127_512_000);
    }

    #[test]
    fn a_whole_permutation_ranks_in_lexicographic_order() {
        // Lexicographic order of the permutations of 0..4, made by the standard successor rule.
        let ranker = Ranker::new(4, 4);
        let mut tiles: Vec<u8> = (0..4).collect();
        let mut expected = 0u64;
        loop {
            assert_eq!(ranker.rank(&tiles), expected, "{tiles:?}");
            let mut back = vec![0u8; 4];
            ranker.unrank(expected, &mut back);
            assert_eq!(back, tiles);
            expected += 1;
            let Some(i) = (1..4).rev().find(|&i| tiles[i - 1] < tiles[i]) else {
                break;
            };
            let j = (i..4).rev().find(|&j| tiles[j] > tiles[i - 1]).unwrap();
            tiles.swap(i - 1, j);
            tiles[i..].reverse();
        }
        assert_eq!(expected, entries(4, 4));
        let nine = Ranker::new(9, 9);
        let mut tiles = [0u8; 9];
        nine.unrank(nine.len() - 1, &mut tiles);
        assert_eq!(tiles, [8, 7, 6, 5, 4, 3, 2, 1, 0]);
    }
}
