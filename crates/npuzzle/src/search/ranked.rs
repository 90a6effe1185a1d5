//! The closed set of best-first search on boards of up to 9 cells: an array indexed by the
//! state's perfect rank (its whole permutation's, as [`Ranker`](crate::pdb::index::Ranker)
//! ranks it), so a lookup is one read with no hashing
//! or probing. The array (`cells!` entries, 1.4 MB on 3×3) is kept per thread between
//! searches, and only the entries a search wrote are cleared after it.

use std::cell::RefCell;

use super::table::{Admitted, Closed};
use crate::pdb::index::entries;

/// The most cells a board may have to be ranked into a `u32` index table (9! = 362,880).
pub const MAX_RANKED_CELLS: usize = 9;

thread_local! {
    /// Cleared arrays, one per cell count, for the next search on this thread.
    static SPARE: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
}

/// Maps the rank of each state to its best node's index (plus one; 0 for none).
pub(crate) struct RankTable {
    slots: Vec<u32>,
    /// The ranks written, to clear them after the search.
    written: Vec<u32>,
}

impl RankTable {
    /// A table for boards of `cells` cells (at most [`MAX_RANKED_CELLS`]) holding the
    /// search's first node (index 0), whose state has this rank.
    pub(crate) fn with_root(cells: usize, rank: u32, capacity: usize) -> RankTable {
        assert!(
            cells <= MAX_RANKED_CELLS,
            "{cells} cells are too many to rank"
        );
        let len = entries(cells, cells) as usize;
        let spare = SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            let at = spare.iter().position(|slots| slots.len() == len)?;
            Some(spare.swap_remove(at))
        });
        let mut table = RankTable {
            slots: spare.unwrap_or_else(|| vec![0; len]),
            written: Vec::with_capacity(capacity),
        };
        table.slots[rank as usize] = 1;
        table.written.push(rank);
        table
    }
}

impl Closed for RankTable {
    #[inline(always)]
    fn admit(
        &mut self,
        rank: u64,
        _is_it: impl Fn(u32) -> bool,
        beats: impl Fn(u32) -> bool,
        at: u32,
    ) -> Admitted {
        let slot = &mut self.slots[rank as usize];
        match *slot {
            0 => {
                *slot = at + 1;
                self.written.push(rank as u32);
                Admitted::New
            }
            known if beats(known - 1) => {
                *slot = at + 1;
                Admitted::Instead(known - 1)
            }
            _ => Admitted::No,
        }
    }

    fn memory(&self) -> usize {
        (self.slots.capacity() + self.written.capacity()) * size_of::<u32>()
    }
}

impl Drop for RankTable {
    fn drop(&mut self) {
        for &rank in &self.written {
            self.slots[rank as usize] = 0;
        }
        let slots = std::mem::take(&mut self.slots);
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < 4 {
                spare.push(slots);
            }
        });
    }
}

/// The number of bits set in each 9-bit mask (a table: without a target CPU that has it,
/// `count_ones` is a dozen instructions, and ranking calls it at every cell).
const ONES: [u8; 512] = {
    let mut ones = [0u8; 512];
    let mut mask = 0;
    while mask < 512 {
        ones[mask] = (mask as u32).count_ones() as u8;
        mask += 1;
    }
    ones
};

/// The rank of a board of up to 9 cells packed four bits a cell into a `u64` (as
/// [`PackedTiles`](super::key::PackedTiles) packs it): the rank
/// [`Ranker`](crate::pdb::index::Ranker) gives its whole permutation, read straight from the
/// packed key in 32 bits (the 8-puzzle's A* ranks every node it generates).
#[inline(always)]
pub(crate) fn rank_packed(key: u64, cells: usize) -> u32 {
    let mut seen = 0usize;
    let mut rank = 0u32;
    for i in 0..cells {
        let tile = ((key >> (4 * i)) & 0xF) as u32;
        let smaller_before = u32::from(ONES[seen & ((1usize << tile) - 1) & 511]);
        rank = rank * (cells - i) as u32 + (tile - smaller_before);
        seen |= 1 << tile;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::index::Ranker;
    use crate::search::key::PackedTiles;

    #[test]
    fn the_packed_rank_is_the_rank() {
        for tiles in [
            vec![0u8, 1, 2, 3, 4, 5, 6, 7, 8],
            vec![8, 6, 7, 2, 5, 4, 3, 0, 1],
            vec![3, 1, 0, 2, 5, 4],
        ] {
            let ranker = Ranker::new(tiles.len(), tiles.len());
            assert_eq!(
                u64::from(rank_packed(u64::pack(&tiles), tiles.len())),
                ranker.rank(&tiles)
            );
        }
    }

    #[test]
    fn a_state_is_admitted_once_unless_a_better_node_comes_and_tables_come_back_clear() {
        let costs = [3u32, 5, 2];
        let mut table = RankTable::with_root(4, 7, 4);
        let beats = |at: usize| move |known: u32| costs[at] < costs[known as usize];
        assert!(matches!(
            table.admit(7, |_| true, beats(1), 1),
            Admitted::No
        ));
        assert!(matches!(
            table.admit(7, |_| true, beats(2), 2),
            Admitted::Instead(0)
        ));
        assert!(matches!(
            table.admit(9, |_| true, beats(1), 1),
            Admitted::New
        ));
        drop(table);
        // The next table on this thread reuses the array, cleared.
        let table = RankTable::with_root(4, 0, 4);
        assert!(table.slots.iter().skip(1).all(|&slot| slot == 0));
        assert_eq!(table.slots[0], 1);
    }
}
