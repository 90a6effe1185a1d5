//! The engine's one ranking: the number of a placement of `k` tiles on `n` cells (a
//! k-permutation), with no gaps, and back. (Packing, where a board's tiles are only squeezed
//! into a word to hash and compare, is [`crate::packed`].)
//!
//! The positions `p_0 … p_{k-1}` of a pattern's tiles (in the pattern's tile order) are ranked
//! as a number in a mixed radix: digit `i` is `p_i` less the number of earlier tiles on lower
//! cells, in base `n - i`. Every placement gets a distinct rank in `0 .. n!/(n-k)!`.
//!
//! The pattern databases number their tables' entries so. A whole permutation (`k = n`, a
//! small board's tiles by cell) ranks the same way, as its index in lexicographic order: the
//! small boards' distance tables ([`crate::distance::table`]) use it so, and the 8-puzzle's
//! closed set numbers its states by the same rank of the tiles' order without the blank, read
//! from a packed key (`search::ranked`).

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
