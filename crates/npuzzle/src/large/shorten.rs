//! Making a solution shorter: cancel moves that undo each other, and replace stretches of the
//! path by shortest paths between their two end boards (windowed re-solves by IDA*).

use crate::board::{Board, CellDistances, Move, Shape};
use crate::search::budget::{Budget, StopReason};

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

/// An IDA* between two boards of one shape, Manhattan distance to the target board as the
/// heuristic, searched in place.
struct Window<'a> {
    steps: &'a [[usize; 4]],
    distance: &'a CellDistances,
    tiles: Vec<u8>,
    /// The target cell of each tile.
    target: Vec<usize>,
    path: Vec<Move>,
    nodes: u64,
    max_nodes: u64,
}

impl Window<'_> {
    /// Depth-first search to `bound`; `Ok(true)` when found (then `path` holds it), else
    /// `Ok(false)` with `next` lowered to the smallest f over the bound; `Err` out of nodes.
    fn dfs(
        &mut self,
        blank: usize,
        g: u32,
        h: u32,
        bound: u32,
        last: Option<Move>,
        next: &mut u32,
    ) -> Result<bool, ()> {
        if h == 0 {
            return Ok(true);
        }
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(());
        }
        for mv in Move::ALL {
            if Some(mv.inverse()) == last {
                continue;
            }
            let from = self.steps[blank][mv.index()];
            if from == usize::MAX {
                continue;
            }
            let tile = self.tiles[from];
            let goal = self.target[tile as usize];
            let h2 = h + self.distance.get(blank, goal) - self.distance.get(from, goal);
            let f = g + 1 + h2;
            if f > bound {
                *next = (*next).min(f);
                continue;
            }
            self.tiles[blank] = tile;
            self.tiles[from] = 0;
            self.path.push(mv);
            if self.dfs(from, g + 1, h2, bound, Some(mv), next)? {
                return Ok(true);
            }
            self.path.pop();
            self.tiles[from] = tile;
            self.tiles[blank] = 0;
        }
        Ok(false)
    }
}

/// Shared tables for windowed re-solves on one shape.
pub(crate) struct Shortener {
    shape: Shape,
    steps: Vec<[usize; 4]>,
    distance: CellDistances,
}

impl Shortener {
    /// Tables for a shape.
    pub(crate) fn new(shape: Shape) -> Shortener {
        Shortener {
            shape,
            steps: shape.step_table(),
            distance: CellDistances::new(shape),
        }
    }

    /// A path from `from` to `to` of at most `max_len` moves, if IDA* finds one in `max_nodes`.
    fn solve_between(
        &self,
        from: &[u8],
        to: &[u8],
        max_len: usize,
        max_nodes: u64,
    ) -> Option<Vec<Move>> {
        let mut target = vec![0; from.len()];
        for (cell, &tile) in to.iter().enumerate() {
            target[tile as usize] = cell;
        }
        let mut window = Window {
            steps: &self.steps,
            distance: &self.distance,
            tiles: from.to_vec(),
            target,
            path: Vec::with_capacity(max_len),
            nodes: 0,
            max_nodes,
        };
        let mut blank = 0;
        let mut h = 0;
        for (cell, &tile) in from.iter().enumerate() {
            if tile == 0 {
                blank = cell;
            } else if to[cell] != tile {
                h += window.distance.get(cell, window.target[tile as usize]);
            }
        }
        let mut bound = h;
        while bound as usize <= max_len {
            let mut next = u32::MAX;
            match window.dfs(blank, 0, h, bound, None, &mut next) {
                Ok(true) => return Some(window.path),
                Ok(false) if next == u32::MAX => return None,
                Ok(false) => bound = next,
                Err(()) => return None,
            }
        }
        None
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
        debug_assert_eq!(start.shape(), self.shape);
        let mut out = moves.to_vec();
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
            let mut to = tiles.clone();
            let mut b = blank;
            for &mv in &out[i..end] {
                let next = self.steps[b][mv.index()];
                to.swap(b, next);
                b = next;
            }
            if let Some(shorter) = self.solve_between(&tiles, &to, end - i - 2, max_nodes) {
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
