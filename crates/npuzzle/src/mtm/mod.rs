//! Optimal solving in the multi-tile metric (MTM), where sliding several tiles of one line at
//! once counts as one move, for 3×3, 3×4, 4×3 and 4×4 boards.
//!
//! The engine's one IDA* ([`crate::search::idastar`]: its iterations of bounds, its looks at
//! the budget, its counts) over multi-tile moves (the blank goes 1 to k cells in one direction;
//! a move never follows one on the same axis, which it would merge with or undo), each costing
//! one, guided by the maximum of pattern tables built in the multi-tile metric ([`table`]).
//! What is this module's is how a node is expanded: its children all made at once, their
//! table entries kept step to step and read only where they could prune, the kept ones
//! searched nearest first (docs/engine.md, "Expanding a node"). On 3×3 one table holds every
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
use crate::search::idastar::shared::{Counters, Shared, Subtree};
use crate::search::idastar::{Deepened, Iteration, deepen};
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
        (4, 4) => Some(vec![
            range(1, 6),
            range(7, 12),
            range(10, 15),
            vec![5, 6, 9, 10, 13, 14],
        ]),
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
    /// For each tile, the lookups whose table names it, a bit each (see
    /// [`MtmTables::lookups`]): on the reflected board, the tile it becomes.
    names: [u8; 16],
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

    /// The tables of a shape, built once per process and then shared. The 4×4 tables (231 MB,
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
    /// The search takes the maximum of at most four tables: tile sets past the fourth are
    /// not built.
    pub fn with_patterns(shape: Shape, patterns: &[Vec<u8>]) -> MtmTables {
        let patterns = &patterns[..patterns.len().min(MAX_TABLES)];
        let tables = patterns.iter().map(|p| MtmTable::build(shape, p)).collect();
        MtmTables::from_tables(shape, tables)
    }

    fn from_tables(shape: Shape, tables: Vec<MtmTable>) -> MtmTables {
        let reflection = Reflection::of(shape).filter(|_| tables.len() > 1);
        let n = tables.len();
        let mut names = [0u8; 16];
        for (tile, bits) in names.iter_mut().enumerate().take(shape.cells()) {
            for (i, table) in tables.iter().enumerate() {
                if table.names(tile as u8) {
                    *bits |= 1 << i;
                }
                if let Some(reflection) = &reflection
                    && table.names(reflection.label[tile])
                {
                    *bits |= 1 << (n + i);
                }
            }
        }
        MtmTables {
            reflection,
            tables,
            shape,
            names,
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

    /// How many values an estimate takes the maximum of: each table's, on the board and on
    /// its reflection where there is one.
    fn lookups(&self) -> usize {
        self.tables.len() * if self.reflection.is_some() { 2 } else { 1 }
    }

    /// The table of the `i`th of a board's [`MtmTables::lookups`], and the board's cells
    /// it reads: table `i` on the board, then each table again on the reflected board.
    #[inline(always)]
    fn lookup_of<'s>(&self, i: usize, state: &'s State) -> (&MtmTable, &'s [u8; 16]) {
        match i.checked_sub(self.tables.len()) {
            None => (&self.tables[i], &state.cell_of),
            Some(i) => (&self.tables[i], &state.mirror),
        }
    }

    /// Sets a board's entries and masks (see [`State`]) from its cells: the root's.
    fn index_all(&self, state: &mut State) {
        for i in 0..self.lookups() {
            let (table, cells) = self.lookup_of(i, state);
            (state.entries[i], state.masks[i]) =
                (table.index(cells) as u32, table.tiles_mask(cells));
        }
    }

    /// Moves a board's entries and masks on after a step that took `tile` from cell `from`
    /// to the blank's cell `to` (the board's cells already moved). A table that names the tile
    /// ranks the board again. In the others only the blank moved, and it is the rank's last
    /// digit, of weight 1: its cell less the table's tiles below it, before and after.
    #[inline(always)]
    fn step(&self, state: &mut State, tile: u8, from: usize, to: usize) {
        let n = self.tables.len();
        let names = self.names[usize::from(tile & 15)];
        for i in 0..self.lookups() {
            let (a, b) = match (i < n, &self.reflection) {
                (false, Some(r)) => (usize::from(r.cell[from]), usize::from(r.cell[to])),
                _ => (from, to),
            };
            if names & (1 << i) != 0 {
                let (table, cells) = self.lookup_of(i, state);
                let entry = table.index(cells) as u32;
                state.masks[i] ^= (1 << a) | (1 << b);
                state.entries[i] = entry;
            } else {
                let below = |cell: usize| {
                    cell as u32 - (u32::from(state.masks[i]) & ((1 << cell) - 1)).count_ones()
                };
                state.entries[i] = state.entries[i]
                    .wrapping_sub(below(b))
                    .wrapping_add(below(a));
            }
        }
    }

    /// Every value of a board, exactly: the root's.
    fn values(&self, state: &State) -> Values {
        let mut values = [0; 2 * MAX_TABLES];
        for (i, value) in values.iter_mut().enumerate().take(self.lookups()) {
            let (table, _) = self.lookup_of(i, state);
            *value = table.at(state.entries[i] as usize);
        }
        values
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

/// The most tables a shape has (4×4's four).
const MAX_TABLES: usize = 4;

/// The most children a node has: the cells in the blank's row and column, 6 on 4×4.
const MAX_CHILDREN: usize = 8;

/// A board's values in each of its lookups (see [`MtmTables::lookups`]): some exact, the
/// others upper bounds (see [`Search::dfs`]).
type Values = [u8; 2 * MAX_TABLES];

/// A board as the search holds it: the tile on each cell, each tile's cell, and each tile's
/// cell on the board reflected about the main diagonal (square boards only).
#[derive(Clone, Copy, Default)]
struct State {
    tiles: [u8; 16],
    cell_of: [u8; 16],
    mirror: [u8; 16],
    /// The board's entry in each lookup's table (see [`MtmTables::lookups`]), kept from step
    /// to step rather than ranked anew.
    entries: [u32; 2 * MAX_TABLES],
    /// The cells of each lookup's tiles but the blank, a bit each.
    masks: [u16; 2 * MAX_TABLES],
}

/// A node's child: its board, the slide that made it (the blank's direction and how many
/// cells), its values, and which of them could prune it.
#[derive(Clone, Copy)]
struct Child {
    state: State,
    mv: Move,
    cells: u8,
    values: Values,
    /// The lookups that could prune it, a bit each: read first.
    pending: u8,
}

impl Default for Child {
    fn default() -> Child {
        Child {
            state: State::default(),
            mv: Move::Up,
            cells: 0,
            values: [0; 2 * MAX_TABLES],
            pending: 0,
        }
    }
}

/// One bound's depth-first search over multi-tile moves, as the one IDA*
/// ([`crate::search::idastar`]) iterates it: the tables, the board's moves, the goal, the path
/// so far, and the counts the iterations and the budget read.
struct Search<'a> {
    tables: &'a MtmTables,
    steps: Vec<[usize; 4]>,
    goal: [u8; 16],
    /// The blank's single steps from the root, as indices into [`Move::ALL`].
    path: Vec<u8>,
    /// The least f past the bound seen in this bound's search.
    next_bound: u32,
    /// Nodes expanded in this bound's search.
    expanded: u64,
    /// What this search has not yet told the budget.
    counters: Counters,
    shared: &'a Shared<'a>,
}

impl Search<'_> {
    /// The children of `state`: each slide of the blank by 1 to k cells in a direction off
    /// `last`'s axis (one on its axis would merge with it, or undo it). How many there are.
    #[inline(always)]
    fn children(
        &self,
        state: &State,
        last: Option<Move>,
        out: &mut [Child; MAX_CHILDREN],
    ) -> usize {
        let mut n = 0;
        for mv in Move::ALL {
            if last.is_some_and(|l| l == mv || l == mv.inverse()) {
                continue;
            }
            let mut moved = *state;
            let mut cells = 0;
            loop {
                let blank = usize::from(moved.cell_of[0]);
                let target = self.steps[blank][mv.index()];
                if target == usize::MAX || n == MAX_CHILDREN {
                    break;
                }
                let tile = moved.tiles[target];
                moved.tiles[blank] = tile;
                moved.tiles[target] = 0;
                moved.cell_of[usize::from(tile)] = blank as u8;
                moved.cell_of[0] = target as u8;
                if let Some(r) = &self.tables.reflection {
                    moved.mirror[usize::from(r.label[usize::from(tile)])] = r.cell[blank];
                    moved.mirror[0] = r.cell[target];
                }
                self.tables.step(&mut moved, tile, target, blank);
                cells += 1;
                out[n] = Child {
                    state: moved,
                    mv,
                    cells,
                    ..Child::default()
                };
                n += 1;
            }
        }
        n
    }

    /// A child's values bounded from its parent's, each table's at most one more (a move is
    /// one move of every table's abstraction): the values that could pass `limit` are marked
    /// to read first, their entries asked for from memory at once.
    #[inline(always)]
    fn plan(&self, child: &mut Child, parent: &Values, limit: u8) {
        let lookups = self.tables.lookups();
        let values = child.values.iter_mut().zip(parent).take(lookups);
        for (i, (value, &before)) in values.enumerate() {
            *value = before.saturating_add(1);
            if *value > limit {
                let (table, _) = self.tables.lookup_of(i, &child.state);
                table.prefetch(child.state.entries[i] as usize);
                child.pending |= 1 << i;
            }
        }
    }

    /// The child's values read as [`Search::plan`] planned, stopping at the first past
    /// `limit` (`Err`, that value): a pruned node costs only the lookups that prune it. A
    /// child kept has its other values read too, and its estimate is returned.
    #[inline(always)]
    fn settle(&self, child: &mut Child, limit: u8) -> Result<u8, u8> {
        let n = self.tables.tables.len();
        let mut pending = child.pending;
        while pending != 0 {
            let i = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let table = &self.tables.tables[i.checked_sub(n).unwrap_or(i)];
            let value = table.at(child.state.entries[i] as usize);
            if value > limit {
                return Err(value);
            }
            child.values[i] = value;
        }
        // A child within the bound has every value looked up: exact values rank the
        // children, and bound its own children's more tightly than bounds would.
        let mut h = 0;
        for i in 0..self.tables.lookups() {
            if child.pending & (1 << i) == 0 {
                let table = &self.tables.tables[i.checked_sub(n).unwrap_or(i)];
                child.values[i] = table.at(child.state.entries[i] as usize);
            }
            h = h.max(child.values[i]);
        }
        Ok(h)
    }

    /// Depth-first below `bound` from `state`, whose exact `values` are within it, `g`
    /// multi-tile moves made, `last` the previous move. The children are all made and their
    /// entries asked for from memory first; then each is pruned or kept, and the kept ones
    /// are searched nearest first (by estimate, then by the sum of their values). A table's
    /// value changes by at most one a move, so only the values at most one under the
    /// parent's limit can prune a child: those are asked for and read first, up to the first
    /// past the limit. A child kept has its other values read too, mostly from cache lines at
    /// hand (a slide that moves none of a table's tiles moves its entry a few bytes). As in
    /// every IDA*, the least f past the bound is kept for the next bound, and the budget is
    /// looked at through the search's counters ([`Shared::check`]).
    #[inline(always)]
    fn dfs<const POPCNT: bool>(
        &mut self,
        state: &State,
        values: &Values,
        g: u32,
        bound: u32,
        last: Option<Move>,
    ) -> Subtree {
        if state.tiles == self.goal {
            return Subtree::Found;
        }
        self.expanded += 1;
        self.counters.expanded += 1;
        if self.counters.expanded >= self.counters.check_in
            && let Some(end) = (self.shared).check(&mut self.counters, self.tables.bytes(), 0)
        {
            return end;
        }
        // Every child has f past the bound (a table whose h 0 is not the goal's).
        let Some(limit) = bound.checked_sub(g + 1) else {
            self.next_bound = self.next_bound.min(g + 1);
            return Subtree::NotFound;
        };
        let limit = limit.min(u32::from(u8::MAX)) as u8;
        let mut children = [Child::default(); MAX_CHILDREN];
        let count = self.children(state, last, &mut children);
        for child in &mut children[..count] {
            self.plan(child, values, limit);
        }
        // The children within the bound, by estimate and index, nearest first.
        let mut within = [(0u8, 0u8, 0u8); MAX_CHILDREN];
        let mut kept = 0;
        for (i, child) in children[..count].iter_mut().enumerate() {
            match self.settle(child, limit) {
                Ok(h) => {
                    let sum: u32 = child.values.iter().map(|&v| u32::from(v)).sum();
                    within[kept] = (h, sum.min(255) as u8, i as u8);
                    kept += 1;
                }
                Err(h) => self.next_bound = self.next_bound.min(g + 1 + u32::from(h)),
            }
        }
        within[..kept].sort_unstable();
        for &(_, _, i) in &within[..kept] {
            let child = &children[usize::from(i)];
            let depth = self.path.len();
            let step = child.mv.index() as u8;
            (self.path).extend(std::iter::repeat_n(step, usize::from(child.cells)));
            match self.descend::<POPCNT>(&child.state, &child.values, g + 1, bound, child.mv) {
                Subtree::NotFound => {}
                other => return other,
            }
            self.path.truncate(depth);
        }
        Subtree::NotFound
    }

    /// [`Search::dfs`] from a child, in the build `POPCNT` says.
    #[inline(always)]
    fn descend<const POPCNT: bool>(
        &mut self,
        state: &State,
        values: &Values,
        g: u32,
        bound: u32,
        last: Move,
    ) -> Subtree {
        #[cfg(target_arch = "x86_64")]
        if POPCNT {
            // SAFETY: the search runs with POPCNT only where the CPU has popcnt (see
            // `Search::start`).
            return unsafe { self.dfs_popcnt(state, values, g, bound, Some(last)) };
        }
        self.dfs_plain(state, values, g, bound, Some(last))
    }

    /// [`Search::dfs`] compiled with the popcnt instruction: each entry's rank counts the
    /// cells taken below a tile's with it (without it, a dozen instructions).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn dfs_popcnt(
        &mut self,
        state: &State,
        values: &Values,
        g: u32,
        bound: u32,
        last: Option<Move>,
    ) -> Subtree {
        self.dfs::<true>(state, values, g, bound, last)
    }

    /// [`Search::dfs`] for any CPU.
    fn dfs_plain(
        &mut self,
        state: &State,
        values: &Values,
        g: u32,
        bound: u32,
        last: Option<Move>,
    ) -> Subtree {
        self.dfs::<false>(state, values, g, bound, last)
    }

    /// One bound's search from the root, whose exact values are `values`, with popcnt where
    /// the CPU has it: what the IDA*'s iterations ([`deepen`]) ask for.
    fn iterate(&mut self, root: &State, values: &Values, bound: u32) -> Iteration {
        (self.next_bound, self.expanded) = (u32::MAX, 0);
        let subtree = self.start(root, values, bound);
        self.shared.flush(&mut self.counters);
        Iteration::ended(subtree, &mut self.path, self.next_bound, self.expanded)
    }

    /// The depth-first search below `bound` from the root.
    fn start(&mut self, root: &State, values: &Values, bound: u32) -> Subtree {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has popcnt, as just checked.
            return unsafe { self.dfs_popcnt(root, values, 0, bound, None) };
        }
        self.dfs_plain(root, values, 0, bound, None)
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

/// [`solve_mtm`] with tables at hand (see [`MtmTables::load_or_build`]); the time counts the search
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
    let cells = board.shape().cells();
    let mut root = State {
        cell_of: cells_of(board),
        ..State::default()
    };
    if let Some(reflection) = &tables.reflection {
        root.mirror = reflection.apply(&root.cell_of, cells);
    }
    root.tiles[..cells].copy_from_slice(board.tiles());
    tables.index_all(&mut root);
    let mut goal = [0u8; 16];
    goal[..cells].copy_from_slice(Board::goal_of(board.shape()).tiles());
    let shared = Shared::new(budget, 1);
    let mut search = Search {
        tables,
        steps: board.shape().step_table(),
        goal,
        path: Vec::new(),
        next_bound: u32::MAX,
        expanded: 0,
        counters: Counters::default(),
        shared: &shared,
    };
    let values = tables.values(&root);
    let h = u32::from(values.iter().copied().max().unwrap_or(0));
    let iterate = |bound| search.iterate(&root, &values, bound);
    match deepen(h, 0, u32::MAX, iterate, |_, _| {}) {
        Deepened::Found {
            path,
            bound,
            expanded,
            ..
        } => {
            let moves: Vec<Move> = path.iter().map(|&m| Move::ALL[usize::from(m)]).collect();
            debug_assert_eq!(mtm_length(&moves), bound as usize);
            Ok(Solution {
                lower_bound: bound as usize,
                moves,
                algorithm: Algorithm::IdaStar,
                optimal: true,
                nodes_expanded: expanded,
                seconds: clock.seconds(),
                ended: Ended::RanItsCourse,
            })
        }
        Deepened::Stopped { reason, bound } => Err(MtmError::GaveUp(GaveUp {
            reason: shared.reason_or(reason),
            nodes_expanded: shared.expanded(),
            seconds: clock.seconds(),
            memory: tables.bytes(),
            lower_bound: bound as usize,
        })),
        // A solvable board has a path at some bound.
        Deepened::Exhausted => unreachable!("no bound is past u32::MAX"),
    }
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
    fn the_entries_kept_step_by_step_equal_a_fresh_ranking() {
        let four = Shape::new(4, 4).unwrap();
        let tables = MtmTables::with_patterns(four, &[vec![1, 2, 3, 6, 7], vec![9, 13, 14, 15]]);
        let mut board = Board::goal_of(four);
        let fresh = |board: &Board| {
            let mut state = State {
                cell_of: cells_of(board),
                ..State::default()
            };
            state.tiles.copy_from_slice(board.tiles());
            if let Some(reflection) = &tables.reflection {
                state.mirror = reflection.apply(&state.cell_of, 16);
            }
            tables.index_all(&mut state);
            state
        };
        let mut kept = fresh(&board);
        let mut rng = crate::random::SplitMix64::new(5);
        for _ in 0..500 {
            let mv = Move::ALL[rng.below(4) as usize];
            let blank = board.blank();
            if !board.apply(mv) {
                continue;
            }
            let target = board.blank();
            let tile = board.tiles()[blank];
            kept.tiles.copy_from_slice(board.tiles());
            kept.cell_of = cells_of(&board);
            kept.mirror = fresh(&board).mirror;
            tables.step(&mut kept, tile, target, blank);
            let expected = fresh(&board);
            assert_eq!(
                (kept.entries, kept.masks),
                (expected.entries, expected.masks)
            );
        }
    }

    #[test]
    fn the_node_cap_is_met_exactly_as_in_every_ida_star() {
        let shape = Shape::new(3, 4).unwrap();
        let tables = MtmTables::for_shape(shape).unwrap();
        let board = shuffled(shape, 60, 11);
        let solve = |cap| solve_mtm_with(&board, &tables, &Budget::unlimited().with_max_nodes(cap));
        let found = solve(u64::MAX).unwrap();
        // The least cap that finds it (a cap n lets n - 1 nodes be expanded, as a budget's).
        let (mut low, mut high) = (1u64, 1 << 20);
        while low < high {
            let cap = (low + high) / 2;
            match solve(cap) {
                Ok(solution) => {
                    assert_eq!(solution.moves, found.moves);
                    high = cap;
                }
                Err(_) => low = cap + 1,
            }
        }
        assert!(low > 10, "{low}");
        assert_eq!(solve(low).map(|s| s.moves), Ok(found.moves));
        let Err(MtmError::GaveUp(gave_up)) = solve(low - 1) else {
            panic!("a cap one lower stops the search");
        };
        assert_eq!(gave_up.reason, crate::search::budget::StopReason::NodeLimit);
        assert!(gave_up.lower_bound <= found.lower_bound);
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
