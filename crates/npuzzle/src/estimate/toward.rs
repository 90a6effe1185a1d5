//! Manhattan distance + linear conflicts toward any board of a shape (the goal, or the last
//! board of a window), and what one slide changes in them ([`Toward::slide`]): the tables and
//! the step by which the one kept estimate ([`super::kept::Kept`]) goes from move to move in
//! every search (IDA*, weighted A*, the wide beams' rank).
//!
//! A slide moves one tile along one axis, so only that tile's distance changes, and only the
//! line of the tile's own target that it leaves or enters can change its count of removals
//! (the tiles counted in a line are those whose target is in it): one line to count, twice.

use super::Increasing;
use crate::board::{Shape, steps_between};
use crate::packed::PackedTiles;

/// A board's tiles, read cell by cell: a slice, or tiles packed into a word.
pub(crate) trait TileAt {
    /// The tile on `cell` (0 for the blank).
    fn tile_at(&self, cell: usize) -> u8;
}

impl TileAt for [u8] {
    #[inline(always)]
    fn tile_at(&self, cell: usize) -> u8 {
        self[cell]
    }
}

impl TileAt for u128 {
    #[inline(always)]
    fn tile_at(&self, cell: usize) -> u8 {
        self.tile(cell)
    }
}

/// A line of the board: a row or a column, by its index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line {
    /// A row (else a column).
    pub(crate) row: bool,
    /// Its index among the rows or the columns.
    pub(crate) index: usize,
}

/// What one slide changes in Manhattan + linear conflict toward a board: the step every
/// search keeps its estimate by ([`super::kept::Kept::after`]; the beams' surcharges too),
/// from [`Toward::slide`] (or [`Toward::moved`], Manhattan alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slide {
    /// The tile's distance from its target cell before the slide.
    pub(crate) was: u16,
    /// Its distance after.
    pub(crate) now: u16,
    /// How many more line removals the board has after than before.
    pub(crate) removals: i32,
}

impl Slide {
    /// The change in Manhattan + 2 × line removals.
    #[inline(always)]
    pub(crate) fn estimate(&self) -> i32 {
        i32::from(self.now) - i32::from(self.was) + 2 * self.removals
    }
}

/// The tables of Manhattan + linear conflict toward one board of a shape.
#[derive(Clone, Debug)]
pub(crate) struct Toward {
    shape: Shape,
    /// The distance of tile `t` on cell `c` from its target cell: `manhattan[t * cells + c]`;
    /// the blank's row is zero.
    manhattan: Vec<u16>,
    /// Each cell's row and column.
    row: Vec<u8>,
    column: Vec<u8>,
    /// Each tile's target row and column (the blank's are out of range).
    goal_row: Vec<u8>,
    goal_column: Vec<u8>,
}

impl Toward {
    /// Toward the goal of the shape.
    pub(crate) fn goal(shape: Shape) -> Toward {
        Toward::board(shape, crate::board::Board::goal_of(shape).tiles())
    }

    /// Toward the board `target` (its tiles, cell by cell): its estimate is 0 there alone.
    pub(crate) fn board(shape: Shape, target: &[u8]) -> Toward {
        let cells = shape.cells();
        let mut toward = Toward {
            shape,
            manhattan: vec![0; cells * cells],
            row: (0..cells).map(|c| shape.column_row(c).1 as u8).collect(),
            column: (0..cells).map(|c| shape.column_row(c).0 as u8).collect(),
            goal_row: vec![u8::MAX; cells],
            goal_column: vec![u8::MAX; cells],
        };
        toward.aim(target);
        toward
    }

    /// Aimed at the board `target` (its tiles, cell by cell, of the same shape) instead, in
    /// the memory it has: the many short searches between two boards aim one at each end.
    pub(crate) fn aim(&mut self, target: &[u8]) {
        let cells = self.row.len();
        debug_assert_eq!(target.len(), cells, "a board of the shape");
        for (cell, &tile) in target.iter().enumerate().filter(|&(_, &tile)| tile != 0) {
            self.goal_row[tile as usize] = self.row[cell];
            self.goal_column[tile as usize] = self.column[cell];
        }
        // Each tile's row of distances, cell by cell (the blank's stays zero).
        let place = |column: u8, row: u8| (usize::from(column), usize::from(row));
        for tile in 1..cells {
            let target = place(self.goal_column[tile], self.goal_row[tile]);
            let distances = &mut self.manhattan[tile * cells..(tile + 1) * cells];
            for (cell, distance) in distances.iter_mut().enumerate() {
                let here = place(self.column[cell], self.row[cell]);
                *distance = steps_between(here, target) as u16;
            }
        }
    }

    /// The shape.
    pub(crate) fn shape(&self) -> Shape {
        self.shape
    }

    /// The distances per (tile, cell), `tile * cells + cell`.
    pub(crate) fn distances(&self) -> &[u16] {
        &self.manhattan
    }

    /// The distance of `tile` on `cell` from its target cell (0 for the blank).
    #[inline(always)]
    pub(crate) fn distance(&self, tile: u8, cell: usize) -> u16 {
        self.manhattan[tile as usize * self.row.len() + cell]
    }

    /// Bytes the tables hold.
    pub(crate) fn memory(&self) -> usize {
        self.manhattan.len() * 2 + self.row.len() * 4
    }

    /// Every row, then every column.
    pub(crate) fn lines(&self) -> impl Iterator<Item = Line> {
        let rows = (0..self.shape.height).map(|index| Line { row: true, index });
        let columns = (0..self.shape.width).map(|index| Line { row: false, index });
        rows.chain(columns)
    }

    /// Tiles that must leave `line` so the rest stand in order, before and after the cell
    /// `swap.0` is read as holding tile `swap.1`.
    #[inline(always)]
    pub(crate) fn removals<T: TileAt + ?Sized>(
        &self,
        tiles: &T,
        line: Line,
        swap: (usize, u8),
    ) -> (u16, u16) {
        let (first, stride, count) = if line.row {
            (line.index * self.shape.width, 1, self.shape.width)
        } else {
            (line.index, self.shape.width, self.shape.height)
        };
        let (goal_line, goal_place) = if line.row {
            (&self.goal_row, &self.goal_column)
        } else {
            (&self.goal_column, &self.goal_row)
        };
        // The blank's goal line is out of range: it is never in a line.
        let index = line.index as u8;
        let (mut before, mut after) = (Increasing::default(), Increasing::default());
        for at in (0..count).map(|i| first + i * stride) {
            let tile = usize::from(tiles.tile_at(at));
            before.push_if(goal_line[tile] == index, goal_place[tile]);
            let tile = if at == swap.0 {
                usize::from(swap.1)
            } else {
                tile
            };
            after.push_if(goal_line[tile] == index, goal_place[tile]);
        }
        (before.removals(), after.removals())
    }

    /// The Manhattan distance of a whole board.
    pub(crate) fn manhattan<T: TileAt + ?Sized>(&self, tiles: &T) -> u16 {
        (0..self.row.len())
            .map(|cell| self.distance(tiles.tile_at(cell), cell))
            .sum()
    }

    /// The line removals of a whole board, summed over its rows and columns.
    pub(crate) fn line_removals<T: TileAt + ?Sized>(&self, tiles: &T) -> u16 {
        let none = (usize::MAX, 0);
        self.lines()
            .map(|line| self.removals(tiles, line, none).0)
            .sum()
    }

    /// Manhattan + 2 × line removals of a whole board: admissible.
    pub(crate) fn estimate<T: TileAt + ?Sized>(&self, tiles: &T) -> u16 {
        self.manhattan(tiles) + 2 * self.line_removals(tiles)
    }

    /// What the slide of the `tile` on `tile_at` into the blank on `blank_at` (a neighbour;
    /// `vertical` when they share a column) changes on the board `tiles` (before the slide).
    #[inline(always)]
    pub(crate) fn slide<T: TileAt + ?Sized>(
        &self,
        tiles: &T,
        tile: u8,
        tile_at: usize,
        blank_at: usize,
        vertical: bool,
    ) -> Slide {
        Slide {
            removals: self.removals_change(tiles, tile, tile_at, blank_at, vertical),
            ..self.moved(tile, tile_at, blank_at)
        }
    }

    /// What the slide of the `tile` on `tile_at` into the blank on `blank_at` changes in
    /// Manhattan distance alone (no line is counted: `removals` is 0).
    #[inline(always)]
    pub(crate) fn moved(&self, tile: u8, tile_at: usize, blank_at: usize) -> Slide {
        Slide {
            was: self.distance(tile, tile_at),
            now: self.distance(tile, blank_at),
            removals: 0,
        }
    }

    /// How many more line removals the board has once the `tile` on `tile_at` and the blank
    /// on `blank_at` (a neighbour; `vertical` when they share a column) swap than on `tiles`.
    #[inline(always)]
    fn removals_change<T: TileAt + ?Sized>(
        &self,
        tiles: &T,
        tile: u8,
        tile_at: usize,
        blank_at: usize,
        vertical: bool,
    ) -> i32 {
        // A vertical slide changes the rows of both cells, a horizontal one their columns;
        // only the tile's own goal line can change its count.
        let (goal_line, line_of) = if vertical {
            (self.goal_row[tile as usize], &self.row)
        } else {
            (self.goal_column[tile as usize], &self.column)
        };
        let line = Line {
            row: vertical,
            index: goal_line as usize,
        };
        let mut change = 0i32;
        for (cell, swapped) in [(tile_at, (tile_at, 0u8)), (blank_at, (blank_at, tile))] {
            if line_of[cell] == goal_line {
                let (before, after) = self.removals(tiles, line, swapped);
                change += i32::from(after) - i32::from(before);
            }
        }
        change
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::estimate::linear_conflict;
    use crate::random::{SplitMix64, random_solvable};

    #[test]
    fn toward_the_goal_it_is_manhattan_plus_linear_conflict() {
        for (width, height) in [(3, 3), (4, 4), (6, 6), (7, 5), (3, 9)] {
            let shape = Shape::new(width, height).unwrap();
            let toward = Toward::goal(shape);
            for seed in 0..10 {
                let board = random_solvable(shape, seed);
                let tiles = board.tiles();
                assert_eq!(usize::from(toward.estimate(tiles)), linear_conflict(&board));
                let packed = (shape.cells() <= 25).then(|| u128::pack(tiles));
                if let Some(packed) = packed {
                    assert_eq!(toward.estimate(&packed), toward.estimate(tiles));
                }
            }
        }
    }

    #[test]
    fn aimed_again_it_is_the_estimate_made_afresh_toward_the_new_board() {
        for (width, height) in [(5, 4), (4, 4), (3, 9)] {
            let shape = Shape::new(width, height).unwrap();
            let mut toward = Toward::board(shape, random_solvable(shape, 7).tiles());
            for seed in 8..12 {
                let target = random_solvable(shape, seed);
                toward.aim(target.tiles());
                let fresh = Toward::board(shape, target.tiles());
                assert_eq!(toward.distances(), fresh.distances(), "{shape} seed {seed}");
                let board = random_solvable(shape, seed + 100);
                assert_eq!(
                    toward.estimate(board.tiles()),
                    fresh.estimate(board.tiles())
                );
            }
        }
    }

    #[test]
    fn toward_another_board_it_is_zero_there_and_changes_slide_by_slide() {
        for (width, height) in [(5, 4), (4, 4), (7, 7), (3, 9)] {
            let shape = Shape::new(width, height).unwrap();
            let target = random_solvable(shape, 3);
            let toward = Toward::board(shape, target.tiles());
            assert_eq!(toward.estimate(target.tiles()), 0);
            let mut board = random_solvable(shape, 4);
            assert!(toward.estimate(board.tiles()) > 0);
            let mut removals = toward.line_removals(board.tiles());
            let mut random = SplitMix64::new(5);
            let mut changed = 0;
            for step in 0..2_000 {
                let mv = Move::ALL[random.below(4) as usize];
                let blank = board.blank();
                let Some(from) = shape.step(blank, mv) else {
                    continue;
                };
                let tile = board.tile_at(from);
                let vertical = matches!(mv, Move::Up | Move::Down);
                let slide = toward.slide(board.tiles(), tile, from, blank, vertical);
                let change = slide.removals;
                let estimate = toward.estimate(board.tiles());
                board.apply(mv);
                // Read from the board after the slide, the change comes back negated.
                let back = toward.slide(board.tiles(), tile, blank, from, vertical);
                assert_eq!(back.estimate(), -slide.estimate(), "{shape} step {step}");
                assert_eq!((back.was, back.now), (slide.now, slide.was));
                let after = i32::from(estimate) + slide.estimate();
                assert_eq!(after, i32::from(toward.estimate(board.tiles())));
                removals = (i32::from(removals) + change) as u16;
                assert_eq!(
                    removals,
                    toward.line_removals(board.tiles()),
                    "{shape} step {step}"
                );
                changed += usize::from(change != 0);
            }
            assert!(
                changed > 20,
                "{shape}: {changed} slides changed the removals"
            );
        }
    }
}
