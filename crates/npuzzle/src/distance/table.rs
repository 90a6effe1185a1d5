//! Exact distances for small boards: every board of up to 9 cells (3×3, 2×4, 4×2, 2×3…) with
//! its optimal distance to the goal, from one backward breadth-first search over the ranks of
//! the tile permutations. The 8-puzzle's 181,440 boards take a few milliseconds; each shape's
//! table is built once per process and shared.
//!
//! ```
//! use npuzzle::{Shape, distance::table::DistanceTable, parse_board};
//!
//! let table = DistanceTable::for_shape(Shape::new(3, 3).unwrap()).unwrap();
//! assert_eq!(table.max_distance(), 31);
//! assert_eq!(table.distance(&parse_board("1 0 3 / 4 2 5 / 7 8 6").unwrap()), Some(3));
//! let board = table.board_at(20, 7).unwrap();
//! assert_eq!(table.distance(&board), Some(20));
//! ```

use std::sync::{Arc, Mutex};

use crate::board::{Board, Move, Shape};
use crate::random::SplitMix64;
use crate::rank::Ranker;
use crate::search::ranked::MAX_RANKED_CELLS;

/// No path to the goal: the permutation is on the other parity.
const UNREACHABLE: u8 = u8::MAX;

/// The optimal distance of every board of one small shape.
#[derive(Clone, Debug)]
pub struct DistanceTable {
    shape: Shape,
    /// The ranks of whole permutations of the shape's cells.
    ranker: Ranker,
    /// By permutation rank: the distance, or [`UNREACHABLE`].
    distances: Vec<u8>,
    /// Boards at each distance, from 0 to the largest.
    counts: Vec<u64>,
}

/// The tables built so far in this process.
static BUILT: Mutex<Vec<Arc<DistanceTable>>> = Mutex::new(Vec::new());

impl DistanceTable {
    /// The most cells a shape may have for a table (9! ranks fit a flat array).
    pub const MAX_CELLS: usize = MAX_RANKED_CELLS;

    /// The table of a shape, built on first use and kept for the rest of the process; `None`
    /// for shapes of more than [`DistanceTable::MAX_CELLS`] cells.
    pub fn for_shape(shape: Shape) -> Option<Arc<DistanceTable>> {
        let mut built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(table) = built.iter().find(|t| t.shape == shape) {
            return Some(Arc::clone(table));
        }
        let table = Arc::new(DistanceTable::build(shape)?);
        built.push(Arc::clone(&table));
        Some(table)
    }

    /// Builds a shape's table (without keeping it); `None` past [`DistanceTable::MAX_CELLS`].
    pub fn build(shape: Shape) -> Option<DistanceTable> {
        let cells = shape.cells();
        if cells > Self::MAX_CELLS {
            return None;
        }
        let ranker = Ranker::new(cells, cells);
        let rank = |tiles: &[u8]| ranker.rank(tiles) as u32;
        let mut distances = vec![UNREACHABLE; ranker.len() as usize];
        let goal = Board::goal_of(shape);
        let start = rank(goal.tiles());
        distances[start as usize] = 0;
        let mut queue = vec![start];
        let mut counts = Vec::new();
        let mut head = 0;
        let mut tiles = vec![0u8; cells];
        while head < queue.len() {
            let state = queue[head];
            head += 1;
            let depth = distances[state as usize];
            if counts.len() <= depth as usize {
                counts.push(0);
            }
            counts[depth as usize] += 1;
            ranker.unrank(u64::from(state), &mut tiles);
            let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
            for mv in Move::ALL {
                if let Some(from) = shape.step(blank, mv) {
                    tiles.swap(blank, from);
                    let child = rank(&tiles);
                    tiles.swap(blank, from);
                    if distances[child as usize] == UNREACHABLE {
                        distances[child as usize] = depth + 1;
                        queue.push(child);
                    }
                }
            }
        }
        Some(DistanceTable {
            shape,
            ranker,
            distances,
            counts,
        })
    }

    /// The shape the table is for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The optimal distance of a board; `None` for another shape or an unsolvable board.
    pub fn distance(&self, board: &Board) -> Option<usize> {
        if board.shape() != self.shape {
            return None;
        }
        let d = self.distances[self.ranker.rank(board.tiles()) as usize];
        (d != UNREACHABLE).then_some(usize::from(d))
    }

    /// The largest distance of any board (31 on 3×3).
    pub fn max_distance(&self) -> usize {
        self.counts.len() - 1
    }

    /// How many boards lie at each distance, from 0 to [`DistanceTable::max_distance`].
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// A board drawn uniformly from those at `distance`, the same for the same seed; `None`
    /// past [`DistanceTable::max_distance`].
    pub fn board_at(&self, distance: usize, seed: u64) -> Option<Board> {
        let count = *self.counts.get(distance)?;
        let pick = SplitMix64::new(seed).below(count);
        let target = distance as u8;
        let index = self
            .distances
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d == target)
            .nth(pick as usize)?
            .0;
        let mut tiles = vec![0u8; self.shape.cells()];
        self.ranker.unrank(index as u64, &mut tiles);
        Board::new(self.shape.width, self.shape.height, tiles).ok()
    }

    /// The moves that bring a board one step closer to the goal (a hint); empty at the goal,
    /// `None` for another shape or an unsolvable board.
    pub fn moves_closer(&self, board: &Board) -> Option<Vec<Move>> {
        let here = self.distance(board)?;
        Some(
            board
                .neighbors()
                .filter(|(_, next)| self.distance(next) == Some(here.wrapping_sub(1)))
                .map(|(mv, _)| mv)
                .collect(),
        )
    }

    /// An optimal solution: at each step the first of U, D, L, R that comes closer, so the
    /// first optimal solution in that order (the one IDA* returns too). `None` for another
    /// shape or an unsolvable board.
    pub fn solution(&self, board: &Board) -> Option<Vec<Move>> {
        let mut board = board.clone();
        let mut moves = Vec::with_capacity(self.distance(&board)?);
        while !board.is_goal() {
            let mv = *self.moves_closer(&board)?.first()?;
            board.apply(mv);
            moves.push(mv);
        }
        Some(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::PackedTiles;
    use crate::search::bfs::goal_distances;

    #[test]
    fn every_distance_agrees_with_the_hash_map_search() {
        for (w, h) in [(2, 2), (3, 2), (2, 4), (3, 3)] {
            let shape = Shape::new(w, h).unwrap();
            let truth = goal_distances(shape).unwrap();
            let table = DistanceTable::build(shape).unwrap();
            assert_eq!(table.counts().iter().sum::<u64>(), truth.len() as u64);
            for (&key, &d) in &truth {
                let tiles: Vec<u8> = (0..shape.cells()).map(|c| key.tile(c)).collect();
                let board = Board::new(w, h, tiles).unwrap();
                assert_eq!(table.distance(&board), Some(usize::from(d)), "{board:?}");
            }
        }
    }

    #[test]
    fn unsolvable_and_other_shapes_have_no_distance() {
        let table = DistanceTable::for_shape(Shape::new(3, 3).unwrap()).unwrap();
        let swapped = Board::new(3, 3, vec![2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert_eq!(table.distance(&swapped), None);
        assert_eq!(table.distance(&Board::goal(2, 2).unwrap()), None);
        assert!(DistanceTable::build(Shape::new(3, 4).unwrap()).is_none());
        assert!(table.board_at(table.max_distance() + 1, 1).is_none());
    }

    #[test]
    fn boards_at_every_distance_come_reproducibly() {
        let table = DistanceTable::for_shape(Shape::new(3, 3).unwrap()).unwrap();
        for d in 0..=table.max_distance() {
            let board = table.board_at(d, 42).unwrap();
            assert_eq!(table.distance(&board), Some(d));
            assert_eq!(table.board_at(d, 42), Some(board));
            let solution = table.solution(&table.board_at(d, 43).unwrap()).unwrap();
            assert_eq!(solution.len(), d);
        }
        // Several seeds at a crowded distance give several boards.
        let boards: std::collections::HashSet<Board> =
            (0..20).filter_map(|s| table.board_at(20, s)).collect();
        assert!(boards.len() > 15, "{}", boards.len());
    }

    #[test]
    fn the_four_boards_at_distance_two_come_evenly() {
        // Boards two moves from the 3x3 goal: UU, UL, LU, LL. 4,000 draws put about 1,000 on each.
        let table = DistanceTable::for_shape(Shape::new(3, 3).unwrap()).unwrap();
        assert_eq!(table.counts()[2], 4);
        let mut counts = std::collections::HashMap::new();
        for seed in 0..4_000 {
            *counts.entry(table.board_at(2, seed).unwrap()).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 4);
        assert!(
            counts.values().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }
}
