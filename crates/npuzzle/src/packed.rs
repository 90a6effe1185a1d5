//! The engine's one packing: a board's tiles packed into one word, cheap to hash, compare and
//! copy, for the closed sets of best-first search; the cells of a stage search's tracked
//! tiles, a byte each ([`cell_in`], [`with_cell`]); and a pattern's cells while its table is
//! built, five bits each ([`pack_cells`], [`unpack_cells`]). A packing, not a ranking: for
//! numbers without gaps, see [`crate::rank`].

use std::hash::Hash;

/// A board's tiles packed into a value that is cheap to hash, compare and copy.
pub trait PackedTiles: Clone + Eq + Hash {
    /// Whether boards of this many cells fit.
    fn fits(cells: usize) -> bool;
    /// Packs tiles (row-major, 0 for the blank).
    fn pack(tiles: &[u8]) -> Self;
    /// The tile in a cell.
    fn tile(&self, cell: usize) -> u8;
    /// The tiles after the tile in `from` slides into the blank at `blank`.
    fn slide(&self, blank: usize, from: usize) -> Self;
    /// Extra heap bytes one value holds, beyond its own size.
    fn heap_bytes(&self) -> usize {
        0
    }
}

/// Up to 16 cells, four bits each.
impl PackedTiles for u64 {
    fn fits(cells: usize) -> bool {
        cells <= 16
    }

    fn pack(tiles: &[u8]) -> u64 {
        tiles.iter().enumerate().fold(0, |key, (cell, &tile)| {
            key | (u64::from(tile) << (4 * cell))
        })
    }

    fn tile(&self, cell: usize) -> u8 {
        ((self >> (4 * cell)) & 0xF) as u8
    }

    fn slide(&self, blank: usize, from: usize) -> u64 {
        // The blank's nibble is zero, so the tile only needs clearing at `from` and setting at `blank`.
        let tile = (self >> (4 * from)) & 0xF;
        (self & !(0xF << (4 * from))) | (tile << (4 * blank))
    }
}

/// Up to 25 cells, five bits each.
impl PackedTiles for u128 {
    fn fits(cells: usize) -> bool {
        cells <= 25
    }

    fn pack(tiles: &[u8]) -> u128 {
        tiles.iter().enumerate().fold(0, |key, (cell, &tile)| {
            key | (u128::from(tile) << (5 * cell))
        })
    }

    fn tile(&self, cell: usize) -> u8 {
        ((self >> (5 * cell)) & 0x1F) as u8
    }

    fn slide(&self, blank: usize, from: usize) -> u128 {
        let tile = (self >> (5 * from)) & 0x1F;
        (self & !(0x1F << (5 * from))) | (tile << (5 * blank))
    }
}

/// Any board, a byte per cell.
impl PackedTiles for Box<[u8]> {
    fn fits(_cells: usize) -> bool {
        true
    }

    fn pack(tiles: &[u8]) -> Box<[u8]> {
        tiles.into()
    }

    fn tile(&self, cell: usize) -> u8 {
        self[cell]
    }

    fn slide(&self, blank: usize, from: usize) -> Box<[u8]> {
        let mut next = self.clone();
        next.swap(blank, from);
        next
    }

    fn heap_bytes(&self) -> usize {
        self.len()
    }
}

/// The other way round: the cells of up to 16 things (a stage search's blank and the tiles it
/// tracks, in slots), a byte each in a `u128`; slot `i` in bits `8i..8i+8`.
#[inline(always)]
pub(crate) fn cell_in(key: u128, slot: usize) -> usize {
    ((key >> (8 * slot)) & 0xFF) as usize
}

/// `key` with slot `slot` on `cell` (see [`cell_in`]).
#[inline(always)]
pub(crate) fn with_cell(key: u128, slot: usize, cell: usize) -> u128 {
    (key & !(0xFF << (8 * slot))) | ((cell as u128) << (8 * slot))
}

/// The cells of up to 12 tiles (a pattern's, while its table is built: the build's index
/// fits 32 bits), five bits each in a `u64`; tile `i` in bits `5i..5i+5`.
#[inline(always)]
pub(crate) fn pack_cells(cells: &[u8]) -> u64 {
    debug_assert!(cells.len() <= 12 && cells.iter().all(|&cell| cell < 32));
    (cells.iter().rev()).fold(0, |packed, &cell| packed << 5 | u64::from(cell))
}

/// The cells of `K` tiles that [`pack_cells`] packed.
#[inline(always)]
pub(crate) fn unpack_cells<const K: usize>(packed: u64) -> [u8; K] {
    std::array::from_fn(|i| (packed >> (5 * i) & 31) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_s_cells_unpack_as_they_were_packed() {
        let cells = [31, 0, 17, 5, 30, 1, 2, 29, 8, 16, 4, 23];
        let packed = pack_cells(&cells);
        assert_eq!(unpack_cells::<12>(packed), cells);
        assert_eq!(unpack_cells::<3>(pack_cells(&cells[..3])), [31, 0, 17]);
        assert_eq!(packed >> 60, 0, "twelve cells take 60 bits");
    }

    fn check<K: PackedTiles + std::fmt::Debug>(tiles: &[u8]) {
        let key = K::pack(tiles);
        for (cell, &tile) in tiles.iter().enumerate() {
            assert_eq!(key.tile(cell), tile);
        }
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        let from = if blank == 0 { 1 } else { blank - 1 };
        let mut swapped = tiles.to_vec();
        swapped.swap(blank, from);
        assert_eq!(key.slide(blank, from), K::pack(&swapped));
    }

    #[test]
    fn cells_by_slot_read_back_and_leave_the_other_slots_alone() {
        let key = (0..16).fold(0u128, |key, slot| with_cell(key, slot, 3 * slot + 1));
        assert!((0..16).all(|slot| cell_in(key, slot) == 3 * slot + 1));
        let moved = with_cell(key, 5, 200);
        assert_eq!(cell_in(moved, 5), 200);
        assert!((0..16).all(|slot| slot == 5 || cell_in(moved, slot) == cell_in(key, slot)));
    }

    #[test]
    fn pack_unpack_and_slide_agree() {
        let fifteen: Vec<u8> = vec![12, 1, 10, 2, 7, 11, 4, 14, 5, 0, 9, 15, 8, 13, 6, 3];
        check::<u64>(&fifteen);
        check::<u128>(&fifteen);
        check::<Box<[u8]>>(&fifteen);
        let twenty_four: Vec<u8> = (0..25).rev().collect();
        check::<u128>(&twenty_four);
        check::<Box<[u8]>>(&twenty_four);
    }
}
