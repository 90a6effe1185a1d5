//! Weighted A* on boards of up to 25 cells, with Manhattan + linear conflict kept incrementally,
//! pruned by the best length known so far: the anytime search behind near-optimal 5×5 answers.
//! The search itself is the engine's one weighted A* ([`crate::search::weighted`]); here are
//! the boards' estimates and the pruning.

use crate::board::{Board, Move, Shape};
use crate::estimate::pdb::PdbLookup;
use crate::estimate::toward::Toward;
use crate::hash::hash_u128;
use crate::packed::PackedTiles;
use crate::pdb::PatternDatabase;
use crate::search::arena::{Arena, NO_MOVE, Wait};
use crate::search::budget::{Budget, StopReason};
use crate::search::weighted::{self, Ended, Limits, Space, Visit, Weight, priority};

/// The most cells a board may have for this search (five bits a cell in a `u128`).
pub(crate) const MAX_CELLS: usize = 25;

/// What each node keeps beside its state.
#[derive(Clone, Copy)]
struct Data {
    h: u16,
    blank: u8,
    /// The pattern databases' excess per pattern, then per reflected pattern.
    excess: Excess,
}

/// Per-pattern excesses (up to four patterns, as is and reflected).
type Excess = [u8; 8];

/// The most patterns the pattern-database estimate handles.
const MAX_PATTERNS: usize = 4;

/// What weighted A* estimates with.
pub(crate) enum WeightedEstimate<'a> {
    /// Manhattan + linear conflict.
    LinearConflict(Toward),
    /// Manhattan + twice the larger additive pattern-database excess (as is or reflected).
    Pdb(PdbEstimate<'a>),
}

/// The pattern-database estimate's tables.
pub(crate) struct PdbEstimate<'a> {
    manhattan: Toward,
    lookup: PdbLookup<'a>,
}

/// The estimate after the tile on `from` slides into the blank at `blank` of the packed board
/// `key`, from its estimate `h` there.
fn linear_conflict_after(toward: &Toward, key: u128, h: u16, blank: usize, from: usize) -> u16 {
    let tile = key.tile(from);
    let width = toward.shape().width;
    let vertical = blank / width != from / width;
    (i32::from(h) + toward.slide(&key, tile, from, blank, vertical).estimate()) as u16
}

impl<'a> PdbEstimate<'a> {
    /// The estimate for a database of the board's shape with at most four patterns.
    pub(crate) fn new(shape: Shape, db: &'a PatternDatabase) -> Option<PdbEstimate<'a>> {
        if db.shape() != shape || db.tables().len() > MAX_PATTERNS {
            return None;
        }
        Some(PdbEstimate {
            manhattan: Toward::goal(shape),
            lookup: PdbLookup::new(db),
        })
    }

    fn positions(key: u128, cells: usize) -> [u8; MAX_CELLS] {
        let mut position = [0u8; MAX_CELLS];
        for cell in 0..cells {
            position[key.tile(cell) as usize] = cell as u8;
        }
        position
    }

    fn total(&self, manhattan: u16, excess: &Excess) -> u16 {
        let plain: u16 = excess[..MAX_PATTERNS].iter().map(|&e| u16::from(e)).sum();
        let reflected: u16 = excess[MAX_PATTERNS..].iter().map(|&e| u16::from(e)).sum();
        manhattan + 2 * plain.max(reflected)
    }

    fn full(&self, key: u128) -> (u16, Excess) {
        let cells = self.manhattan.shape().cells();
        let position = PdbEstimate::positions(key, cells);
        let mut excess = [0u8; 8];
        for pattern in 0..self.lookup.patterns() {
            excess[pattern] = self.lookup.excess(pattern, &position);
            if self.lookup.reflects() {
                excess[MAX_PATTERNS + pattern] = self.lookup.reflected_excess(pattern, &position);
            }
        }
        (self.total(self.manhattan.manhattan(&key), &excess), excess)
    }

    fn after(
        &self,
        key: u128,
        child: u128,
        (h, excess): (u16, Excess),
        blank: usize,
        from: usize,
    ) -> (u16, Excess) {
        let plain: u16 = excess[..MAX_PATTERNS].iter().map(|&e| u16::from(e)).sum();
        let reflected: u16 = excess[MAX_PATTERNS..].iter().map(|&e| u16::from(e)).sum();
        let tile = key.tile(from);
        let manhattan = h - 2 * plain.max(reflected) + self.manhattan.distance(tile, blank)
            - self.manhattan.distance(tile, from);
        let position = PdbEstimate::positions(child, self.manhattan.shape().cells());
        let mut excess = excess;
        // A tile in no pattern (a partial partition) changes no table.
        if let Some(pattern) = self.lookup.pattern_of(tile as usize) {
            excess[pattern] = self.lookup.excess(pattern, &position);
        }
        let reflected = self
            .lookup
            .pattern_of(self.lookup.reflect_tile(tile as usize));
        if let Some(pattern) = reflected.filter(|_| self.lookup.reflects()) {
            excess[MAX_PATTERNS + pattern] = self.lookup.reflected_excess(pattern, &position);
        }
        (self.total(manhattan, &excess), excess)
    }
}

impl WeightedEstimate<'_> {
    fn full(&self, key: u128) -> (u16, Excess) {
        match self {
            WeightedEstimate::LinearConflict(toward) => (toward.estimate(&key), [0; 8]),
            WeightedEstimate::Pdb(pdb) => pdb.full(key),
        }
    }

    fn after(
        &self,
        key: u128,
        child: u128,
        parent: (u16, Excess),
        blank: usize,
        from: usize,
    ) -> (u16, Excess) {
        match self {
            WeightedEstimate::LinearConflict(toward) => (
                linear_conflict_after(toward, key, parent.0, blank, from),
                [0; 8],
            ),
            WeightedEstimate::Pdb(pdb) => pdb.after(key, child, parent, blank, from),
        }
    }
}

/// How a weighted search ended.
pub(crate) enum WeightedEnd {
    /// Solutions were found (each passed on) and the last one is proved shortest.
    Exhausted,
    /// None shorter exists: the bound it was given is optimal.
    NoneShorter,
}

/// Anytime weighted A*: priority `g + weight × h` (weight = `num / den`), pruning every node
/// whose `g + h` reaches the best length known (`upper` at first). Each solution shorter than
/// that goes to `on_found` and the search goes on, until the open list runs dry (the last
/// solution is then optimal), the budget stops it, or `max_nodes` expansions are done.
pub(crate) fn weighted_astar(
    board: &Board,
    heuristic: &WeightedEstimate,
    weight: Weight,
    upper: usize,
    max_nodes: u64,
    budget: &Budget,
    on_found: &mut dyn FnMut(Vec<Move>),
) -> Result<WeightedEnd, StopReason> {
    let key = u128::pack(board.tiles());
    let (h, excess) = heuristic.full(key);
    if usize::from(h) >= upper {
        return Ok(WeightedEnd::NoneShorter);
    }
    let root = Data {
        h,
        blank: board.blank() as u8,
        excess,
    };
    let start = priority(weight, 0, u32::from(h));
    let mut arena = Arena::new(key, hash_u128(key), root, start, 4096);
    let mut search = WeightedSearch {
        heuristic,
        weight,
        steps: board.shape().step_table(),
        upper,
        found_any: false,
        on_found,
    };
    let limits = Limits {
        every: 4096,
        max_nodes,
        counted: true,
    };
    match weighted::run(&mut arena, &mut search, &limits, budget)? {
        Ended::NodeLimit => Err(StopReason::NodeLimit),
        // The open list ran dry with every node of `g + h` under the bound expanded: nothing is
        // shorter than the last bound.
        Ended::RanDry | Ended::Stopped(_) => Ok(match search.found_any {
            true => WeightedEnd::Exhausted,
            false => WeightedEnd::NoneShorter,
        }),
    }
}

/// A weighted search's space: what stays the same from node to node, the best length known,
/// and where the solutions go.
struct WeightedSearch<'a, 'f> {
    heuristic: &'a WeightedEstimate<'a>,
    weight: Weight,
    /// The cell one step from each cell in each direction, or `usize::MAX`.
    steps: Vec<[usize; 4]>,
    /// The best length known: nodes whose `g + h` reach it are pruned.
    upper: usize,
    found_any: bool,
    on_found: &'f mut dyn FnMut(Vec<Move>),
}

impl Space<u128, Data> for WeightedSearch<'_, '_> {
    /// Prunes a node whose `g + h` reaches the best length; passes a goal on (the search goes
    /// on, under its length).
    fn visit(&mut self, arena: &Arena<u128, Data>, index: u32) -> Visit {
        let node = arena.node(index);
        let (g, h) = (node.g as u16, node.data.h);
        if usize::from(g + h) >= self.upper {
            return Visit::Skip;
        }
        if h == 0 {
            let moves = arena.path(index);
            self.upper = moves.len();
            self.found_any = true;
            (self.on_found)(moves);
            return Visit::Skip;
        }
        Visit::Expand
    }

    /// Offers the children of node `index` (never the move back) whose `g + h` is under the
    /// best length.
    fn expand(&self, arena: &mut Arena<u128, Data>, index: u32) {
        let node = arena.node(index);
        let (key, g, last) = (node.key, node.g as u16 + 1, node.last);
        let Data { h, blank, excess } = node.data;
        let blank = blank as usize;
        let back = match last {
            NO_MOVE => NO_MOVE,
            last => Move::ALL[last as usize].inverse() as u8,
        };
        for (mv, &from) in self.steps[blank].iter().enumerate() {
            if from == usize::MAX || mv as u8 == back {
                continue;
            }
            let child = key.slide(blank, from);
            let (h, excess) = self.heuristic.after(key, child, (h, excess), blank, from);
            if usize::from(g + h) >= self.upper {
                continue;
            }
            let data = Data {
                h,
                blank: from as u8,
                excess,
            };
            let priority = priority(self.weight, u32::from(g), u32::from(h));
            arena.offer(
                child,
                hash_u128(child),
                index,
                u32::from(g),
                mv as u8,
                data,
                priority,
                Wait::InTurn,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::linear_conflict;
    use crate::random::random_solvable;

    #[test]
    fn incremental_heuristic_matches_the_full_count() {
        let shape = Shape::new(5, 5).unwrap();
        let toward = Toward::goal(shape);
        let mut board = random_solvable(shape, 4);
        let mut key = u128::pack(board.tiles());
        let mut h = toward.estimate(&key);
        assert_eq!(usize::from(h), linear_conflict(&board));
        for i in 0..500 {
            let mv = Move::ALL[(i * 7 + i / 3) % 4];
            let blank = board.blank();
            let Some(from) = shape.step(blank, mv) else {
                continue;
            };
            let child = key.slide(blank, from);
            h = linear_conflict_after(&toward, key, h, blank, from);
            key = child;
            board.apply(mv);
            assert_eq!(usize::from(h), linear_conflict(&board));
        }
    }

    #[test]
    fn incremental_pattern_estimate_matches_the_database() {
        // Tables made here: a partition that leaves tiles out, so those count Manhattan only.
        let shape = Shape::new(4, 4).unwrap();
        let mut board = random_solvable(shape, 8);
        let patterns = vec![vec![1, 2, 5, 6], vec![3, 4, 7], vec![11, 12, 15]];
        let partition = crate::pdb::Partition::new(shape, "4-3-3", patterns).unwrap();
        let db = crate::pdb::cache::build(&partition, &Budget::default()).unwrap();
        let estimate = PdbEstimate::new(shape, &db).unwrap();
        let mut key = u128::pack(board.tiles());
        let mut state = estimate.full(key);
        assert_eq!(Some(usize::from(state.0)), db.heuristic(&board));
        for i in 0..400 {
            let mv = Move::ALL[(i * 5 + i / 7) % 4];
            let blank = board.blank();
            let Some(from) = shape.step(blank, mv) else {
                continue;
            };
            let child = key.slide(blank, from);
            state = estimate.after(key, child, state, blank, from);
            key = child;
            board.apply(mv);
            assert_eq!(Some(usize::from(state.0)), db.heuristic(&board));
        }
    }

    #[test]
    fn weight_one_is_optimal_on_small_boards() {
        let shape = Shape::new(3, 3).unwrap();
        for seed in 0..10 {
            let board = random_solvable(shape, seed);
            let optimal = crate::search::astar::astar(&board, &Budget::default()).unwrap();
            let mut found = Vec::new();
            let outcome = weighted_astar(
                &board,
                &WeightedEstimate::LinearConflict(Toward::goal(shape)),
                (1, 1),
                100,
                u64::MAX,
                &Budget::default(),
                &mut |moves| found.push(moves.len()),
            );
            assert!(matches!(outcome, Ok(WeightedEnd::Exhausted)));
            assert_eq!(found.first(), Some(&optimal.len()));
        }
    }
}
