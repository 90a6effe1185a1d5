//! How a table build numbers its abstract states: the cells a pattern's tiles occupy (a
//! combination, by its colex rank), the order of the tiles on those cells (a permutation of
//! the pattern, by its lexicographic rank) and the region of free cells the blank is in. The
//! cells are numbered as a snake runs through the board ([`Snake`]).
//!
//! A state's number is `order * slots + slot`, where a slot is one region of one combination
//! (`first_slot[c] + region`): every number stands for a state that exists, so a build's two
//! bits a state hold nothing wasted. A move of a tile along the snake keeps the tiles' order,
//! so most of a state's neighbours lie in the same order's block of `slots` states.

use crate::board::{Move, Shape};
use crate::rank::{Combinations, Ranker, entries};

/// A board's cells as a build numbers them: row by row, every other row backwards (a snake).
/// A tile moved along a row passes no other cell, and neither does the one vertical move where
/// the snake turns, so both keep the tiles' order (see [`Layout::order`]) and reach a state in
/// the same order's block. Row by row without the snake, 45 % of 4×4's moves would leave the
/// block (with 8 of its cells taken at random), against 34 %.
#[derive(Clone, Copy, Debug)]
pub(super) struct Snake {
    /// Each board cell's number in the build.
    numbers: [u8; 32],
    /// Each build number's board cell.
    cells: [u8; 32],
}

impl Snake {
    fn new(shape: Shape) -> Snake {
        let mut numbers = [0u8; 32];
        for (cell, number) in numbers.iter_mut().enumerate().take(shape.cells()) {
            let (column, row) = shape.column_row(cell);
            let along = if row % 2 == 0 {
                column
            } else {
                shape.width - 1 - column
            };
            *number = (row * shape.width + along) as u8;
        }
        let mut cells = [0u8; 32];
        for cell in 0..shape.cells() {
            cells[usize::from(numbers[cell])] = cell as u8;
        }
        Snake { numbers, cells }
    }

    /// A board cell's number in the build.
    #[inline(always)]
    pub(super) fn number(&self, cell: usize) -> u8 {
        self.numbers[cell]
    }

    /// The board cell a build's number stands for.
    #[inline(always)]
    pub(super) fn cell(&self, number: u8) -> u8 {
        self.cells[usize::from(number)]
    }
}

/// The 32-bit masks of a board's cells, by their build numbers, for flood fills.
#[derive(Clone, Copy, Debug)]
pub(super) struct Masks {
    pub(super) all: u32,
    /// The cells next to each cell.
    near: [u32; 32],
}

impl Masks {
    fn new(shape: Shape, snake: &Snake) -> Masks {
        let mut near = [0u32; 32];
        for (number, mask) in near.iter_mut().enumerate().take(shape.cells()) {
            let cell = usize::from(snake.cell(number as u8));
            *mask = (Move::ALL.iter())
                .filter_map(|&mv| shape.step(cell, mv))
                .fold(0, |m, other| m | 1 << snake.number(other));
        }
        let all = u32::MAX >> (32 - shape.cells());
        Masks { all, near }
    }

    /// The cells next to `cell`.
    #[inline(always)]
    pub(super) fn near(&self, cell: u32) -> u32 {
        self.near[cell as usize]
    }

    /// The cells next to any cell of `m`.
    fn around(&self, mut m: u32) -> u32 {
        let mut around = 0;
        while m != 0 {
            around |= self.near(m.trailing_zeros());
            m &= m - 1;
        }
        around
    }

    /// The cells of `free` reachable from `start` through `free`.
    pub(super) fn flood(&self, start: u32, free: u32) -> u32 {
        let mut region = start;
        loop {
            let grown = (region | self.around(region)) & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// Where a combination's number of regions less one is kept in its [`Layout::first_slot`]
/// entry, in the high 4 bits above its first slot.
const REGIONS: u32 = 28;

/// The numbering of one pattern's abstract states (see the module doc).
#[derive(Debug)]
pub(super) struct Layout {
    /// The cells' numbers in the build: every cell below is one.
    pub(super) snake: Snake,
    pub(super) masks: Masks,
    cells: usize,
    k: usize,
    /// Ranks the sets of cells the tiles occupy.
    combinations: Combinations,
    /// Each combination's first slot, and its number of regions less one above [`REGIONS`]
    /// (nought unless its free cells make more than one region).
    first_slot: Vec<u32>,
    /// The region number of each free cell, 4 bits a cell, for the combinations with
    /// more than one: cell `c`'s in `region_of[combination * words + c / 16]`, where `words` is
    /// [`Layout::region_words`].
    region_of: Vec<u64>,
    /// The words of `region_of` a combination takes: 1 up to 16 cells, else 2.
    region_words: usize,
    /// Each slot's combination.
    slot_combo: Vec<u32>,
    /// Each slot's region of free cells.
    slot_region: Vec<u32>,
    /// Ranks the tiles' order (a permutation of the pattern).
    pub(super) orders: Ranker,
}

impl Layout {
    /// The numbering of `k` tiles' states on a board of `shape`.
    pub(super) fn new(shape: Shape, k: usize) -> Layout {
        let cells = shape.cells();
        let snake = Snake::new(shape);
        let masks = Masks::new(shape, &snake);
        let combinations = Combinations::new(cells, k);
        let mut layout = Layout {
            snake,
            masks,
            cells,
            k,
            combinations,
            first_slot: Vec::new(),
            region_of: Vec::new(),
            region_words: cells.div_ceil(16),
            slot_combo: Vec::new(),
            slot_region: Vec::new(),
            orders: Ranker::new(k, k),
        };
        for combination in 0..layout.combinations.len() {
            layout.add_combination(combination);
        }
        layout
    }

    /// Numbers the regions of the combination of rank `combination` (the next in colex order).
    fn add_combination(&mut self, combination: u32) {
        let occupied = self.combinations.unrank(combination);
        let first = self.slot_combo.len() as u32;
        let base = self.region_of.len();
        self.region_of.resize(base + self.region_words, 0);
        let free = self.masks.all & !occupied;
        let mut left = free;
        let mut number = 0u8;
        while left != 0 {
            let region = self.masks.flood(left & left.wrapping_neg(), free);
            let mut cells_of = region;
            while cells_of != 0 {
                let cell = cells_of.trailing_zeros() as usize;
                self.region_of[base + cell / 16] |= u64::from(number) << (cell % 16 * 4);
                cells_of &= cells_of - 1;
            }
            self.slot_combo.push(combination);
            self.slot_region.push(region);
            // Fewer than 16 regions: a partition's tables fit 32-bit build indices, and so few
            // tiles cannot wall off 16 regions.
            assert!(number < 15, "a combination with more than 15 regions");
            number += 1;
            left &= !region;
        }
        assert!(
            first < 1 << REGIONS,
            "more slots than a combination's entry holds"
        );
        self.first_slot
            .push(first | u32::from(number - 1) << REGIONS);
    }

    /// The number of slots (regions of combinations).
    pub(super) fn slots(&self) -> u64 {
        self.slot_combo.len() as u64
    }

    /// The number of combinations.
    #[cfg(test)]
    pub(super) fn combinations(&self) -> u64 {
        u64::from(self.combinations.len())
    }

    /// The number of states.
    pub(super) fn states(&self) -> u64 {
        self.orders.len() * self.slots()
    }

    /// The number of placements: orders × combinations.
    pub(super) fn placements(&self) -> u64 {
        entries(self.cells, self.k)
    }

    /// The colex rank of a set of cells among sets of its size.
    #[inline(always)]
    pub(super) fn combination(&self, occupied: u32) -> u32 {
        self.combinations.rank(occupied)
    }

    /// The occupied cells of a combination.
    #[inline(always)]
    pub(super) fn occupied(&self, combination: u32) -> u32 {
        self.combinations.unrank(combination)
    }

    /// A slot's combination and region.
    #[inline(always)]
    pub(super) fn slot(&self, slot: u32) -> (u32, u32) {
        (
            self.slot_combo[slot as usize],
            self.slot_region[slot as usize],
        )
    }

    /// The slot of the region holding the free `cell` in a combination.
    #[inline(always)]
    pub(super) fn slot_of(&self, combination: u32, cell: u32) -> u32 {
        let (first, regions) = self.regions(combination);
        if regions == 1 {
            return first;
        }
        let word = self.region_of[combination as usize * self.region_words + cell as usize / 16];
        first + (word >> (cell % 16 * 4) & 0xF) as u32
    }

    /// A combination's first slot and its number of regions (its slots).
    #[inline(always)]
    pub(super) fn regions(&self, combination: u32) -> (u32, u32) {
        let entry = self.first_slot[combination as usize];
        (entry & ((1 << REGIONS) - 1), (entry >> REGIONS) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::nth_set_bit;

    #[test]
    fn a_wall_splits_the_free_cells_into_regions() {
        let shape = Shape::new(3, 3).unwrap();
        let layout = Layout::new(shape, 3);
        let snake = layout.snake;
        let number = |cell: usize| u32::from(snake.number(cell));
        let mask = |cells: &[usize]| cells.iter().fold(0u32, |m, &c| m | 1 << number(c));
        // A wall down the middle column leaves the left column alone.
        let occupied = mask(&[1, 4, 7]);
        let (left, right) = (mask(&[0, 3, 6]), mask(&[2, 5, 8]));
        let masks = layout.masks;
        assert_eq!(masks.flood(1 << number(0), masks.all & !occupied), left);
        let c = layout.combination(occupied);
        assert_eq!(layout.occupied(c), occupied);
        let (on_left, on_right) = (layout.slot_of(c, number(0)), layout.slot_of(c, number(2)));
        assert_ne!(on_left, on_right);
        assert_eq!(layout.slot_of(c, number(6)), on_left);
        assert_eq!(layout.slot(on_left), (c, left));
        assert_eq!(layout.slot(on_right), (c, right));
    }

    /// Every move along a row, and the vertical one where the snake turns, passes no cell in
    /// the build's numbering; every cell has its own number.
    #[test]
    fn the_snake_numbers_each_cell_once_and_passes_no_cell_along_a_row_or_at_its_turns() {
        for (width, height) in [(4, 3), (3, 4), (5, 5)] {
            let shape = Shape::new(width, height).unwrap();
            let snake = Snake::new(shape);
            let cells = shape.cells();
            assert!((0..cells).all(|c| usize::from(snake.cell(snake.number(c))) == c));
            let beside = (0..cells).flat_map(|c| (0..cells).map(move |d| (c, d)));
            let moves = beside.filter(|&(c, d)| shape.distance(c, d) == 1);
            let mut kept = 0;
            for (c, d) in moves {
                let ((column, row), (_, other_row)) = (shape.column_row(c), shape.column_row(d));
                let at_turn = column
                    == if row.min(other_row) % 2 == 0 {
                        width - 1
                    } else {
                        0
                    };
                if row == other_row || at_turn {
                    assert_eq!(snake.number(c).abs_diff(snake.number(d)), 1, "{c} {d}");
                    kept += 1;
                }
            }
            // Each row's moves both ways, and each turn's.
            assert_eq!(kept, 2 * (height * (width - 1) + height - 1));
        }
    }

    #[test]
    fn combinations_and_orders_number_every_placement_once() {
        let shape = Shape::new(4, 3).unwrap();
        let layout = Layout::new(shape, 3);
        let placements = Ranker::new(12, 3);
        assert_eq!(
            layout.orders.len() * layout.combinations(),
            placements.len()
        );
        let mut seen = vec![false; placements.len() as usize];
        let mut positions = [0u8; 3];
        for rank in 0..placements.len() {
            placements.unrank(rank, &mut positions);
            let occupied = positions.iter().fold(0u32, |m, &p| m | 1 << p);
            let c = layout.combination(occupied);
            assert_eq!(layout.occupied(c), occupied);
            let order = layout.orders.rank_order(&positions);
            // The order's permutation, unranked, puts each tile back on its cell.
            let mut ranks = [0u8; 3];
            layout.orders.unrank(order, &mut ranks);
            for (i, &r) in ranks.iter().enumerate() {
                assert_eq!(nth_set_bit(occupied, u32::from(r)), u32::from(positions[i]));
            }
            let number = (order * layout.combinations() + u64::from(c)) as usize;
            assert!(!seen[number]);
            seen[number] = true;
        }
    }
}
