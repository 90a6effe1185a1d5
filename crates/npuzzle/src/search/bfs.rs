//! Breadth-first distances from the goal over a whole small state space: the ground truth that
//! tests hold heuristics and solvers to.

use rustc_hash::FxHashMap;

use crate::board::{Board, Move, Shape};
use crate::packed::PackedTiles;

/// The number of moves from every reachable state to the goal, keyed by packed tiles
/// ([`PackedTiles`] for `u64`). Boards of more than 12 cells are refused: their spaces are too large.
pub fn goal_distances(shape: Shape) -> Option<FxHashMap<u64, u8>> {
    if shape.cells() > 12 {
        return None;
    }
    let goal = Board::goal_of(shape);
    let mut distances = FxHashMap::default();
    let mut frontier = vec![(u64::pack(goal.tiles()), goal.blank())];
    distances.insert(frontier[0].0, 0u8);
    let mut depth = 0u8;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for (tiles, blank) in frontier {
            for mv in Move::ALL {
                if let Some(from) = shape.step(blank, mv) {
                    let child = tiles.slide(blank, from);
                    if let std::collections::hash_map::Entry::Vacant(entry) = distances.entry(child)
                    {
                        entry.insert(depth);
                        next.push((child, from));
                    }
                }
            }
        }
        frontier = next;
    }
    Some(distances)
}
