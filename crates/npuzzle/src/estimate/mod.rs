//! How far a board is from its target, estimated: Hamming, Manhattan and linear conflict
//! (admissible lower bounds), the tables they read, and the longest increasing run that counts
//! a line's conflicts. Every search estimates with what is here.

pub(crate) mod kept;
pub(crate) mod pdb;
pub(crate) mod toward;

use crate::board::{Board, Shape};

/// The number of tiles out of place, the blank excluded.
pub fn hamming(board: &Board) -> usize {
    let shape = board.shape();
    board
        .tiles()
        .iter()
        .enumerate()
        .filter(|&(cell, &tile)| tile != 0 && shape.goal_cell(tile) != cell)
        .count()
}

/// The sum over tiles (blank excluded) of each tile's distance from its goal cell.
pub fn manhattan(board: &Board) -> usize {
    manhattan_where(board.shape(), board.tiles(), |_| true)
}

/// [`manhattan`] of the tiles of a board of `shape` (`tiles`, cell by cell) that stand on the
/// cells `counted` keeps: the one whole-board sum toward the goal (the construction counts
/// the tiles it has not yet placed so).
pub(crate) fn manhattan_where(
    shape: Shape,
    tiles: &[u8],
    counted: impl Fn(usize) -> bool,
) -> usize {
    (tiles.iter().enumerate())
        .filter(|&(cell, &tile)| tile != 0 && counted(cell))
        .map(|(cell, &tile)| shape.distance(cell, shape.goal_cell(tile)))
        .sum()
}

/// A table of Manhattan distances, indexed by `tile * cells + cell`; the blank's row is zero.
pub fn manhattan_table(shape: Shape) -> Vec<u16> {
    manhattan_table_toward(shape, |tile| shape.goal_cell(tile))
}

/// [`manhattan_table`] toward another board of the shape: `home(tile)` is the cell each tile
/// goes to (never asked of the blank).
pub(crate) fn manhattan_table_toward(shape: Shape, home: impl Fn(u8) -> usize) -> Vec<u16> {
    let cells = shape.cells();
    let mut table = vec![0u16; cells * cells];
    for tile in 1..cells {
        for cell in 0..cells {
            table[tile * cells + cell] = shape.distance(cell, home(tile as u8)) as u16;
        }
    }
    table
}

/// Manhattan plus linear conflict, kept admissible.
///
/// In each row and column, take the tiles that belong in that line; the fewest of them that
/// must leave the line so the rest stand in goal order is the line's length minus the longest
/// increasing run of their goal positions. Each such tile costs 2 extra moves.
pub fn linear_conflict(board: &Board) -> usize {
    manhattan(board) + 2 * conflict_removals(board)
}

/// The extra tiles that must leave their lines, summed over rows and columns.
fn conflict_removals(board: &Board) -> usize {
    let shape = board.shape();
    let goal_of = |cell: usize| {
        let tile = board.tile_at(cell);
        (tile != 0).then(|| shape.column_row(shape.goal_cell(tile)))
    };
    let rows: usize = (0..shape.height)
        .map(|row| {
            let cells = (0..shape.width).map(|column| shape.cell(column, row));
            removals_in_line(
                cells.filter_map(|cell| goal_of(cell).filter(|g| g.1 == row).map(|g| g.0)),
            )
        })
        .sum();
    let columns: usize = (0..shape.width)
        .map(|column| {
            let cells = (0..shape.height).map(|row| shape.cell(column, row));
            removals_in_line(
                cells.filter_map(|cell| goal_of(cell).filter(|g| g.0 == column).map(|g| g.1)),
            )
        })
        .sum();
    rows + columns
}

/// Given the goal positions (along the line) of the tiles that belong in a line, in the order
/// they stand, the fewest that must leave for the rest to be in order.
fn removals_in_line(goal_positions: impl Iterator<Item = usize>) -> usize {
    let mut run = Increasing::default();
    goal_positions.for_each(|position| run.push(position as u8));
    usize::from(run.removals())
}

/// The longest strictly increasing subsequence of the values pushed so far (each below 64:
/// places along a line of at most [`MAX_SIDE`](crate::board::MAX_SIDE) cells), kept without
/// allocating, branching or searching: the searches' incremental linear conflicts count each
/// line's removals with it in their inner loops.
///
/// Patience sorting with the piles' top values as the bits of one word: each value takes the
/// place of the smallest top at least as large (the lowest bit at or above its own), or starts
/// a pile when there is none; the piles are as many as the longest run. On DeepCubeA's 7×7
/// the wide beams spent 28 % of their time counting line removals with the binary search
/// over an array of tops that this replaces, and run 8 % faster without it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Increasing {
    tops: u64,
    pushed: u8,
}

impl Increasing {
    /// Adds the next value.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: u8) {
        self.push_if(true, value);
    }

    /// Adds `value` if `wanted`, without a branch (whether a tile belongs in a line is as
    /// likely one way as the other, and a branch on it mispredicts).
    #[inline(always)]
    pub(crate) fn push_if(&mut self, wanted: bool, value: u8) {
        debug_assert!(!wanted || value < 64, "{value} is past a line's places");
        let at_or_above = self.tops & (u64::MAX << (value & 63));
        let pushed =
            (self.tops & !(at_or_above & at_or_above.wrapping_neg())) | (1 << (value & 63));
        let mask = u64::from(wanted).wrapping_neg();
        self.tops = (pushed & mask) | (self.tops & !mask);
        self.pushed += u8::from(wanted);
    }

    /// The length of the longest strictly increasing run among the values pushed.
    pub(crate) fn longest(&self) -> usize {
        self.tops.count_ones() as usize
    }

    /// How many of the values pushed must go for the rest to increase.
    pub(crate) fn removals(&self) -> u16 {
        u16::from(self.pushed) - self.longest() as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_board;

    fn board(text: &str) -> Board {
        parse_board(text).unwrap()
    }

    #[test]
    fn seed_manhattan_distances() {
        assert_eq!(
            manhattan(&board("2 6 0 1 / 11 10 7 3 / 5 9 14 8 / 13 15 4 12")),
            22
        );
        assert_eq!(manhattan(&board("8 1 3 / 4 0 2 / 7 6 5")), 10);
        assert_eq!(manhattan(&Board::goal(5, 3).unwrap()), 0);
    }

    #[test]
    fn manhattan_where_counts_the_tiles_on_the_kept_cells_alone() {
        let b = board("2 6 0 1 / 11 10 7 3 / 5 9 14 8 / 13 15 4 12");
        let (shape, tiles) = (b.shape(), b.tiles());
        // Tile 2 on cell 0 is one from home; tile 1 on cell 3 three.
        assert_eq!(manhattan_where(shape, tiles, |cell| cell == 0), 1);
        assert_eq!(manhattan_where(shape, tiles, |cell| cell == 3), 3);
        let top_row = manhattan_where(shape, tiles, |cell| cell < 4);
        let the_rest = manhattan_where(shape, tiles, |cell| cell >= 4);
        assert_eq!(top_row + the_rest, manhattan(&b));
        assert_eq!(manhattan_where(shape, tiles, |_| false), 0);
    }

    #[test]
    fn hamming_excludes_the_blank() {
        assert_eq!(hamming(&board("1 2 3 / 4 5 6 / 7 0 8")), 1);
        assert_eq!(hamming(&board("8 1 3 / 4 0 2 / 7 6 5")), 5);
    }

    #[test]
    fn linear_conflict_counts_fewest_removals_not_pairs() {
        // Row 1 holds 3 2 1: pairs in conflict are three, but only two tiles must leave.
        let b = board("3 2 1 / 4 5 6 / 7 8 0");
        assert_eq!(manhattan(&b), 4);
        assert_eq!(linear_conflict(&b), 4 + 2 * 2);
        let goal = Board::goal(4, 4).unwrap();
        assert_eq!(linear_conflict(&goal), 0);
    }

    /// The longest strictly increasing run in `values`.
    fn longest_increasing(values: &[u8]) -> usize {
        let mut run = Increasing::default();
        values.iter().for_each(|&value| run.push(value));
        run.longest()
    }

    #[test]
    fn longest_increasing_run() {
        assert_eq!(longest_increasing(&[3, 1, 2, 0, 4]), 3);
        assert_eq!(longest_increasing(&[]), 0);
        assert_eq!(longest_increasing(&[2, 1, 0]), 1);
        assert_eq!(longest_increasing(&[63, 0, 62, 1, 2]), 3);
    }

    proptest::proptest! {
        #[test]
        fn longest_increasing_agrees_with_the_quadratic_count(
            values in proptest::collection::vec(0u8..64, 0..20)
        ) {
            // The longest strictly increasing run ending at each value, from those before it.
            let mut ending = vec![1usize; values.len()];
            for i in 0..values.len() {
                for j in 0..i {
                    if values[j] < values[i] {
                        ending[i] = ending[i].max(ending[j] + 1);
                    }
                }
            }
            let expected = ending.into_iter().max().unwrap_or(0);
            proptest::prop_assert_eq!(longest_increasing(&values), expected);
        }
    }
}
