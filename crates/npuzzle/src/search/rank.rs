//! A perfect hash of a small board: the rank of its tile permutation (its Lehmer code read in
//! the factorial number system), so that a board of up to 9 cells indexes a flat array of
//! `cells!` entries with no hashing or probing.

/// The most cells a board may have to be ranked into a `u32` index table (9! = 362,880).
pub const MAX_RANKED_CELLS: usize = 9;

/// `n!` for `n` up to [`MAX_RANKED_CELLS`].
pub fn factorial(n: usize) -> u32 {
    (1..=n as u32).product()
}

/// The rank of a permutation of `0..tiles.len()` among all of them, in lexicographic order.
///
/// `tiles.len()` must be at most [`MAX_RANKED_CELLS`]; a bit mask counts the smaller tiles
/// already placed, so a rank costs one pass.
#[inline]
pub fn rank(tiles: &[u8]) -> u32 {
    let n = tiles.len();
    let mut seen = 0u32;
    let mut rank = 0u32;
    for (i, &tile) in tiles.iter().enumerate() {
        let smaller_before = (seen & ((1u32 << tile) - 1)).count_ones();
        rank = rank * (n - i) as u32 + (u32::from(tile) - smaller_before);
        seen |= 1 << tile;
    }
    rank
}

/// The permutation of `0..tiles.len()` with a given rank, written into `tiles`.
pub fn unrank(mut rank: u32, tiles: &mut [u8]) {
    let n = tiles.len();
    let mut digits = [0u32; MAX_RANKED_CELLS];
    for i in (0..n).rev() {
        let base = (n - i) as u32;
        digits[i] = rank % base;
        rank /= base;
    }
    let mut free = (1u32 << n) - 1;
    for (i, tile) in tiles.iter_mut().enumerate() {
        // The digit-th smallest tile not yet used.
        let mut left = free;
        for _ in 0..digits[i] {
            left &= left - 1;
        }
        let chosen = left.trailing_zeros();
        *tile = chosen as u8;
        free &= !(1 << chosen);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_permutations_in_lexicographic_order() {
        // Lexicographic order of the permutations of 0..4, made by the standard successor rule.
        let mut tiles: Vec<u8> = (0..4).collect();
        let mut expected = 0u32;
        loop {
            assert_eq!(rank(&tiles), expected, "{tiles:?}");
            let mut back = vec![0u8; 4];
            unrank(expected, &mut back);
            assert_eq!(back, tiles);
            expected += 1;
            let Some(i) = (1..4).rev().find(|&i| tiles[i - 1] < tiles[i]) else {
                break;
            };
            let j = (i..4).rev().find(|&j| tiles[j] > tiles[i - 1]).unwrap();
            tiles.swap(i - 1, j);
            tiles[i..].reverse();
        }
        assert_eq!(expected, factorial(4));
    }

    #[test]
    fn nine_cells_round_trip_at_the_ends() {
        let mut tiles = [0u8; 9];
        for r in [0, 1, 1234, 181_439, factorial(9) - 1] {
            unrank(r, &mut tiles);
            assert_eq!(rank(&tiles), r);
        }
        unrank(factorial(9) - 1, &mut tiles);
        assert_eq!(tiles, [8, 7, 6, 5, 4, 3, 2, 1, 0]);
    }
}
