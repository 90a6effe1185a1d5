//! Making a solution shorter: cancel moves that undo each other, and replace stretches of the
//! path by shortest paths between their two end boards (windowed re-solves by the engine's
//! IDA*, between two boards: [`Between`]).

use crate::board::{Board, CellDistances, Move, Shape};
use crate::estimate::toward::Toward;
use crate::search::budget::{Budget, StopReason};
use crate::search::idastar::between::Between;

/// Removes every move directly undone by the next one, repeatedly (a stack does it in one pass).
pub fn cancel_inverse_pairs(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &mv in moves {
        if out.last() == Some(&mv.inverse()) {
            out.pop();
        } else {
            out.push(mv);
        }
    }
    out
}

/// A window's last board, walked from its first, and what its slides tell of the Manhattan
/// distance between the two: only the tiles a window slides can be out of place, so the
/// distance is read from the cells they were slid from alone (a few, where the whole board
/// is many). Most windows of a path with no detour are ruled out by it without a search.
struct Walk {
    /// The window's last board.
    to: Vec<u8>,
    /// The cells tiles were slid from, in order (a cell may come more than once).
    slid_from: Vec<usize>,
    /// Each tile's cell after its last slide in the window.
    last_cell: Vec<usize>,
    /// The window that last counted each cell, so that a cell counts once.
    counted: Vec<u64>,
}

impl Walk {
    /// Room for boards of `cells` cells.
    fn new(cells: usize) -> Walk {
        Walk {
            to: Vec::with_capacity(cells),
            slid_from: Vec::new(),
            last_cell: vec![0; cells],
            counted: vec![0; cells],
        }
    }

    /// Walks `moves` from the board `tiles` (its blank on `blank`), by the cells' `steps`.
    fn walk(&mut self, steps: &[[usize; 4]], tiles: &[u8], blank: usize, moves: &[Move]) {
        self.to.clear();
        self.to.extend_from_slice(tiles);
        self.slid_from.clear();
        let mut b = blank;
        for &mv in moves {
            let next = steps[b][mv.index()];
            self.last_cell[self.to[next] as usize] = b;
            self.to.swap(b, next);
            self.slid_from.push(next);
            b = next;
        }
    }

    /// The Manhattan distance from the walk's first board, `tiles`, to its last; `window` is
    /// a number no earlier call was given (every tile out of place was slid from its cell
    /// first, and ended where it was slid last).
    fn distance(&mut self, tiles: &[u8], distance: &CellDistances, window: u64) -> u32 {
        let mut h = 0;
        for &cell in &self.slid_from {
            let tile = tiles[cell];
            if tile == 0 || self.to[cell] == tile || self.counted[cell] == window {
                continue;
            }
            self.counted[cell] = window;
            h += distance.get(cell, self.last_cell[tile as usize]);
        }
        h
    }
}

/// Shared tables for windowed re-solves on one shape: IDA* between two boards
/// ([`Between`], the engine's IDA*), the cells' steps to walk the path, and their distances.
pub(crate) struct Shortener {
    between: Between,
    steps: Vec<[usize; 4]>,
    distance: CellDistances,
}

impl Shortener {
    /// Tables for a shape.
    pub(crate) fn new(shape: Shape) -> Shortener {
        Shortener {
            between: Between::new(shape),
            steps: shape.step_table(),
            distance: CellDistances::new(shape),
        }
    }

    /// One pass of windowed re-solves: windows of `length` moves, `stride` apart, each searched
    /// with at most `max_nodes`. Returns the new moves and whether any window got shorter.
    pub(crate) fn pass(
        &self,
        start: &Board,
        moves: &[Move],
        length: usize,
        stride: usize,
        max_nodes: u64,
        budget: &Budget,
    ) -> Result<(Vec<Move>, bool), (Vec<Move>, StopReason)> {
        debug_assert_eq!(start.shape(), self.between.shape());
        // A window's search may expand `max_nodes` nodes: a budget's cap stops at the last.
        let window = Budget {
            max_nodes: Some(max_nodes.saturating_add(1)),
            ..Budget::unlimited()
        };
        let mut out = moves.to_vec();
        let mut walk = Walk::new(start.tiles().len());
        // The estimate's tables, aimed at each window's last board in turn.
        let mut toward = Toward::goal(start.shape());
        let mut tiles = start.tiles().to_vec();
        let mut blank = start.blank();
        let mut improved = false;
        let mut i = 0;
        let mut windows = 0u64;
        while i + 2 < out.len() {
            windows += 1;
            if windows.is_multiple_of(16)
                && let Err(reason) = budget.check(0, 0)
            {
                return Err((out, reason));
            }
            let end = (i + length).min(out.len());
            walk.walk(&self.steps, &tiles, blank, &out[i..end]);
            let max_len = end - i - 2;
            // No path of `max_len` moves when even the estimate is longer: no search.
            let searched = walk.distance(&tiles, &self.distance, windows) as usize <= max_len;
            let shorter = searched
                .then(|| (self.between).solve(&mut toward, &tiles, &walk.to, max_len, &window));
            if let Some(shorter) = shorter.flatten() {
                out.splice(i..end, shorter);
                improved = true;
            }
            let advance = stride.min(out.len() - i);
            for &mv in &out[i..i + advance] {
                let next = self.steps[blank][mv.index()];
                tiles.swap(blank, next);
                blank = next;
            }
            i += advance;
        }
        Ok((cancel_inverse_pairs(&out), improved))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves_from_str;

    #[test]
    fn inverse_pairs_cancel_even_when_nested() {
        let moves = moves_from_str("RLUDDRLU").unwrap();
        assert!(cancel_inverse_pairs(&moves).is_empty());
        let moves = moves_from_str("DRLD").unwrap();
        assert_eq!(cancel_inverse_pairs(&moves), moves_from_str("DD").unwrap());
    }

    #[test]
    fn a_window_s_distance_is_the_manhattan_distance_between_its_two_boards() {
        for (width, height) in [(4, 4), (5, 3), (7, 7)] {
            let shape = Shape::new(width, height).unwrap();
            let (steps, distance) = (shape.step_table(), CellDistances::new(shape));
            let mut walk = Walk::new(shape.cells());
            let mut random = crate::random::SplitMix64::new(3);
            for window in 1..200 {
                let board = crate::random::random_solvable(shape, window);
                let mut end = board.clone();
                let moves: Vec<Move> = (0..random.below(30))
                    .map(|_| Move::ALL[random.below(4) as usize])
                    .filter(|&mv| end.apply(mv))
                    .collect();
                walk.walk(&steps, board.tiles(), board.blank(), &moves);
                assert_eq!(walk.to, end.tiles());
                let toward = Toward::board(shape, end.tiles());
                let expected = u32::from(toward.manhattan(board.tiles()));
                let found = walk.distance(board.tiles(), &distance, window);
                assert_eq!(found, expected, "{shape} window {window}");
            }
        }
    }

    #[test]
    fn a_detour_is_replaced_by_a_shortest_path() {
        let shape = Shape::new(4, 4).unwrap();
        let goal = Board::goal_of(shape);
        let start = goal.clone();
        // Twice round a 2x2 square turns its three tiles as once round the other way does.
        let detour = moves_from_str("ULDRULDR").unwrap();
        let mut end = goal.clone();
        end.apply_all(&detour).unwrap();
        let shortener = Shortener::new(shape);
        let (shorter, improved) = shortener
            .pass(&start, &detour, 12, 6, 100_000, &Budget::default())
            .unwrap();
        assert!(improved);
        assert_eq!(shorter.len(), 4);
        let mut replay = start.clone();
        replay.apply_all(&shorter).unwrap();
        assert_eq!(replay, end);
    }
}
