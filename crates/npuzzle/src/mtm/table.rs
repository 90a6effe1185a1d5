//! Pattern tables in the multi-tile metric: for a set of tiles, the fewest multi-tile moves
//! that bring them and the blank home, by a breadth-first search over their placements (the
//! blank's cell kept exactly, the other tiles unnamed). Every real move is a move of that
//! abstraction of cost 1, so each table is admissible; a move slides tiles of several tables
//! at once, so tables combine by their maximum, not their sum.

use crate::board::{Board, Move, Shape};
use crate::rank::Ranker;

/// An entry not reached yet.
const UNSEEN: u8 = u8::MAX;

/// One table: its tiles (the blank last, as 0) and the distance of each placement.
#[derive(Debug)]
pub struct MtmTable {
    tiles: Vec<u8>,
    ranker: Ranker,
    distances: Vec<u8>,
}

impl MtmTable {
    /// Builds the table of `tiles` (not the blank) on `shape`.
    pub fn build(shape: Shape, tiles: &[u8]) -> MtmTable {
        let mut tiles = tiles.to_vec();
        tiles.push(0);
        let ranker = Ranker::new(shape.cells(), tiles.len());
        let mut distances = vec![UNSEEN; ranker.len() as usize];
        let goal: Vec<u8> = tiles.iter().map(|&t| shape.goal_cell(t) as u8).collect();
        let start = ranker.rank(&goal);
        distances[start as usize] = 0;
        let steps = shape.step_table();
        let mut frontier = vec![start as u32];
        let mut depth = 0u8;
        while !frontier.is_empty() {
            depth += 1;
            frontier = expand(&ranker, &steps, &frontier, &mut distances, depth);
        }
        MtmTable {
            tiles,
            ranker,
            distances,
        }
    }

    /// The table's distance for a board: a lower bound on its multi-tile distance.
    pub fn lookup(&self, cell_of: &[u8]) -> u8 {
        let mut positions = [0u8; 16];
        for (place, &tile) in positions.iter_mut().zip(&self.tiles) {
            *place = cell_of[tile as usize];
        }
        self.distances[self.ranker.rank(&positions[..self.tiles.len()]) as usize]
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.distances.len()
    }
}

/// The next layer of the search: every placement one multi-tile move from `frontier` not seen.
fn expand(
    ranker: &Ranker,
    steps: &[[usize; 4]],
    frontier: &[u32],
    distances: &mut [u8],
    depth: u8,
) -> Vec<u32> {
    let k = ranker.weights().len();
    let mut next = Vec::new();
    let mut positions = [0u8; 16];
    for &rank in frontier {
        ranker.unrank(u64::from(rank), &mut positions[..k]);
        // Which of the table's tiles is on each cell (k for none).
        let mut at = [k as u8; 16];
        for (index, &cell) in positions[..k].iter().enumerate() {
            at[cell as usize] = index as u8;
        }
        for mv in Move::ALL {
            let mut moved = positions;
            let mut blank = moved[k - 1] as usize;
            while steps[blank][mv.index()] != usize::MAX {
                let target = steps[blank][mv.index()];
                let index = at[target] as usize;
                if index < k {
                    moved[index] = blank as u8;
                }
                blank = target;
                moved[k - 1] = blank as u8;
                let rank = ranker.rank(&moved[..k]) as usize;
                if distances[rank] == UNSEEN {
                    distances[rank] = depth;
                    next.push(rank as u32);
                }
            }
        }
    }
    next
}

/// Each tile's cell on a board, indexed by tile (0 the blank).
pub fn cells_of(board: &Board) -> [u8; 16] {
    let mut cell_of = [0u8; 16];
    for (cell, &tile) in board.tiles().iter().enumerate() {
        cell_of[tile as usize] = cell as u8;
    }
    cell_of
}
