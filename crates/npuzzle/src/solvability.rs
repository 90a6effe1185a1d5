//! Whether a board can reach the goal: its inversions and the parity rule.

use std::fmt;

use crate::board::Board;

/// The number of pairs of tiles in the wrong order, reading row-major, the blank excluded.
pub fn inversions(board: &Board) -> usize {
    // A Fenwick tree over tile values counts, for each tile, the larger tiles read before it.
    let n = board.tiles().len();
    let mut tree = vec![0usize; n + 1];
    let mut count = 0;
    for (seen, &tile) in board.tiles().iter().filter(|&&t| t != 0).enumerate() {
        let mut i = tile as usize;
        let mut not_larger = 0;
        while i > 0 {
            not_larger += tree[i];
            i &= i - 1;
        }
        count += seen - not_larger;
        let mut i = tile as usize;
        while i <= n {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    count
}

/// Whether a board can reach the goal, with the counts the rule used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solvability {
    /// Inversions, the blank excluded.
    pub inversions: usize,
    /// The board's width, whose parity picks the rule.
    pub width: usize,
    /// The blank's row counted from the bottom, starting at 1.
    pub blank_row_from_bottom: usize,
    /// Whether the goal can be reached.
    pub solvable: bool,
}

impl Solvability {
    /// Applies the parity rule to a board.
    pub fn of(board: &Board) -> Solvability {
        let inversions = inversions(board);
        let width = board.width();
        let (_, blank_row) = board.shape().column_row(board.blank());
        let blank_row_from_bottom = board.height() - blank_row;
        let solvable = if width % 2 == 1 {
            inversions.is_multiple_of(2)
        } else {
            (inversions + blank_row_from_bottom) % 2 == 1
        };
        Solvability {
            inversions,
            width,
            blank_row_from_bottom,
            solvable,
        }
    }
}

/// The rule and its counts, in words, such as
/// "width 3 is odd, so the inversions must be even: 4 is even".
impl fmt::Display for Solvability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parity = |n: usize| if n.is_multiple_of(2) { "even" } else { "odd" };
        let Solvability {
            inversions,
            width,
            blank_row_from_bottom: row,
            ..
        } = *self;
        if width % 2 == 1 {
            write!(
                f,
                "width {width} is odd, so the inversions must be even: {inversions} is {}",
                parity(inversions)
            )
        } else {
            let sum = inversions + row;
            write!(
                f,
                "width {width} is even, so inversions + the blank's row from the bottom must be odd: {inversions} + {row} = {sum} is {}",
                parity(sum)
            )
        }
    }
}

/// Whether a board can reach the goal.
pub fn is_solvable(board: &Board) -> bool {
    Solvability::of(board).solvable
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_board;

    fn board(text: &str) -> Board {
        parse_board(text).unwrap()
    }

    #[test]
    fn seed_inversions_and_solvability() {
        let b = board("12 1 10 2 / 7 11 4 14 / 5 0 9 15 / 8 13 6 3");
        assert_eq!(inversions(&b), 49);
        let s = Solvability::of(&b);
        assert!(s.solvable);
        assert_eq!(s.blank_row_from_bottom, 2);
        let naive = b
            .tiles()
            .iter()
            .filter(|&&t| t != 0)
            .enumerate()
            .flat_map(|(i, &a)| {
                b.tiles()
                    .iter()
                    .filter(|&&t| t != 0)
                    .skip(i + 1)
                    .map(move |&c| (a, c))
            })
            .filter(|(a, c)| a > c)
            .count();
        assert_eq!(naive, 49);
    }

    #[test]
    fn swapping_two_tiles_makes_it_unsolvable_and_says_why() {
        let b = board("2 1 3 / 4 5 6 / 7 8 0");
        let s = Solvability::of(&b);
        assert!(!s.solvable);
        assert_eq!(s.inversions, 1);
        assert!(s.to_string().ends_with("must be even: 1 is odd"), "{s}");
        let fifteen = board("1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 15 14 0");
        let s = Solvability::of(&fifteen);
        assert!(!s.solvable);
        assert!(s.to_string().ends_with("1 + 1 = 2 is even"), "{s}");
    }
}
