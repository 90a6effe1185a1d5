//! IDA* between two boards of one shape: plain Manhattan distance toward the second board as
//! the heuristic (the one kept estimate, [`crate::estimate::kept::Kept`], counting
//! [`MANHATTAN`]: consistent, so BPMX is compiled out), a node cap, and what stays the same
//! from search to search made once a shape ([`Between`]), so that the many short searches of
//! the large solver's windowed re-solves cost little to set up. The search itself is this
//! module's parent's: the same depth-first search and iterations as IDA* to the goal.

use super::depth_first::{DepthFirst, neighbours};
use super::parallel::Split;
use super::shared::Shared;
use super::{Deepened, deepen};
use crate::board::{Move, Shape};
use crate::estimate::kept::MANHATTAN;
use crate::estimate::toward::Toward;
use crate::search::budget::Budget;

/// What IDA* between two boards of one shape needs beside the boards and the estimate's
/// target: the cells' neighbours, made once and lent to every search.
pub(crate) struct Between {
    shape: Shape,
    neighbours: Vec<[u16; 4]>,
}

impl Between {
    /// The tables of a shape.
    pub(crate) fn new(shape: Shape) -> Between {
        Between {
            shape,
            neighbours: neighbours(shape),
        }
    }

    /// The shape searched.
    pub(crate) fn shape(&self) -> Shape {
        self.shape
    }

    /// A shortest path from the board `from` to the board `to` (tiles cell by cell, of this
    /// shape) if one has at most `max_len` moves and IDA* finds it before the budget stops it
    /// (on this thread; the budget's node cap is met exactly). Among the shortest, the first
    /// in U, D, L, R order. `toward` is the estimate's tables for the shape, aimed here at
    /// `to` (made once for many searches: see [`Toward::aim`]).
    pub(crate) fn solve(
        &self,
        toward: &mut Toward,
        from: &[u8],
        to: &[u8],
        max_len: usize,
        budget: &Budget,
    ) -> Option<Vec<Move>> {
        debug_assert_eq!(
            toward.shape(),
            self.shape,
            "the estimate's tables are of the shape"
        );
        toward.aim(to);
        let blank = from.iter().position(|&tile| tile == 0)?;
        let toward = &*toward;
        let mut root = DepthFirst::<0>::new(
            from,
            blank,
            &self.neighbours,
            toward,
            None,
            MANHATTAN,
            max_len,
        );
        // Nothing to search (most windows of a path with no detour).
        if root.h() as usize > max_len {
            return None;
        }
        let shared = Shared::new(budget, 1);
        let split = Split::plan(&mut root, 1, true);
        let last = u32::try_from(max_len).unwrap_or(u32::MAX);
        let h = root.h();
        let iterate = |bound| split.iterate(&mut root, bound, &shared);
        match deepen(h, 0, last, iterate, |_, _| {}) {
            Deepened::Found { path, .. } => {
                Some(path.iter().map(|&m| Move::ALL[m as usize]).collect())
            }
            Deepened::Exhausted | Deepened::Stopped { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::random::random_solvable;

    /// Walks `moves` from `board`, returning the board at the end.
    fn walked(board: &Board, moves: &[Move]) -> Board {
        let mut end = board.clone();
        end.apply_all(moves).unwrap();
        end
    }

    /// A random walk of `length` moves from `board` that never undoes its last move.
    fn random_walk(board: &Board, length: usize, seed: u64) -> Vec<Move> {
        let mut random = crate::random::SplitMix64::new(seed);
        let (mut at, mut moves) = (board.clone(), Vec::<Move>::new());
        while moves.len() < length {
            let mv = Move::ALL[random.below(4) as usize];
            if moves.last() != Some(&mv.inverse()) && at.apply(mv) {
                moves.push(mv);
            }
        }
        moves
    }

    #[test]
    fn the_path_found_is_a_shortest_one_between_the_two_boards() {
        let shape = Shape::new(5, 4).unwrap();
        let (between, mut toward) = (Between::new(shape), Toward::goal(shape));
        let start = Board::goal_of(shape);
        // Twelve moves round a 2x2 square and back: the shortest way there is the move back.
        let moves = crate::board::moves_from_str("ULDRULDRULDRL").unwrap();
        let end = walked(&start, &moves);
        let budget = Budget::unlimited();
        let path = between
            .solve(&mut toward, start.tiles(), end.tiles(), 20, &budget)
            .unwrap();
        assert_eq!(walked(&start, &path), end);
        assert_eq!(path.len(), 1);
        // Nothing of at most 0 moves.
        let none = between.solve(&mut toward, start.tiles(), end.tiles(), 0, &budget);
        assert_eq!(none, None);
    }

    #[test]
    fn the_node_cap_is_met_exactly() {
        let shape = Shape::new(4, 4).unwrap();
        let between = Between::new(shape);
        let start = random_solvable(shape, 3);
        let moves = random_walk(&start, 24, 7);
        let end = walked(&start, &moves);
        let solve = |cap| {
            let budget = Budget::unlimited().with_max_nodes(cap);
            let mut toward = Toward::goal(shape);
            between.solve(
                &mut toward,
                start.tiles(),
                end.tiles(),
                moves.len(),
                &budget,
            )
        };
        let found = solve(u64::MAX).expect("the moves themselves are a path");
        // The least cap that finds it (a cap n lets n - 1 nodes be expanded, as a budget's).
        let (mut low, mut high) = (1u64, 1 << 20);
        while low < high {
            let cap = (low + high) / 2;
            match solve(cap) {
                Some(path) => {
                    assert_eq!(path, found);
                    high = cap;
                }
                None => low = cap + 1,
            }
        }
        assert!(low > 10, "{low}");
        assert_eq!(solve(low), Some(found));
        assert_eq!(solve(low - 1), None);
    }
}
