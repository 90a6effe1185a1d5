//! Presorting a large board before the constructive method: a beam search on Manhattan
//! distance, each tile weighted by how early the construction places it.
//!
//! On a shuffled board almost every move can bring some tile closer to home, and a beam that
//! keeps the best few hundred boards at each depth finds long runs of such moves: on 11×11 it
//! takes the distance from about 880 to 500 at about 1.4 moves a unit, where the construction
//! spends about 2.5. Weighting the tiles of earlier lines more (each line `growth` times the
//! next) leaves the board in an order the construction can build on; with equal weights the
//! beam goes further, but the construction then undoes much of it. The beam stalls in the end
//! (a line cannot be completed by moves that only bring tiles closer), and the construction
//! takes over from a board on its way (see `HANDOVER` in the parent module).

use rustc_hash::FxHashSet;

use crate::board::{Board, Move, Shape};
use crate::hash::zobrist;
use crate::search::budget::{Budget, StopReason};

/// How a beam runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BeamSettings {
    /// Boards kept at each depth.
    pub width: usize,
    /// Each line placed earlier weighs this many times the next (as `num / den`).
    pub growth: (u32, u32),
    /// Depths without a better board before the beam stops.
    pub patience: usize,
}

impl BeamSettings {
    /// The settings measured best at 11×11.
    pub(crate) const DEFAULT: BeamSettings = BeamSettings {
        width: 500,
        growth: (7, 5),
        patience: 100,
    };
}

/// A finished beam: the best board's path at every depth it reached.
pub(crate) struct Beam {
    /// Per depth, the (parent index, move) of every board kept, best first.
    layers: Vec<Vec<(u32, u8)>>,
    /// The depth of the lowest weighted distance seen.
    pub best_depth: usize,
}

impl Beam {
    /// The moves from the start to the best board at `depth` (at most [`Beam::best_depth`]).
    pub(crate) fn path_to(&self, depth: usize) -> Vec<Move> {
        let depth = depth.min(self.layers.len());
        let mut moves = Vec::with_capacity(depth);
        if depth == 0 {
            return moves;
        }
        // Each layer is kept best first.
        let mut index = 0;
        for layer in self.layers[..depth].iter().rev() {
            let (parent, mv) = layer[index];
            moves.push(Move::ALL[mv as usize]);
            index = parent as usize;
        }
        moves.reverse();
        moves
    }
}

/// A child board before it is kept: its weighted distance, its parent, the move, its hash.
struct Candidate {
    score: i64,
    parent: u32,
    mv: u8,
    hash: u64,
}

/// Each tile's weight: `growth` to the power of how many lines come after the tile's line,
/// lines counted as the construction places them: the longer side's extra lines first, then
/// the L-shaped layers from the top-left corner.
fn tile_weights(shape: Shape, growth: (u32, u32)) -> Vec<i64> {
    let (width, height) = (shape.width, shape.height);
    let layer = |column: usize, row: usize| -> usize {
        if height > width {
            (column + height - width).min(row)
        } else {
            column.min(row + width - height)
        }
    };
    let last = layer(width - 1, height - 1);
    let ratio = f64::from(growth.0) / f64::from(growth.1);
    let mut weights = vec![0; shape.cells()];
    for (tile, weight) in weights.iter_mut().enumerate().skip(1) {
        let (column, row) = shape.column_row(tile - 1);
        let after = last - layer(column, row);
        *weight = ratio.powi(after as i32).round().min(1e12) as i64;
    }
    weights
}

/// What scores and hashes a move, the same at every depth.
struct Scoring {
    shape: Shape,
    weights: Vec<i64>,
    keys: Vec<u64>,
    /// The cell one step from each cell in each direction, or `usize::MAX`.
    steps: Vec<[usize; 4]>,
}

impl Scoring {
    fn new(shape: Shape, growth: (u32, u32)) -> Scoring {
        let cells = shape.cells();
        Scoring {
            shape,
            weights: tile_weights(shape, growth),
            keys: zobrist(cells),
            steps: shape.step_table(),
        }
    }

    /// The weighted distance of `tile` on `cell`.
    fn weighted(&self, tile: u8, cell: usize) -> i64 {
        let goal = self.shape.goal_cell(tile);
        self.weights[tile as usize] * self.shape.distance(cell, goal) as i64
    }

    /// What the weighted distance changes by when `tile` slides from `from` to `to`.
    fn change(&self, tile: u8, from: usize, to: usize) -> i64 {
        let goal = self.shape.goal_cell(tile);
        let farther = self.shape.distance(to, goal) as i64 - self.shape.distance(from, goal) as i64;
        self.weights[tile as usize] * farther
    }
}

/// The boards kept at one depth, side by side, each with its weighted distance (a score of
/// the presort's own, not the searches' estimate, [`crate::estimate::kept::Kept`]: each tile's
/// distance weighted by how early the construction places it).
#[derive(Default)]
struct Layer {
    /// The boards' tiles, one board after another.
    boards: Vec<u8>,
    blanks: Vec<usize>,
    scores: Vec<i64>,
    hashes: Vec<u64>,
    /// The move that made each board (`u8::MAX` for the start).
    lasts: Vec<u8>,
}

impl Layer {
    /// The start board alone.
    fn start(board: &Board, scoring: &Scoring) -> Layer {
        let cells = scoring.shape.cells();
        let (mut score, mut hash) = (0i64, 0u64);
        for (cell, &tile) in board.tiles().iter().enumerate() {
            hash ^= scoring.keys[tile as usize * cells + cell];
            if tile != 0 {
                score += scoring.weighted(tile, cell);
            }
        }
        Layer {
            boards: board.tiles().to_vec(),
            blanks: vec![board.blank()],
            scores: vec![score],
            hashes: vec![hash],
            lasts: vec![u8::MAX],
        }
    }

    /// The children of every board here (never the move back, never a board `seen`), scored.
    fn children(&self, scoring: &Scoring, seen: &FxHashSet<u64>, out: &mut Vec<Candidate>) {
        let cells = scoring.shape.cells();
        let keys = &scoring.keys;
        out.clear();
        for (index, &blank) in self.blanks.iter().enumerate() {
            let board = &self.boards[index * cells..(index + 1) * cells];
            for mv in Move::ALL {
                let to = scoring.steps[blank][mv.index()];
                if self.lasts[index] == mv.inverse().index() as u8 || to == usize::MAX {
                    continue;
                }
                let tile = board[to];
                let t = tile as usize;
                let hash = self.hashes[index]
                    ^ keys[t * cells + to]
                    ^ keys[t * cells + blank]
                    ^ keys[blank]
                    ^ keys[to];
                if seen.contains(&hash) {
                    continue;
                }
                out.push(Candidate {
                    score: self.scores[index] + scoring.change(tile, to, blank),
                    parent: index as u32,
                    mv: mv.index() as u8,
                    hash,
                });
            }
        }
    }

    /// The next depth: the best `width` candidates not `seen` before (they are then), with the
    /// (parent, move) of each, best first.
    fn next(
        &self,
        candidates: &mut Vec<Candidate>,
        width: usize,
        scoring: &Scoring,
        seen: &mut FxHashSet<u64>,
    ) -> (Layer, Vec<(u32, u8)>) {
        let keep = (2 * width).min(candidates.len());
        let order = |c: &Candidate| (c.score, c.hash);
        if keep < candidates.len() {
            candidates.select_nth_unstable_by_key(keep, order);
            candidates.truncate(keep);
        }
        candidates.sort_unstable_by_key(order);
        let cells = scoring.shape.cells();
        let mut next = Layer::default();
        let mut links = Vec::with_capacity(width);
        for candidate in candidates.iter() {
            if links.len() == width {
                break;
            }
            if !seen.insert(candidate.hash) {
                continue;
            }
            let parent = candidate.parent as usize;
            let blank = self.blanks[parent];
            let to = scoring.steps[blank][candidate.mv as usize];
            let start = next.boards.len();
            (next.boards).extend_from_slice(&self.boards[parent * cells..(parent + 1) * cells]);
            next.boards.swap(start + blank, start + to);
            next.blanks.push(to);
            next.scores.push(candidate.score);
            next.hashes.push(candidate.hash);
            next.lasts.push(candidate.mv);
            links.push((candidate.parent, candidate.mv));
        }
        (next, links)
    }
}

/// Runs a beam from `board`: at each depth, the children of the boards kept (never the move
/// back, never a board seen before) ranked by weighted distance, the best `width` kept. Stops
/// when the best has not improved for `patience` depths, at the goal, or when the budget says
/// so.
pub(crate) fn presort(
    board: &Board,
    settings: &BeamSettings,
    budget: &Budget,
) -> Result<Beam, StopReason> {
    let scoring = Scoring::new(board.shape(), settings.growth);
    let mut layer = Layer::start(board, &scoring);
    let mut score = layer.scores[0];
    let mut seen = FxHashSet::default();
    seen.insert(layer.hashes[0]);
    let mut beam = Beam {
        layers: Vec::new(),
        best_depth: 0,
    };
    let mut best_score = score;
    let mut candidates: Vec<Candidate> = Vec::new();
    while score > 0 && beam.layers.len() <= beam.best_depth + settings.patience {
        budget.check(0, seen.len() * 16)?;
        layer.children(&scoring, &seen, &mut candidates);
        if candidates.is_empty() {
            break;
        }
        let links;
        (layer, links) = layer.next(&mut candidates, settings.width, &scoring, &mut seen);
        beam.layers.push(links);
        // The candidates were sorted: the first kept is the best.
        score = layer.scores[0];
        if score < best_score {
            best_score = score;
            beam.best_depth = beam.layers.len();
        }
    }
    Ok(beam)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::manhattan;
    use crate::random::random_solvable;

    #[test]
    fn every_presort_path_is_legal_and_the_best_is_closer_to_home() {
        for (width, height, seed) in [(8, 8, 1), (5, 9, 2), (9, 4, 3), (3, 3, 4)] {
            let shape = Shape::new(width, height).unwrap();
            let board = random_solvable(shape, seed);
            let settings = BeamSettings {
                width: 100,
                ..BeamSettings::DEFAULT
            };
            let beam = presort(&board, &settings, &Budget::default()).unwrap();
            assert!(beam.best_depth > 0, "{shape}");
            for depth in [1, beam.best_depth / 2, beam.best_depth] {
                let path = beam.path_to(depth);
                assert_eq!(path.len(), depth);
                board.clone().apply_all(&path).unwrap();
            }
            let mut best = board.clone();
            best.apply_all(&beam.path_to(beam.best_depth)).unwrap();
            assert!(manhattan(&best) < manhattan(&board), "{shape}");
        }
    }

    #[test]
    fn a_beam_from_the_goal_goes_nowhere() {
        let board = Board::goal_of(Shape::new(6, 6).unwrap());
        let beam = presort(&board, &BeamSettings::DEFAULT, &Budget::default()).unwrap();
        assert_eq!(beam.best_depth, 0);
        assert!(beam.path_to(0).is_empty());
    }

    #[test]
    fn a_cancelled_presort_stops() {
        let board = random_solvable(Shape::new(11, 11).unwrap(), 5);
        let cancel = crate::search::budget::CancelFlag::new();
        cancel.cancel();
        let result = presort(
            &board,
            &BeamSettings::DEFAULT,
            &Budget::default().with_cancel(cancel),
        );
        assert!(matches!(result, Err(StopReason::Cancelled)));
    }

    #[test]
    fn weights_fall_line_by_line() {
        let weights = tile_weights(Shape::new(4, 6).unwrap(), (2, 1));
        // Taller by two: rows 0 and 1 first, then the 4x4 by L-shaped layers.
        assert!(weights[1] > weights[5]);
        assert!(weights[5] > weights[9]);
        assert_eq!(weights[9], weights[13]);
        assert!(weights[23] < weights[13]);
        let square = tile_weights(Shape::new(5, 5).unwrap(), (3, 2));
        // Row 0 and column 0 weigh the same; the corner's last tile the least.
        assert_eq!(square[3], square[16]);
        assert!(square[24] < square[7]);
    }
}
