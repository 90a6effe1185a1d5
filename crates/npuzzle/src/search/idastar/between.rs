//! IDA* between two boards of one shape: plain Manhattan distance toward the second board as
//! the heuristic (kept move by move as [`ManhattanToward`]), a node cap, and what stays the same
//! from search to search made once a shape ([`Between`]), so that the many short searches of
//! the large solver's windowed re-solves cost little to set up. The search itself is this
//! module's parent's: the same depth-first search and iterations as IDA* to the goal.

use super::depth_first::{DepthFirst, neighbours};
use super::parallel::Split;
use super::shared::Shared;
use super::terms::KeptTerms;
use super::{Deepened, deepen};
use crate::board::{CellDistances, Move, Shape};
use crate::search::budget::Budget;

/// Manhattan distance toward a target board, kept move by move: a slide changes its tile's
/// distance alone. Consistent: a move changes it by one.
#[derive(Clone)]
pub(super) struct ManhattanToward<'a> {
    distance: &'a CellDistances,
    /// The target cell of each tile.
    target: Vec<usize>,
    h: u32,
}

impl<'a> ManhattanToward<'a> {
    /// The terms of the board `from` toward the board `to` (tiles cell by cell), and the cell
    /// of `from`'s blank (found in the same pass).
    #[inline(always)]
    pub(super) fn new(
        distance: &'a CellDistances,
        from: &[u8],
        to: &[u8],
    ) -> (ManhattanToward<'a>, usize) {
        let mut target = vec![0; from.len()];
        for (cell, &tile) in to.iter().enumerate() {
            target[tile as usize] = cell;
        }
        let (mut blank, mut h) = (0, 0);
        for (cell, &tile) in from.iter().enumerate() {
            if tile == 0 {
                blank = cell;
            } else if to[cell] != tile {
                h += distance.get(cell, target[tile as usize]);
            }
        }
        let terms = ManhattanToward {
            distance,
            target,
            h,
        };
        (terms, blank)
    }
}

impl KeptTerms for ManhattanToward<'_> {
    /// The distance before the move.
    type Undo = u32;
    const CONSISTENT: bool = true;

    #[inline(always)]
    fn has_tables(&self) -> bool {
        false
    }

    #[inline(always)]
    fn h_of<const TABLES: bool>(&self) -> u32 {
        self.h
    }

    #[inline(always)]
    fn moved<const TABLES: bool>(
        &mut self,
        _tiles: &[u8],
        tile: u8,
        _m: u8,
        from: usize,
        to: usize,
    ) -> u32 {
        let undo = self.h;
        let goal = self.target[tile as usize];
        self.h = self.h + self.distance.get(from, goal) - self.distance.get(to, goal);
        undo
    }

    #[inline(always)]
    fn restore<const TABLES: bool>(&mut self, _tile: u8, _to: usize, undo: u32) {
        self.h = undo;
    }

    fn memory(&self) -> usize {
        self.target.len() * size_of::<usize>()
    }
}

/// What IDA* between two boards of one shape needs beside the boards: the cells' neighbours and
/// distances, made once and lent to every search.
pub(crate) struct Between {
    shape: Shape,
    neighbours: Vec<[u16; 4]>,
    distance: CellDistances,
}

impl Between {
    /// The tables of a shape.
    pub(crate) fn new(shape: Shape) -> Between {
        Between {
            shape,
            neighbours: neighbours(shape),
            distance: CellDistances::new(shape),
        }
    }

    /// The shape searched.
    pub(crate) fn shape(&self) -> Shape {
        self.shape
    }

    /// A shortest path from the board `from` to the board `to` (tiles cell by cell, of this
    /// shape) if one has at most `max_len` moves and IDA* finds it before the budget stops it
    /// (on this thread; the budget's node cap is met exactly). Among the shortest, the first
    /// in U, D, L, R order.
    pub(crate) fn solve(
        &self,
        from: &[u8],
        to: &[u8],
        max_len: usize,
        budget: &Budget,
    ) -> Option<Vec<Move>> {
        let (terms, blank) = ManhattanToward::new(&self.distance, from, to);
        // Nothing to search (most windows of a path with no detour): nothing more to set up.
        if terms.h as usize > max_len {
            return None;
        }
        let mut root = DepthFirst::new(from, blank, &self.neighbours, terms, max_len);
        let shared = Shared::new(budget, 1);
        let split = Split::plan(&mut root, 1, true);
        let last = u32::try_from(max_len).unwrap_or(u32::MAX);
        match deepen(&mut root, &split, &shared, 0, last, |_, _| {}) {
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
    use crate::search::idastar::terms::tests::walk_and_compare;

    /// Manhattan toward another board, kept move by move, equals Manhattan computed afresh
    /// after any walk, and undo restores it.
    #[test]
    fn terms_toward_a_board_match_fresh_ones() {
        let shape = Shape::new(4, 4).unwrap();
        let target = random_solvable(shape, 5);
        let distance = CellDistances::new(shape);
        let fresh =
            |board: &Board| ManhattanToward::new(&distance, board.tiles(), target.tiles()).0;
        walk_and_compare::<_, false>(shape, fresh, |_, _, _| {});
    }

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
        let between = Between::new(shape);
        let start = Board::goal_of(shape);
        // Twelve moves round a 2x2 square and back: the shortest way there is the move back.
        let moves = crate::board::moves_from_str("ULDRULDRULDRL").unwrap();
        let end = walked(&start, &moves);
        let budget = Budget::unlimited();
        let path = between
            .solve(start.tiles(), end.tiles(), 20, &budget)
            .unwrap();
        assert_eq!(walked(&start, &path), end);
        assert_eq!(path.len(), 1);
        // Nothing of at most 0 moves.
        assert_eq!(between.solve(start.tiles(), end.tiles(), 0, &budget), None);
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
            between.solve(start.tiles(), end.tiles(), moves.len(), &budget)
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
