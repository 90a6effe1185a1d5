//! The closed set of best-first search on boards of up to 9 cells: an array indexed by the
//! state's number among the states reachable ([`StateNumbers`]: the blank's cell and the
//! other tiles' order ranked by the engine's one ranking, [`crate::rank`]), so a lookup is one
//! read with no hashing or probing. The array (`cells!/2` entries, 726 KB on 3×3) is kept per
//! thread between searches, and only the entries of the states a search reached are cleared
//! after it.

use std::cell::RefCell;

use super::table::{Admitted, Closed};
use crate::board::Move;
use crate::rank::{HalfOrderRanks, entries};

/// The most cells a board may have to be ranked into a `u32` index table (9! = 362,880).
pub const MAX_RANKED_CELLS: usize = 9;

thread_local! {
    /// Cleared arrays, one per cell count, for the next search on this thread.
    static SPARE: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
}

/// Maps the number of each state to its best node's index (plus one; 0 for none).
pub(crate) struct RankTable {
    slots: Vec<u32>,
}

impl RankTable {
    /// A table of `len` entries holding the search's first node (index 0), whose state has
    /// this number.
    pub(crate) fn with_root(len: usize, rank: u32) -> RankTable {
        let spare = SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            let at = spare.iter().position(|slots| slots.len() == len)?;
            Some(spare.swap_remove(at))
        });
        let mut table = RankTable {
            slots: spare.unwrap_or_else(|| vec![0; len]),
        };
        table.slots[rank as usize] = 1;
        table
    }

    /// Clears the entries of the states numbered `ranks` (every state the search reached) and
    /// keeps the array for the next search on this thread. A table dropped instead is freed.
    pub(crate) fn clear(mut self, ranks: impl Iterator<Item = u32>) {
        for rank in ranks {
            self.slots[rank as usize] = 0;
        }
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < 4 {
                spare.push(std::mem::take(&mut self.slots));
            }
        });
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
        self.slots.capacity() * size_of::<u32>()
    }
}

/// Numbers the states reachable from one board of up to 9 cells (packed four bits a cell, as
/// [`PackedTiles`](crate::packed::PackedTiles) packs them) from 0 to half of `cells!`, with none
/// left over: the blank's cell, then the order of the other tiles read row by row.
///
/// For each cell of the blank only one parity of that order is reachable, and two orders that
/// differ in their last two tiles have opposite parities: so the order's rank (its
/// lexicographic index, as [`Ranker`](crate::rank::Ranker) ranks it) halved is enough, as
/// [`HalfOrderRanks`] gives it. A move along a row leaves the order as it was, so a child's
/// number is its parent's plus a multiple of the stride; only a move along a column ranks the
/// order again.
#[derive(Clone)]
pub(crate) struct StateNumbers {
    cells: usize,
    /// How many orders there are for each cell of the blank: `(cells - 1)! / 2`.
    stride: u32,
    /// The halved ranks of the other tiles' orders.
    orders: &'static HalfOrderRanks,
}

impl StateNumbers {
    /// The numbering for boards of `cells` cells (at most [`MAX_RANKED_CELLS`], at least 4).
    pub(crate) fn new(cells: usize) -> StateNumbers {
        assert!(
            (4..=MAX_RANKED_CELLS).contains(&cells),
            "{cells} cells cannot be numbered"
        );
        StateNumbers {
            cells,
            stride: (entries(cells - 1, cells - 1) / 2) as u32,
            orders: HalfOrderRanks::of(cells),
        }
    }

    /// How many numbers there are: `cells!/2`.
    pub(crate) fn len(&self) -> usize {
        self.cells * self.stride as usize
    }

    /// The number of the state `key` with the blank on cell `blank`.
    #[inline(always)]
    pub(crate) fn of(&self, key: u64, blank: usize) -> u32 {
        // The tiles without the blank: the nibbles above the blank's come down one.
        let below = (1u64 << (4 * blank)) - 1;
        let order = (key & below) | ((key >> 4) & !below);
        blank as u32 * self.stride + self.orders.rank(order)
    }

    /// The number of `child`, reached from a state numbered `parent` by the blank's move
    /// `mv` onto cell `to`.
    #[inline(always)]
    pub(crate) fn of_child(&self, parent: u32, child: u64, mv: Move, to: usize) -> u32 {
        // Along a row the tiles keep their order.
        match mv {
            Move::Left => parent - self.stride,
            Move::Right => parent + self.stride,
            Move::Up | Move::Down => self.of(child, to),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::packed::PackedTiles;
    use crate::rank::Ranker;
    use crate::search::bfs::goal_distances;

    /// Every state reachable from the goal, with its blank's cell.
    fn reachable(shape: Shape) -> Vec<(u64, usize)> {
        let states = goal_distances(shape).expect("a small shape").into_keys();
        let blank = |key: u64| (0..shape.cells()).find(|&cell| key.tile(cell) == 0);
        states
            .map(|key| (key, blank(key).expect("a blank")))
            .collect()
    }

    #[test]
    fn the_reachable_states_are_numbered_one_to_one_and_children_from_their_parents() {
        for (width, height) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            let shape = Shape::new(width, height).unwrap();
            let numbers = StateNumbers::new(shape.cells());
            let orders = Ranker::new(shape.cells() - 1, shape.cells() - 1);
            let states = reachable(shape);
            assert_eq!(states.len(), numbers.len(), "{shape}: half of cells!");
            let mut taken = vec![false; numbers.len()];
            for &(key, blank) in &states {
                let number = numbers.of(key, blank);
                // The blank's cell, then the lexicographic rank of the other tiles' order, halved.
                let order: Vec<u8> = (0..shape.cells())
                    .filter(|&cell| cell != blank)
                    .map(|cell| key.tile(cell) - 1)
                    .collect();
                let expected = blank as u64 * u64::from(numbers.stride) + orders.rank(&order) / 2;
                assert_eq!(u64::from(number), expected, "{shape}: {key:x}");
                assert!(
                    !std::mem::replace(&mut taken[number as usize], true),
                    "{shape}"
                );
                for mv in Move::ALL {
                    let Some(from) = shape.step(blank, mv) else {
                        continue;
                    };
                    let child = key.slide(blank, from);
                    assert_eq!(
                        numbers.of_child(number, child, mv, from),
                        numbers.of(child, from),
                        "{shape}: {mv:?} from {blank}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_state_is_admitted_once_unless_a_better_node_comes_and_tables_come_back_clear() {
        let costs = [3u32, 5, 2];
        let mut table = RankTable::with_root(24, 7);
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
        let array = table.slots.as_ptr();
        table.clear([7, 9].into_iter());
        // The next table on this thread reuses the array, cleared.
        let table = RankTable::with_root(24, 0);
        assert_eq!(table.slots.as_ptr(), array, "the same array");
        assert!(table.slots.iter().skip(1).all(|&slot| slot == 0));
        assert_eq!(table.slots[0], 1);
    }
}
