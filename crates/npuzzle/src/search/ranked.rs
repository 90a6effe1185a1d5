//! The closed set of best-first search on boards of up to 9 cells: an array indexed by the
//! state's number among the states reachable ([`StateNumbers`]), so a lookup is one read with
//! no hashing or probing. The array (`cells!/2` entries, 726 KB on 3×3) is kept per thread
//! between searches, and only the entries of the states a search reached are cleared after it.

use std::cell::RefCell;
use std::sync::OnceLock;

use super::table::{Admitted, Closed};
use crate::board::Move;
use crate::rank::entries;

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

/// How many tiles each of the two looks of [`StateNumbers::of`] reads.
const QUARTER: usize = 4;

/// How many entries a [`Digits`] table has: four tiles of three bits each.
const BY_FOUR: usize = 1 << (3 * QUARTER);

/// The digits of an order's rank that four of its tiles give, for one board size, indexed by
/// the four tiles ([`by_fours`]). A tile's digit is the count of smaller tiles after it: that is
/// `tile − 1` less the smaller tiles before it, so the digits of the first four tiles depend on
/// those four alone, and the digits of the fifth and sixth (the last that count, see
/// [`StateNumbers`]) on the last four alone. Two lookups replace a chain of eight steps.
struct Digits {
    /// Weighted digits of the first four tiles, from their values.
    first: [u16; BY_FOUR],
    /// Weighted digits of the fifth and sixth tiles, from the last four.
    last: [u8; BY_FOUR],
}

/// [`Digits`] for boards of 4 to 9 cells, each made the first time a board of its size is
/// searched.
static DIGITS: [OnceLock<Digits>; MAX_RANKED_CELLS - 3] = [const { OnceLock::new() }; _];

impl Digits {
    /// The tables for boards of `cells` cells.
    fn of(cells: usize) -> &'static Digits {
        DIGITS[cells - 4].get_or_init(|| Digits::new(cells))
    }

    /// Works the tables out for boards of `cells` cells.
    fn new(cells: usize) -> Digits {
        // The halved weight of digit `i`, `(cells − 2 − i)!/2`: only the digits whose weight
        // is even count.
        let weight = |i: usize| match i + 3 < cells {
            true => factorial(cells - 2 - i) / 2,
            false => 0,
        };
        let mut digits = Digits {
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
            digits.first[four] = first as u16;
            digits.last[four] = last as u8;
        }
        digits
    }
}

/// `n!`, as [`entries`] counts the orders of `n` tiles (at most 9! here, so a `u32`).
fn factorial(n: usize) -> u32 {
    entries(n, n) as u32
}

/// The first four and the last four of an order's eight tiles, packed four bits each, as two
/// [`Digits`] indices: their low three bits, run together. Both halves at once: each byte's two
/// fields close up, then each half's two bytes.
#[inline(always)]
fn by_fours(order: u64) -> (usize, usize) {
    let order = order as u32;
    let bytes = (order & 0x0707_0707) | ((order >> 1) & 0x3838_3838);
    let halves = (bytes & 0x003F_003F) | ((bytes >> 2) & 0x0FC0_0FC0);
    let mask = BY_FOUR as u32 - 1;
    ((halves & mask) as usize, ((halves >> 16) & mask) as usize)
}

/// Numbers the states reachable from one board of up to 9 cells (packed four bits a cell, as
/// [`PackedTiles`](crate::packed::PackedTiles) packs them) from 0 to half of `cells!`, with none
/// left over: the blank's cell, then the order of the other tiles read row by row.
///
/// For each cell of the blank only one parity of that order is reachable, and two orders that
/// differ in their last two tiles have opposite parities: so the order's rank (its
/// lexicographic index, as [`Ranker`](crate::rank::Ranker) ranks it) halved is enough.
/// A move along a row leaves the order as it was, so a child's number is its parent's plus a
/// multiple of the stride; only a move along a column ranks the order again.
#[derive(Clone)]
pub(crate) struct StateNumbers {
    cells: usize,
    /// How many orders there are for each cell of the blank: `(cells - 1)! / 2`.
    stride: u32,
    /// The tables that give the order's rank.
    digits: &'static Digits,
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
            stride: factorial(cells - 1) / 2,
            digits: Digits::of(cells),
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
        let (first, last) = by_fours(order);
        let (first, last) = (self.digits.first[first], self.digits.last[last]);
        blank as u32 * self.stride + u32::from(first) + u32::from(last)
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
