//! Optimal solving in the multi-tile metric (MTM), where sliding several tiles of one line at
//! once counts as one move, for 3×3, 3×4, 4×3 and 4×4 boards.
//!
//! IDA* over multi-tile moves (the blank goes 1 to k cells in one direction; a move never
//! follows one on the same axis, which it would merge with or undo), guided by the maximum of
//! pattern tables built in the multi-tile metric ([`table`]). On 3×3 one table holds every
//! tile, so it is exact. The tables are built on first use and kept for the process.
//!
//! ```
//! use npuzzle::{Budget, parse_board, mtm_length};
//! use npuzzle::mtm::solve_mtm;
//!
//! // The blank goes left twice: one multi-tile move.
//! let board = parse_board("1 2 3/4 5 6/7 8 0").unwrap();
//! let mut board = board;
//! board.apply_all(&npuzzle::moves_from_str("LL").unwrap()).unwrap();
//! let solution = solve_mtm(&board, &Budget::default()).unwrap();
//! assert_eq!(mtm_length(&solution.moves), 1);
//! assert!(solution.optimal);
//! ```

pub mod cache;
pub mod table;

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use thiserror::Error;

use crate::board::{Board, Move, Shape};
use crate::notation::mtm_length;
use crate::search::budget::{Budget, GaveUp, Stopwatch};
use crate::solution::{Algorithm, Ended, Solution};
use crate::solvability::Solvability;
use table::{MtmTable, cells_of};

/// Why [`solve_mtm`] returned no solution.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MtmError {
    /// The board is not 3×3, 3×4, 4×3 or 4×4.
    #[error("optimal multi-tile solving is for 3x3, 3x4, 4x3 and 4x4 boards, not {0}")]
    Shape(Shape),
    /// The goal cannot be reached from this board.
    #[error("the board is unsolvable: {0}")]
    Unsolvable(Solvability),
    /// The budget ran out first, or the search was cancelled.
    #[error("{0}")]
    GaveUp(GaveUp),
}

/// The tiles of each table on a shape, or `None` for shapes without MTM tables.
fn patterns(shape: Shape) -> Option<Vec<Vec<u8>>> {
    let range = |a: u8, b: u8| (a..=b).collect::<Vec<u8>>();
    match (shape.width, shape.height) {
        (3, 3) => Some(vec![range(1, 8)]),
        (3, 4) | (4, 3) => Some(vec![range(1, 6), range(6, 11)]),
        (4, 4) => Some(vec![range(1, 6), range(7, 12), range(10, 15)]),
        _ => None,
    }
}

/// A shape and its tables, as kept for the process.
type Built = (Shape, Arc<MtmTables>);

/// A shape's tables, built once per process.
pub struct MtmTables {
    tables: Vec<MtmTable>,
    shape: Shape,
    /// On square boards, the reflection about the main diagonal: each tile's label there and
    /// each cell's image. The reflected board is as far from the goal, so the tables are also
    /// looked up on it, and the larger estimate taken.
    reflection: Option<Reflection>,
}

/// The reflection of a square board about its main diagonal.
struct Reflection {
    /// The tile that tile `t` becomes (the blank stays 0).
    label: [u8; 16],
    /// The cell that cell `c` goes to.
    cell: [u8; 16],
}

impl Reflection {
    fn of(shape: Shape) -> Option<Reflection> {
        if shape.width != shape.height {
            return None;
        }
        let mut cell = [0u8; 16];
        for (from, to) in cell.iter_mut().enumerate().take(shape.cells()) {
            let (column, row) = shape.column_row(from);
            *to = shape.cell(row, column) as u8;
        }
        let mut label = [0u8; 16];
        for tile in 1..shape.cells() {
            label[tile] = cell[shape.goal_cell(tile as u8)] + 1;
        }
        Some(Reflection { label, cell })
    }

    /// The reflected board's cells by tile.
    fn apply(&self, cell_of: &[u8], cells: usize) -> [u8; 16] {
        let mut reflected = [0u8; 16];
        for tile in 0..cells {
            reflected[self.label[tile] as usize] = self.cell[cell_of[tile] as usize];
        }
        reflected
    }
}

impl MtmTables {
    /// The tables of a shape (built on first call, then shared), or `None` for shapes other
    /// than 3×3, 3×4, 4×3 and 4×4. Nothing is read from or written to disk, and the build
    /// cannot be stopped: for the small shapes, whose tables build in a second.
    pub fn for_shape(shape: Shape) -> Option<Arc<MtmTables>> {
        MtmTables::load_or_build(shape, None, &Budget::unlimited()).ok()
    }

    /// The tables of a shape, built once per process and then shared. The 4×4 tables (173 MB,
    /// a build of a minute or more) are cached in the folder `dir` (the pattern databases'
    /// folder): read from their file when it is there and whole, else built and saved (a
    /// failed save is no error: the tables are used from memory). The smaller shapes' tables
    /// are built at once, never cached. The build reports [`crate::PdbEvent`]s to the budget's
    /// progress callback, and stops at the budget's cancel flag or deadline, writing nothing.
    ///
    /// # Errors
    ///
    /// [`MtmError::Shape`] for shapes without tables; [`MtmError::GaveUp`] when the budget
    /// stops the build.
    pub fn load_or_build(
        shape: Shape,
        dir: Option<&Path>,
        budget: &Budget,
    ) -> Result<Arc<MtmTables>, MtmError> {
        static BUILT: OnceLock<Mutex<Vec<Built>>> = OnceLock::new();
        let patterns = patterns(shape).ok_or(MtmError::Shape(shape))?;
        let built = BUILT.get_or_init(Mutex::default);
        let mut built = built
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, tables)) = built.iter().find(|(s, _)| *s == shape) {
            return Ok(Arc::clone(tables));
        }
        let dir = dir.filter(|_| shape.cells() == 16);
        let tables = cache::load_or_build(shape, &patterns, dir, budget)
            .map_err(|reason| MtmError::GaveUp(GaveUp::stopped(reason)))?;
        let tables = Arc::new(MtmTables::from_tables(shape, tables));
        built.push((shape, Arc::clone(&tables)));
        Ok(tables)
    }

    /// Tables of the given tile sets, built now: for tests of the search with small tables.
    pub fn with_patterns(shape: Shape, patterns: &[Vec<u8>]) -> MtmTables {
        let tables = patterns.iter().map(|p| MtmTable::build(shape, p)).collect();
        MtmTables::from_tables(shape, tables)
    }

    fn from_tables(shape: Shape, tables: Vec<MtmTable>) -> MtmTables {
        MtmTables {
            reflection: Reflection::of(shape).filter(|_| tables.len() > 1),
            tables,
            shape,
        }
    }

    /// A lower bound on the board's multi-tile distance (exact on 3×3).
    pub fn heuristic(&self, board: &Board) -> usize {
        self.estimate(&cells_of(board)) as usize
    }

    fn estimate(&self, cell_of: &[u8]) -> u8 {
        let direct = self.max_lookup(cell_of);
        match &self.reflection {
            Some(reflection) => {
                direct.max(self.max_lookup(&reflection.apply(cell_of, self.shape.cells())))
            }
            None => direct,
        }
    }

    /// The estimate if it is at most `limit`; else, as soon as one table's value passes
    /// `limit`, that value (`Err`): a pruned node costs only the lookups that prune it.
    fn estimate_within(&self, cell_of: &[u8], limit: u8) -> Result<u8, u8> {
        let mut h = 0;
        for table in &self.tables {
            h = h.max(table.lookup(cell_of));
            if h > limit {
                return Err(h);
            }
        }
        if let Some(reflection) = &self.reflection {
            let reflected = reflection.apply(cell_of, self.shape.cells());
            for table in &self.tables {
                h = h.max(table.lookup(&reflected));
                if h > limit {
                    return Err(h);
                }
            }
        }
        Ok(h)
    }

    fn max_lookup(&self, cell_of: &[u8]) -> u8 {
        self.tables
            .iter()
            .map(|t| t.lookup(cell_of))
            .max()
            .unwrap_or(0)
    }

    /// Bytes the tables hold.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(MtmTable::bytes).sum()
    }
}

/// The search's state: the board as tile by cell and cell by tile, and the path so far.
struct Search<'a> {
    tables: &'a MtmTables,
    steps: Vec<[usize; 4]>,
    tiles: Vec<u8>,
    cell_of: [u8; 16],
    path: Vec<Move>,
    nodes: u64,
    budget: &'a Budget,
}

/// How a depth-first pass ended: the goal found, or the least estimate past the bound.
enum Pass {
    Found,
    Next(usize),
}

/// Nodes between two looks at the budget.
const CHECK_EVERY: u64 = 4096;

impl Search<'_> {
    /// Slides the blank one cell; returns the tile moved.
    fn slide(&mut self, mv: Move) {
        let blank = self.cell_of[0] as usize;
        let target = self.steps[blank][mv.index()];
        let tile = self.tiles[target];
        self.tiles[blank] = tile;
        self.tiles[target] = 0;
        self.cell_of[tile as usize] = blank as u8;
        self.cell_of[0] = target as u8;
        self.path.push(mv);
    }

    fn unslide(&mut self) {
        let mv = self.path.pop().expect("a move to undo");
        let blank = self.cell_of[0] as usize;
        let back = self.steps[blank][mv.inverse().index()];
        let tile = self.tiles[back];
        self.tiles[blank] = tile;
        self.tiles[back] = 0;
        self.cell_of[tile as usize] = blank as u8;
        self.cell_of[0] = back as u8;
    }

    /// Depth-first below `bound`, `g` multi-tile moves made, `last` the previous move.
    fn dfs(&mut self, g: usize, bound: usize, last: Option<Move>) -> Result<Pass, GaveUp> {
        // g never passes the bound: a parent at the bound has h 0, so it is the goal.
        let limit = bound.saturating_sub(g).min(usize::from(u8::MAX)) as u8;
        let h = match self.tables.estimate_within(&self.cell_of, limit) {
            Ok(h) => usize::from(h),
            // Part of the estimate: a lower f than the whole, still past the bound.
            Err(h) => return Ok(Pass::Next(g + usize::from(h))),
        };
        if h == 0
            && self
                .tiles
                .iter()
                .enumerate()
                .all(|(c, &t)| self.is_home(c, t))
        {
            return Ok(Pass::Found);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.budget
                .check(self.nodes, self.tables.bytes())
                .map_err(|reason| GaveUp {
                    nodes_expanded: self.nodes,
                    ..GaveUp::stopped(reason)
                })?;
        }
        let mut next = usize::MAX;
        for mv in Move::ALL {
            if last.is_some_and(|l| l == mv || l == mv.inverse()) {
                continue;
            }
            let mut slid = 0;
            while self.steps[self.cell_of[0] as usize][mv.index()] != usize::MAX {
                self.slide(mv);
                slid += 1;
                match self.dfs(g + 1, bound, Some(mv))? {
                    Pass::Found => return Ok(Pass::Found),
                    Pass::Next(f) => next = next.min(f),
                }
            }
            for _ in 0..slid {
                self.unslide();
            }
        }
        Ok(Pass::Next(next))
    }

    fn is_home(&self, cell: usize, tile: u8) -> bool {
        cell == self.tiles.len() - 1 || tile as usize == cell + 1
    }
}

/// A shortest solution in the multi-tile metric: `moves` are the blank's single steps, and
/// each run of one direction is one multi-tile move ([`mtm_length`] counts them; the
/// solution's `lower_bound` is in multi-tile moves). For 3×3, 3×4, 4×3 and 4×4 boards.
///
/// # Errors
///
/// [`MtmError::Shape`] for other shapes, [`MtmError::Unsolvable`], and [`MtmError::GaveUp`]
/// when the budget runs out (with the bound proved so far).
pub fn solve_mtm(board: &Board, budget: &Budget) -> Result<Solution, MtmError> {
    let clock = Stopwatch::start();
    let tables = MtmTables::for_shape(board.shape()).ok_or(MtmError::Shape(board.shape()))?;
    solve_mtm_with(board, &tables, budget).map(|solution| Solution {
        seconds: clock.seconds(),
        ..solution
    })
}

/// [`solve_mtm`] with tables at hand (see [`MtmTables::cached`]); the time counts the search
/// alone.
///
/// # Errors
///
/// As [`solve_mtm`].
pub fn solve_mtm_with(
    board: &Board,
    tables: &MtmTables,
    budget: &Budget,
) -> Result<Solution, MtmError> {
    let clock = Stopwatch::start();
    if tables.shape != board.shape() {
        return Err(MtmError::Shape(board.shape()));
    }
    let solvability = Solvability::of(board);
    if !solvability.solvable {
        return Err(MtmError::Unsolvable(solvability));
    }
    let mut search = Search {
        tables,
        steps: board.shape().step_table(),
        tiles: board.tiles().to_vec(),
        cell_of: cells_of(board),
        path: Vec::new(),
        nodes: 0,
        budget,
    };
    let mut bound = tables.heuristic(board);
    loop {
        match search.dfs(0, bound, None) {
            Ok(Pass::Found) => break,
            Ok(Pass::Next(next)) => bound = next,
            Err(gave_up) => {
                return Err(MtmError::GaveUp(GaveUp {
                    seconds: clock.seconds(),
                    lower_bound: bound,
                    ..gave_up
                }));
            }
        }
    }
    debug_assert_eq!(mtm_length(&search.path), bound);
    Ok(Solution {
        moves: search.path,
        algorithm: Algorithm::IdaStar,
        optimal: true,
        nodes_expanded: search.nodes,
        seconds: clock.seconds(),
        lower_bound: bound,
        ended: Ended::RanItsCourse,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::shuffled;
    use rustc_hash::FxHashMap;

    /// The multi-tile distance by a plain breadth-first search over whole boards.
    fn bfs_distance(board: &Board) -> usize {
        let mut seen: FxHashMap<Vec<u8>, usize> = FxHashMap::default();
        seen.insert(board.tiles().to_vec(), 0);
        let mut frontier = vec![board.clone()];
        for depth in 0.. {
            if frontier.iter().any(Board::is_goal) {
                return depth;
            }
            let mut next = Vec::new();
            for state in &frontier {
                for mv in Move::ALL {
                    let mut moved = state.clone();
                    while moved.apply(mv) {
                        if !seen.contains_key(moved.tiles()) {
                            seen.insert(moved.tiles().to_vec(), depth + 1);
                            next.push(moved.clone());
                        }
                    }
                }
            }
            frontier = next;
        }
        unreachable!()
    }

    #[test]
    fn lengths_match_a_breadth_first_search_over_whole_boards() {
        // 4×4 with 5-tile tables, which build in seconds (the real ones take a minute): the
        // same search, the same reflection.
        let four = Shape::new(4, 4).unwrap();
        let small =
            MtmTables::with_patterns(four, &[vec![1, 2, 3, 4, 5], vec![11, 12, 13, 14, 15]]);
        for (w, h, moves) in [(3, 3, 200), (3, 4, 14), (4, 3, 14), (4, 4, 12)] {
            for seed in 0..4 {
                let board = shuffled(Shape::new(w, h).unwrap(), moves, seed);
                let solution = if w * h == 16 {
                    solve_mtm_with(&board, &small, &Budget::default()).unwrap()
                } else {
                    solve_mtm(&board, &Budget::default()).unwrap()
                };
                assert!(solution.solves(&board), "{w}x{h} seed {seed}");
                let length = mtm_length(&solution.moves);
                assert_eq!(length, bfs_distance(&board), "{w}x{h} seed {seed}\n{board}");
                assert_eq!(length, solution.lower_bound);
            }
        }
    }

    #[test]
    fn the_3x3_table_is_exact() {
        let tables = MtmTables::for_shape(Shape::new(3, 3).unwrap()).unwrap();
        for seed in 0..6 {
            let board = shuffled(Shape::new(3, 3).unwrap(), 300, seed);
            assert_eq!(tables.heuristic(&board), bfs_distance(&board));
        }
    }

    #[test]
    fn tables_of_one_shape_are_refused_on_another() {
        let tables = MtmTables::for_shape(Shape::new(3, 4).unwrap()).unwrap();
        let wide = Board::goal(4, 3).unwrap();
        assert_eq!(
            solve_mtm_with(&wide, &tables, &Budget::default()),
            Err(MtmError::Shape(wide.shape()))
        );
    }

    #[test]
    fn other_shapes_and_unsolvable_boards_are_refused() {
        let five = Board::goal(5, 5).unwrap();
        assert_eq!(
            solve_mtm(&five, &Budget::default()),
            Err(MtmError::Shape(five.shape()))
        );
        let swapped = Board::new(3, 3, vec![2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert!(matches!(
            solve_mtm(&swapped, &Budget::default()),
            Err(MtmError::Unsolvable(_))
        ));
    }
}

#[cfg(test)]
mod reflection_tests {
    use super::*;
    use crate::random::random_solvable;

    #[test]
    fn the_reflection_keeps_the_goal_and_undoes_itself() {
        let shape = Shape::new(4, 4).unwrap();
        let reflection = Reflection::of(shape).unwrap();
        let goal = cells_of(&Board::goal_of(shape));
        assert_eq!(
            reflection.apply(&goal, 16),
            goal,
            "the goal reflects to itself"
        );
        assert_eq!(
            reflection.label[2], 5,
            "tile 2 (row 0, column 1) becomes tile 5"
        );
        for seed in 0..20 {
            let cells = cells_of(&random_solvable(shape, seed));
            let once = reflection.apply(&cells, 16);
            let mut seen = once;
            seen.sort_unstable();
            assert_eq!(seen, std::array::from_fn(|i| i as u8), "a permutation");
            assert_eq!(reflection.apply(&once, 16), cells);
        }
        assert!(Reflection::of(Shape::new(3, 4).unwrap()).is_none());
    }
}
