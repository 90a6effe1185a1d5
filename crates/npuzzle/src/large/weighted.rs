//! Weighted A* on boards of up to 25 cells, with Manhattan + linear conflict (or the pattern
//! databases) kept incrementally in each node (the one kept estimate,
//! [`crate::estimate::kept::Kept`]), pruned by the best length known so far: the anytime search
//! behind near-optimal 5×5 answers. The search itself is the engine's one weighted A*
//! ([`crate::search::weighted`]); here are the boards' estimates and the pruning.

use crate::board::{Board, Move, Shape};
use crate::estimate::kept::{CONFLICTS, FEW_PATTERNS, Kept, MANHATTAN, TABLES};
use crate::estimate::pdb::{PdbLookup, Positions};
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
    /// The estimate, with room for the tables' excesses.
    kept: Kept<FEW_PATTERNS>,
    blank: u8,
}

/// What weighted A* estimates with: Manhattan + linear conflict, or, with tables, Manhattan +
/// twice the larger additive pattern-database excess (as is or reflected).
pub(crate) struct WeightedEstimate<'a> {
    toward: Toward,
    tables: Option<PdbLookup<'a>>,
}

impl<'a> WeightedEstimate<'a> {
    /// Manhattan + linear conflict on boards of `shape`.
    pub(crate) fn linear_conflict(shape: Shape) -> WeightedEstimate<'a> {
        WeightedEstimate {
            toward: Toward::goal(shape),
            tables: None,
        }
    }

    /// The tables' estimate, for a database of the board's shape with at most four patterns.
    pub(crate) fn with_tables(
        shape: Shape,
        db: &'a PatternDatabase,
    ) -> Option<WeightedEstimate<'a>> {
        if db.shape() != shape || db.tables().len() > FEW_PATTERNS {
            return None;
        }
        Some(WeightedEstimate {
            toward: Toward::goal(shape),
            tables: Some(PdbLookup::new(db, true)),
        })
    }

    /// The estimate of the packed board `key`.
    fn full(&self, key: u128) -> Kept<FEW_PATTERNS> {
        match &self.tables {
            None => Kept::of::<CONFLICTS, _>(&self.toward, &key),
            Some(lookup) => {
                let positions = Positions::of(lookup, &key, self.toward.shape().cells());
                Kept::of::<MANHATTAN, _>(&self.toward, &key).with_patterns(lookup, &positions)
            }
        }
    }

    /// The value of an estimate it made.
    fn value(&self, kept: &Kept<FEW_PATTERNS>) -> u16 {
        match self.tables {
            None => kept.value::<CONFLICTS>() as u16,
            Some(_) => kept.value::<TABLES>() as u16,
        }
    }

    /// The estimate `kept` of the packed board `key` (counting `TERMS`: [`CONFLICTS`], or
    /// [`TABLES`] with `key`'s `positions`) once the tile on `from` slides into the blank on
    /// `blank`. The positions are left as they were.
    #[inline(always)]
    fn after<const TERMS: u8>(
        &self,
        key: u128,
        kept: Kept<FEW_PATTERNS>,
        blank: usize,
        from: usize,
        positions: Option<&mut Positions>,
    ) -> Kept<FEW_PATTERNS> {
        let tile = key.tile(from);
        let width = self.toward.shape().width;
        let vertical = blank / width != from / width;
        let kept = kept.slid::<TERMS, _>(&self.toward, &key, tile, from, blank, vertical);
        match (&self.tables, positions) {
            (Some(lookup), Some(positions)) if TERMS == TABLES => {
                positions.moved(lookup, tile, blank);
                let kept = kept.repatterned(lookup, positions, tile);
                positions.moved(lookup, tile, from);
                kept
            }
            _ => kept,
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
    let kept = heuristic.full(key);
    let h = heuristic.value(&kept);
    if usize::from(h) >= upper {
        return Ok(WeightedEnd::NoneShorter);
    }
    let root = Data {
        kept,
        blank: board.blank() as u8,
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
        let (g, h) = (node.g as u16, self.heuristic.value(&node.data.kept));
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
        match &self.heuristic.tables {
            Some(lookup) => {
                let key = arena.node(index).key;
                let cells = self.steps.len();
                let mut positions = Positions::of(lookup, &key, cells);
                self.offer::<TABLES>(arena, index, Some(&mut positions));
            }
            None => self.offer::<CONFLICTS>(arena, index, None),
        }
    }
}

impl WeightedSearch<'_, '_> {
    /// [`Space::expand`] counting `TERMS`, with the node's `positions` for [`TABLES`].
    #[inline(always)]
    fn offer<const TERMS: u8>(
        &self,
        arena: &mut Arena<u128, Data>,
        index: u32,
        mut positions: Option<&mut Positions>,
    ) {
        let node = arena.node(index);
        let (key, g, last) = (node.key, node.g as u16 + 1, node.last);
        let Data { kept, blank } = node.data;
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
            let estimate = self.heuristic;
            let kept = estimate.after::<TERMS>(key, kept, blank, from, positions.as_deref_mut());
            let h = kept.value::<TERMS>() as u16;
            if usize::from(g + h) >= self.upper {
                continue;
            }
            let data = Data {
                kept,
                blank: from as u8,
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

    /// Walks up to 500 slides from `board`, the estimate kept by [`WeightedEstimate::after`]
    /// (counting `TERMS`) equal at each to the whole board's, as `expected` gives it, and the
    /// positions `after` moves the tile in put back as they were.
    fn walk_and_compare<const TERMS: u8>(
        estimate: &WeightedEstimate,
        mut board: Board,
        expected: impl Fn(&Board) -> usize,
    ) {
        let shape = board.shape();
        let mut key = u128::pack(board.tiles());
        let mut kept = estimate.full(key);
        assert_eq!(usize::from(estimate.value(&kept)), expected(&board));
        let cells = shape.cells();
        for i in 0..500 {
            let mv = Move::ALL[(i * 7 + i / 3) % 4];
            let blank = board.blank();
            let Some(from) = shape.step(blank, mv) else {
                continue;
            };
            let mut positions = (estimate.tables.as_ref()).map(|l| Positions::of(l, &key, cells));
            kept = estimate.after::<TERMS>(key, kept, blank, from, positions.as_mut());
            if let Some(positions) = &positions {
                let lookup = estimate.tables.as_ref().unwrap();
                assert_eq!(
                    positions.plain(),
                    Positions::of(lookup, &key, cells).plain()
                );
            }
            key = key.slide(blank, from);
            board.apply(mv);
            assert_eq!(
                usize::from(estimate.value(&kept)),
                expected(&board),
                "step {i}"
            );
        }
    }

    #[test]
    fn incremental_heuristic_matches_the_full_count() {
        let shape = Shape::new(5, 5).unwrap();
        let estimate = WeightedEstimate::linear_conflict(shape);
        walk_and_compare::<CONFLICTS>(&estimate, random_solvable(shape, 4), linear_conflict);
    }

    #[test]
    fn incremental_pattern_estimate_matches_the_database() {
        // Tables made here: a partition that leaves tiles out, so those count Manhattan only.
        let shape = Shape::new(4, 4).unwrap();
        let patterns = vec![vec![1, 2, 5, 6], vec![3, 4, 7], vec![11, 12, 15]];
        let partition = crate::pdb::Partition::new(shape, "4-3-3", patterns).unwrap();
        let db = crate::pdb::cache::build(&partition, &Budget::default()).unwrap();
        let estimate = WeightedEstimate::with_tables(shape, &db).unwrap();
        let expected = |board: &Board| db.heuristic(board).unwrap();
        walk_and_compare::<TABLES>(&estimate, random_solvable(shape, 8), expected);
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
                &WeightedEstimate::linear_conflict(shape),
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
