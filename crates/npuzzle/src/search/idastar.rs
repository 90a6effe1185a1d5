//! IDA*: iterative-deepening A* over a compact state, with incremental heuristics.
//!
//! The state is the tiles by cell, the blank's cell, and each tile's cell (and the same for the
//! board reflected about the main diagonal), all in fixed byte arrays that a move updates and
//! its undo restores; nothing is allocated per node. Each move changes one tile, so the
//! heuristic is updated from that tile alone: its Manhattan term, and the one pattern table
//! (and one reflected table) that holds it. The move back to the parent is never made. Each
//! iteration's bound is the smallest f that exceeded the last one, so the first solution found
//! is optimal.
//!
//! Pattern databases that keep the least cost over the blank's places are admissible but not
//! consistent: a child's value can exceed its parent's by more than one. The search then lifts
//! the parent to the child's value less one (BPMX, one level) and cuts the parent off when that
//! passes the bound.
//!
//! With more than one thread, the paths of a few moves from the root are searched in parallel
//! (rayon), in the order a single thread would take them. The solution kept is the one from the
//! earliest path, so the moves do not depend on the thread count.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use super::budget::{Budget, GaveUp, SearchStatus, StopReason, Stopwatch};
use crate::board::{Board, Move};
use crate::pdb::{NO_PATTERN, PatternDatabase};
use crate::solution::{Algorithm, Solution};

/// Nodes between two looks at the budget: a fraction of a millisecond.
const CHECK_EVERY: u64 = 1 << 12;
/// Nodes between two looks, in a parallel search, at whether an earlier path has a solution.
const ABANDON_CHECK_EVERY: u64 = 1 << 7;
/// No neighbour in that direction.
const NONE: u8 = u8::MAX;

/// The heuristic IDA* runs with.
#[derive(Clone, Copy, Debug)]
pub enum Heuristic<'a> {
    /// Additive pattern databases; reflected lookups too on square boards.
    Pdb(&'a PatternDatabase),
    /// Manhattan plus linear conflict, for shapes without databases.
    ManhattanLinearConflict,
}

/// How IDA* runs.
#[derive(Clone, Copy, Debug)]
pub struct IdaOptions<'a> {
    /// The heuristic.
    pub heuristic: Heuristic<'a>,
    /// Threads: 1 searches on this thread alone; `None` uses rayon's global pool.
    pub threads: Option<usize>,
    /// Whether to also look the pattern tables up on the reflected board (square boards).
    pub reflect: bool,
}

impl<'a> IdaOptions<'a> {
    /// Pattern databases when there are (else Manhattan + linear conflict), with reflected
    /// lookups, on `threads`.
    pub fn with_tables(db: Option<&'a PatternDatabase>, threads: Option<usize>) -> IdaOptions<'a> {
        IdaOptions {
            heuristic: match db {
                Some(db) => Heuristic::Pdb(db),
                None => Heuristic::ManhattanLinearConflict,
            },
            threads,
            reflect: true,
        }
    }
}

/// A finished search: the solution and the counts around it.
#[derive(Clone, Debug, PartialEq)]
pub struct IdaResult {
    /// The optimal solution.
    pub solution: Solution,
    /// Nodes generated (every node visited, including those cut off by the bound).
    pub nodes_generated: u64,
    /// Bounds tried.
    pub iterations: u32,
}

/// Solves `board` optimally with IDA* and the chosen heuristic, within the budget.
///
/// # Errors
///
/// [`GaveUp`] when the budget runs out or the search is cancelled.
pub fn idastar(board: &Board, options: &IdaOptions, budget: &Budget) -> Result<IdaResult, GaveUp> {
    match idastar_within(board, options, budget, 0, u32::MAX)? {
        Some(found) => Ok(found),
        // Nothing left to search with no bound: only an unsolvable board does this.
        None => Err(GaveUp::stopped(StopReason::NodeLimit)),
    }
}

/// IDA* with its bounds kept within `first..=last`: the first iteration searches to `first`
/// (or the heuristic, if higher), and the search ends with `Ok(None)` when the next bound
/// would pass `last`. A solution found is the first in U, D, L, R order among those of its
/// length, and the shortest when no solution is shorter than `first` (so `first` must be a
/// lower bound: 0 is always one).
///
/// # Errors
///
/// [`GaveUp`] when the budget runs out or the search is cancelled.
pub fn idastar_within(
    board: &Board,
    options: &IdaOptions,
    budget: &Budget,
    first: u32,
    last: u32,
) -> Result<Option<IdaResult>, GaveUp> {
    let clock = Stopwatch::start();
    let threads = match options.threads {
        Some(n) => n.max(1),
        None => rayon::current_num_threads(),
    };
    let shared = Shared {
        budget,
        nodes: AtomicU64::new(0),
        expanded: AtomicU64::new(0),
        threads: threads as u64,
        stop: AtomicBool::new(false),
        reason: Mutex::new(None),
        found_at: AtomicUsize::new(usize::MAX),
    };
    let mut root = State::new(board, options);
    let h0 = root.h();
    let gave_up = |reason: StopReason, expanded: u64, bound: u32, searcher: &State| GaveUp {
        reason,
        nodes_expanded: expanded,
        seconds: clock.seconds(),
        memory: searcher.memory(),
        lower_bound: bound as usize,
    };
    // Paths of FRONTIER moves are distinct states (the shortest cycle has 12 moves), and no
    // solution is shorter than the root's heuristic, so splitting there loses nothing.
    const FRONTIER: usize = 5;
    let parallel = threads > 1 && h0 as usize > FRONTIER;
    if h0 as usize > FRONTIER {
        root.bpmx_from = FRONTIER as u32;
    }
    let frontier = if parallel {
        root.paths(FRONTIER)
    } else {
        Vec::new()
    };
    // A pool of the right size when the caller's is not (one made per search costs a little).
    let pool = if parallel && options.threads.is_some() && rayon::current_num_threads() != threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()
    } else {
        None
    };
    let mut bound = h0.max(first);
    if bound > last {
        return Ok(None);
    }
    let mut iterations = 0u32;
    let mut expanded_total = 0u64;
    loop {
        iterations += 1;
        let outcome = if parallel {
            let run = || parallel_iteration(&root, &frontier, bound, &shared);
            match &pool {
                Some(pool) => pool.install(run),
                None => run(),
            }
        } else {
            let mut searcher = root.clone();
            let step = searcher.search(0, bound, NONE, h0, usize::MAX, &shared);
            shared.flush(&mut searcher);
            Iteration {
                moves: matches!(step, Step::Found).then(|| searcher.path.clone()),
                next_bound: searcher.next_bound,
                stop: match step {
                    Step::Stop(reason) => Some(reason),
                    _ => None,
                },
                expanded: searcher.expanded,
            }
        };
        expanded_total += outcome.expanded;
        let generated = shared.nodes.load(Ordering::Relaxed);
        if let Some(reason) = outcome.stop {
            let reason = shared.reason_or(reason);
            return Err(gave_up(
                reason,
                shared.expanded.load(Ordering::Relaxed),
                bound,
                &root,
            ));
        }
        if let Some(path) = outcome.moves {
            let moves: Vec<Move> = path.iter().map(|&m| Move::ALL[m as usize]).collect();
            let length = moves.len();
            return Ok(Some(IdaResult {
                solution: Solution {
                    moves,
                    algorithm: Algorithm::IdaStar,
                    optimal: true,
                    nodes_expanded: expanded_total,
                    seconds: clock.seconds(),
                    lower_bound: length,
                },
                nodes_generated: generated,
                iterations,
            }));
        }
        if outcome.next_bound > last {
            // Past the last bound, or nothing left to search (an unsolvable board).
            return Ok(None);
        }
        bound = outcome.next_bound;
        budget.report(&SearchStatus {
            nodes_expanded: expanded_total,
            seconds: clock.seconds(),
            lower_bound: bound as usize,
            best: None,
        });
    }
}

/// What one bound's search came to.
struct Iteration {
    moves: Option<Vec<u8>>,
    next_bound: u32,
    stop: Option<StopReason>,
    expanded: u64,
}

/// One iteration over the frontier paths, in parallel; the earliest path's solution wins.
fn parallel_iteration(
    root: &State,
    frontier: &[Vec<u8>],
    bound: u32,
    shared: &Shared,
) -> Iteration {
    shared.found_at.store(usize::MAX, Ordering::Relaxed);
    let results: Vec<(usize, Iteration)> = frontier
        .par_iter()
        .enumerate()
        .map(|(index, path)| {
            let mut searcher = root.clone();
            if shared.found_at.load(Ordering::Relaxed) < index
                || shared.stop.load(Ordering::Relaxed)
            {
                return (index, searcher.into_iteration(None, None));
            }
            // The path's nodes are cut off by the bound as one thread would cut them off (the
            // heuristic need not be consistent).
            for (depth, &m) in path.iter().enumerate() {
                searcher.play(m);
                let f = depth as u32 + 1 + searcher.h();
                if f > bound {
                    searcher.next_bound = f;
                    return (index, searcher.into_iteration(None, None));
                }
            }
            let h = searcher.h();
            let last = *path.last().unwrap_or(&NONE);
            let step = searcher.search(path.len() as u32, bound, last, h, index, shared);
            shared.flush(&mut searcher);
            match step {
                Step::Found => {
                    shared.found_at.fetch_min(index, Ordering::Relaxed);
                    let moves = searcher.path.clone();
                    (index, searcher.into_iteration(Some(moves), None))
                }
                Step::Stop(reason) => {
                    shared.halt(reason);
                    (index, searcher.into_iteration(None, Some(reason)))
                }
                Step::NotFound | Step::Abandoned => (index, searcher.into_iteration(None, None)),
            }
        })
        .collect();
    let mut iteration = Iteration {
        moves: None,
        next_bound: u32::MAX,
        stop: None,
        expanded: 0,
    };
    for (_, result) in results {
        iteration.expanded += result.expanded;
        iteration.next_bound = iteration.next_bound.min(result.next_bound);
        if iteration.moves.is_none() && result.moves.is_some() {
            // Results come back in frontier order, so the first is the earliest path.
            iteration.moves = result.moves;
        }
        if iteration.stop.is_none() {
            iteration.stop = result.stop;
        }
    }
    if iteration.moves.is_some() {
        // A stop that came after the earliest solution was found does not matter.
        iteration.stop = None;
    }
    iteration
}

/// What the threads of one search share.
struct Shared<'a> {
    budget: &'a Budget,
    /// Nodes generated by all threads (flushed every few thousand).
    nodes: AtomicU64,
    /// Nodes expanded by all threads (flushed at the same time): what the budget counts.
    expanded: AtomicU64,
    /// Threads searching at once.
    threads: u64,
    /// Set when any thread must stop.
    stop: AtomicBool,
    /// Why the first thread to stop stopped.
    reason: Mutex<Option<StopReason>>,
    /// The earliest frontier path with a solution in this iteration.
    found_at: AtomicUsize,
}

impl Shared<'_> {
    /// Stops every thread, remembering the first reason.
    fn halt(&self, reason: StopReason) {
        let mut first = self.reason.lock().unwrap_or_else(|p| p.into_inner());
        first.get_or_insert(reason);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The reason given to [`Shared::halt`] first, else `fallback`.
    fn reason_or(&self, fallback: StopReason) -> StopReason {
        self.reason
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .unwrap_or(fallback)
    }

    fn flush(&self, searcher: &mut State) {
        self.nodes.fetch_add(searcher.unflushed, Ordering::Relaxed);
        searcher.unflushed = 0;
        let expanded = self
            .expanded
            .fetch_add(searcher.expanded_unflushed, Ordering::Relaxed)
            + searcher.expanded_unflushed;
        searcher.expanded_unflushed = 0;
        // Look again after a few thousand nodes, or sooner when the node cap is near, so that
        // the cap is met exactly on one thread and nearly on several.
        searcher.check_in = match self.budget.max_nodes {
            Some(max) => (max.saturating_sub(expanded) / self.threads).clamp(1, CHECK_EVERY),
            None => CHECK_EVERY,
        };
    }
}

/// How a subtree's search ended.
enum Step {
    Found,
    NotFound,
    /// An earlier path already holds a solution.
    Abandoned,
    Stop(StopReason),
}

/// What undoes a move: the heuristic terms it replaced.
#[derive(Clone, Copy)]
struct Undo {
    manhattan: u32,
    excess: u8,
    reflected_excess: u8,
    removals: u32,
}

/// The pattern database part of the state.
#[derive(Clone)]
struct PdbState<'a> {
    db: &'a PatternDatabase,
    /// Each tile's cell.
    position: Vec<u8>,
    /// Each reflected tile's cell on the reflected board.
    reflected: Vec<u8>,
    /// Each pattern's current half-excess, and the reflected ones.
    excess: Vec<u8>,
    reflected_excess: Vec<u8>,
    sum: u32,
    reflected_sum: u32,
    reflect: bool,
    /// Reflected tile of each tile, reflected cell of each cell.
    reflect_tile: Vec<u8>,
    reflect_cell: Vec<u8>,
}

impl PdbState<'_> {
    #[inline(always)]
    fn lookup(db: &PatternDatabase, pattern: usize, position: &[u8]) -> u8 {
        let table = &db.tables()[pattern];
        let mut cells = [0u8; 32];
        let tiles = table.tiles();
        for (slot, &tile) in tiles.iter().enumerate() {
            cells[slot] = position[tile as usize];
        }
        table.excess_at(&cells[..tiles.len()])
    }

    /// The excess term: twice the larger sum.
    #[inline]
    fn extra(&self) -> u32 {
        2 * self.sum.max(self.reflected_sum)
    }
}

/// A search's state: tiles, blank, heuristic terms, the path, and its counters.
#[derive(Clone)]
struct State<'a> {
    cells: usize,
    tiles: Vec<u8>,
    blank: usize,
    /// The neighbour of each cell in each direction (U, D, L, R), or `NONE`.
    neighbours: Vec<[u8; 4]>,
    /// Manhattan distance of tile `t` on cell `c`: `distance[t * cells + c]`.
    distance: Vec<u8>,
    manhattan: u32,
    width: usize,
    height: usize,
    pdb: Option<PdbState<'a>>,
    /// Linear conflict removals per row and per column (fallback heuristic only).
    row_removals: Vec<u8>,
    column_removals: Vec<u8>,
    removals: u32,
    path: Vec<u8>,
    /// The depth from which BPMX may lift a parent: the parallel frontier, so that one thread
    /// and several search the same tree.
    bpmx_from: u32,
    next_bound: u32,
    expanded: u64,
    unflushed: u64,
    /// Expanded since the last flush.
    expanded_unflushed: u64,
    /// Expansions until the next look at the budget.
    check_in: u64,
}

impl<'a> State<'a> {
    fn new(board: &Board, options: &IdaOptions<'a>) -> State<'a> {
        let shape = board.shape();
        let cells = shape.cells();
        let neighbours = (0..cells)
            .map(|cell| {
                let mut n = [NONE; 4];
                for mv in Move::ALL {
                    if let Some(to) = shape.step(cell, mv) {
                        n[mv.index()] = to as u8;
                    }
                }
                n
            })
            .collect();
        let mut distance = vec![0u8; cells * cells];
        for tile in 1..cells {
            for cell in 0..cells {
                distance[tile * cells + cell] =
                    shape.distance(cell, shape.goal_cell(tile as u8)).min(255) as u8;
            }
        }
        let tiles = board.tiles().to_vec();
        let manhattan = tiles
            .iter()
            .enumerate()
            .map(|(cell, &t)| distance[t as usize * cells + cell] as u32)
            .sum();
        let pdb = match options.heuristic {
            Heuristic::Pdb(db) if db.shape() == shape => {
                let (position, reflected) = db.positions(board);
                let reflect = options.reflect && reflected.is_some();
                let reflected = reflected.unwrap_or_else(|| position.clone());
                let patterns = db.tables().len();
                let excess: Vec<u8> = (0..patterns)
                    .map(|p| PdbState::lookup(db, p, &position))
                    .collect();
                let reflected_excess: Vec<u8> = if reflect {
                    (0..patterns)
                        .map(|p| PdbState::lookup(db, p, &reflected))
                        .collect()
                } else {
                    vec![0; patterns]
                };
                let reflect_tile = (0..cells as u8)
                    .map(|t| db.reflect_tile(t).unwrap_or(t))
                    .collect();
                let reflect_cell = db
                    .reflect_cell()
                    .map(<[u8]>::to_vec)
                    .unwrap_or_else(|| (0..cells as u8).collect());
                Some(PdbState {
                    db,
                    sum: excess.iter().map(|&e| e as u32).sum(),
                    reflected_sum: reflected_excess.iter().map(|&e| e as u32).sum(),
                    position,
                    reflected,
                    excess,
                    reflected_excess,
                    reflect,
                    reflect_tile,
                    reflect_cell,
                })
            }
            _ => None,
        };
        let mut state = State {
            cells,
            tiles,
            blank: board.blank(),
            neighbours,
            distance,
            manhattan,
            width: shape.width,
            height: shape.height,
            pdb,
            row_removals: Vec::new(),
            column_removals: Vec::new(),
            removals: 0,
            path: Vec::new(),
            bpmx_from: 0,
            next_bound: u32::MAX,
            expanded: 0,
            unflushed: 0,
            expanded_unflushed: 0,
            check_in: 1,
        };
        if state.pdb.is_none() {
            state.row_removals = (0..state.height).map(|r| state.row_conflicts(r)).collect();
            state.column_removals = (0..state.width)
                .map(|c| state.column_conflicts(c))
                .collect();
            state.removals = state
                .row_removals
                .iter()
                .chain(&state.column_removals)
                .map(|&r| r as u32)
                .sum();
        }
        state
    }

    /// Bytes the state holds: a rough figure for the budget.
    fn memory(&self) -> usize {
        self.tiles.len() * 4 + self.neighbours.len() * 4 + self.distance.len() + self.path.len()
    }

    /// The heuristic value now.
    #[inline]
    fn h(&self) -> u32 {
        match &self.pdb {
            Some(pdb) => self.manhattan + pdb.extra(),
            None => self.manhattan + 2 * self.removals,
        }
    }

    /// The fewest tiles that must leave a line for the rest of its own tiles to stand in goal
    /// order: its own tiles less the longest increasing run of their goal places.
    fn line_removals(goals: &[usize]) -> u8 {
        let mut best = vec![1usize; goals.len()];
        for i in 0..goals.len() {
            for j in 0..i {
                if goals[j] < goals[i] {
                    best[i] = best[i].max(best[j] + 1);
                }
            }
        }
        (goals.len() - best.iter().copied().max().unwrap_or(0)) as u8
    }

    fn row_conflicts(&self, row: usize) -> u8 {
        let goals: Vec<usize> = (0..self.width)
            .map(|c| self.tiles[row * self.width + c])
            .filter(|&t| t != 0 && (t as usize - 1) / self.width == row)
            .map(|t| (t as usize - 1) % self.width)
            .collect();
        State::line_removals(&goals)
    }

    fn column_conflicts(&self, column: usize) -> u8 {
        let goals: Vec<usize> = (0..self.height)
            .map(|r| self.tiles[r * self.width + column])
            .filter(|&t| t != 0 && (t as usize - 1) % self.width == column)
            .map(|t| (t as usize - 1) / self.width)
            .collect();
        State::line_removals(&goals)
    }

    /// Moves the blank in direction `m` and updates the heuristic terms; returns what undoes it.
    #[inline(always)]
    fn play(&mut self, m: u8) -> Undo {
        let from = self.blank;
        let to = self.neighbours[from][m as usize] as usize;
        let tile = self.tiles[to];
        self.tiles[from] = tile;
        self.tiles[to] = 0;
        self.blank = to;
        let base = tile as usize * self.cells;
        let undo = Undo {
            manhattan: self.manhattan,
            excess: 0,
            reflected_excess: 0,
            removals: self.removals,
        };
        self.manhattan =
            self.manhattan + self.distance[base + from] as u32 - self.distance[base + to] as u32;
        let mut undo = undo;
        if let Some(pdb) = &mut self.pdb {
            pdb.position[tile as usize] = from as u8;
            // A tile in no pattern (a partial partition) changes no table.
            let pattern = pdb.db.pattern_of()[tile as usize] as usize;
            if pattern != usize::from(NO_PATTERN) {
                let e = PdbState::lookup(pdb.db, pattern, &pdb.position);
                undo.excess = pdb.excess[pattern];
                pdb.sum = pdb.sum + e as u32 - pdb.excess[pattern] as u32;
                pdb.excess[pattern] = e;
            }
            let rt = pdb.reflect_tile[tile as usize] as usize;
            let pattern = pdb.db.pattern_of()[rt] as usize;
            if pdb.reflect {
                pdb.reflected[rt] = pdb.reflect_cell[from];
            }
            if pdb.reflect && pattern != usize::from(NO_PATTERN) {
                let e = PdbState::lookup(pdb.db, pattern, &pdb.reflected);
                undo.reflected_excess = pdb.reflected_excess[pattern];
                pdb.reflected_sum =
                    pdb.reflected_sum + e as u32 - pdb.reflected_excess[pattern] as u32;
                pdb.reflected_excess[pattern] = e;
            }
        } else {
            self.update_conflicts(m, from, to);
        }
        self.path.push(m);
        undo
    }

    /// Undoes the last move, given what [`State::play`] returned for it.
    #[inline(always)]
    fn unplay(&mut self, undo: Undo) {
        let Some(m) = self.path.pop() else {
            return;
        };
        let to = self.blank;
        let from = self.neighbours[to][(m ^ 1) as usize] as usize;
        let tile = self.tiles[from];
        self.tiles[to] = tile;
        self.tiles[from] = 0;
        self.blank = from;
        self.manhattan = undo.manhattan;
        if let Some(pdb) = &mut self.pdb {
            pdb.position[tile as usize] = to as u8;
            let pattern = pdb.db.pattern_of()[tile as usize] as usize;
            if pattern != usize::from(NO_PATTERN) {
                pdb.sum = pdb.sum + undo.excess as u32 - pdb.excess[pattern] as u32;
                pdb.excess[pattern] = undo.excess;
            }
            let rt = pdb.reflect_tile[tile as usize] as usize;
            let pattern = pdb.db.pattern_of()[rt] as usize;
            if pdb.reflect {
                pdb.reflected[rt] = pdb.reflect_cell[to];
            }
            if pdb.reflect && pattern != usize::from(NO_PATTERN) {
                pdb.reflected_sum = pdb.reflected_sum + undo.reflected_excess as u32
                    - pdb.reflected_excess[pattern] as u32;
                pdb.reflected_excess[pattern] = undo.reflected_excess;
            }
        } else {
            self.removals = undo.removals;
            let vertical = m < 2;
            for cell in [from, to] {
                if vertical {
                    let r = cell / self.width;
                    self.row_removals[r] = self.row_conflicts(r);
                } else {
                    let c = cell % self.width;
                    self.column_removals[c] = self.column_conflicts(c);
                }
            }
        }
    }

    /// After a move, recounts the two lines the tile left and entered.
    fn update_conflicts(&mut self, m: u8, from: usize, to: usize) {
        let vertical = m < 2;
        let (a, b) = if vertical {
            (from / self.width, to / self.width)
        } else {
            (from % self.width, to % self.width)
        };
        for line in [a, b] {
            let (old, new) = if vertical {
                (self.row_removals[line], self.row_conflicts(line))
            } else {
                (self.column_removals[line], self.column_conflicts(line))
            };
            self.removals = self.removals + new as u32 - old as u32;
            if vertical {
                self.row_removals[line] = new;
            } else {
                self.column_removals[line] = new;
            }
        }
    }

    /// Every path of `depth` moves from here that never undoes its last move, in search order.
    fn paths(&self, depth: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut state = self.clone();
        state.collect_paths(depth, NONE, &mut out);
        out
    }

    fn collect_paths(&mut self, depth: usize, last: u8, out: &mut Vec<Vec<u8>>) {
        if self.path.len() == depth {
            out.push(self.path.clone());
            return;
        }
        for m in 0..4u8 {
            if last != NONE && m == (last ^ 1) {
                continue;
            }
            if self.neighbours[self.blank][m as usize] == NONE {
                continue;
            }
            let undo = self.play(m);
            self.collect_paths(depth, m, out);
            self.unplay(undo);
        }
    }

    /// Depth-first search below the current node, at depth `g` with heuristic `h`.
    ///
    /// Uses the CPU's population count instruction where it has one: the ranks of pattern
    /// placements count bits at every node.
    fn search(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Step {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has popcnt, as just checked.
            return unsafe { self.dfs_popcnt(g, bound, last, h, index, shared) };
        }
        self.dfs_plain(g, bound, last, h, index, shared)
    }

    /// [`State::dfs`] compiled with the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn dfs_popcnt(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Step {
        self.dfs::<true>(g, bound, last, h, index, shared)
    }

    /// The search below a node; `POPCNT` is true only when called from
    /// [`State::dfs_popcnt`], whose recursion it then keeps to.
    #[inline(always)]
    fn dfs<const POPCNT: bool>(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        mut h: u32,
        index: usize,
        shared: &Shared,
    ) -> Step {
        self.unflushed += 1;
        let f = g + h;
        if f > bound {
            self.next_bound = self.next_bound.min(f);
            return Step::NotFound;
        }
        if h == 0 {
            return Step::Found;
        }
        self.expanded += 1;
        self.expanded_unflushed += 1;
        if self.expanded_unflushed >= self.check_in {
            shared.flush(self);
            if shared.stop.load(Ordering::Relaxed) {
                return Step::Stop(StopReason::Cancelled);
            }
            if shared.found_at.load(Ordering::Relaxed) < index {
                return Step::Abandoned;
            }
            let nodes = shared.expanded.load(Ordering::Relaxed);
            if let Err(reason) = shared.budget.check(nodes, self.memory()) {
                shared.halt(reason);
                return Step::Stop(reason);
            }
        } else if index != usize::MAX
            && self.expanded_unflushed.is_multiple_of(ABANDON_CHECK_EVERY)
            && shared.found_at.load(Ordering::Relaxed) < index
        {
            // An earlier path holds a solution: the rest of this one is wasted work, so stop
            // sooner than the budget's checks come.
            return Step::Abandoned;
        }
        let neighbours = self.neighbours[self.blank];
        for m in 0..4u8 {
            // Moves are U, D, L, R: each one's inverse is its index with the low bit flipped.
            if neighbours[m as usize] == NONE || (last != NONE && m == (last ^ 1)) {
                continue;
            }
            let undo = self.play(m);
            let child_h = self.h();
            // BPMX: a child far above its parent lifts the parent (moves cost one, both ways).
            // Tables that take the least cost over the blank's places are not consistent, so
            // this happens, and it cuts the rest of the parent's children.
            if child_h > h + 1 && g >= self.bpmx_from {
                h = child_h - 1;
                if g + h > bound {
                    self.unplay(undo);
                    self.next_bound = self.next_bound.min(g + h);
                    return Step::NotFound;
                }
            }
            let step = self.descend::<POPCNT>(g + 1, bound, m, child_h, index, shared);
            match step {
                Step::NotFound => {}
                other => return other,
            }
            self.unplay(undo);
        }
        Step::NotFound
    }

    /// One level down, keeping to the popcnt build when in it.
    #[inline(always)]
    fn descend<const POPCNT: bool>(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Step {
        #[cfg(target_arch = "x86_64")]
        if POPCNT {
            // SAFETY: POPCNT is true only below `search`'s check that the CPU has popcnt.
            return unsafe { self.dfs_popcnt(g, bound, last, h, index, shared) };
        }
        self.dfs_plain(g, bound, last, h, index, shared)
    }

    /// [`State::dfs`] without popcnt, as a function of its own for the recursion.
    fn dfs_plain(
        &mut self,
        g: u32,
        bound: u32,
        last: u8,
        h: u32,
        index: usize,
        shared: &Shared,
    ) -> Step {
        self.dfs::<false>(g, bound, last, h, index, shared)
    }

    fn into_iteration(self, moves: Option<Vec<u8>>, stop: Option<StopReason>) -> Iteration {
        Iteration {
            moves,
            next_bound: self.next_bound,
            stop,
            expanded: self.expanded,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::{Partition, cache::build};

    /// After any walk, with a partition that leaves tiles out, the incremental terms equal the
    /// terms computed afresh, and undo restores them.
    #[test]
    fn incremental_terms_match_fresh_ones() {
        let shape = crate::board::Shape::new(4, 4).unwrap();
        let patterns = vec![vec![1, 2, 5], vec![3, 4, 8], vec![9, 13, 14]];
        let partition = Partition::new(shape, "t", patterns).unwrap();
        let db = build(&partition, &Budget::default()).unwrap();
        let options = IdaOptions {
            heuristic: Heuristic::Pdb(&db),
            threads: Some(1),
            reflect: true,
        };
        let mut state = State::new(&Board::goal_of(shape), &options);
        let mut undos = Vec::new();
        let mut seed = 12345u64;
        for step in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = (seed >> 33) as u8 % 4;
            if state.neighbours[state.blank][m as usize] == NONE {
                continue;
            }
            if step % 7 == 6 {
                if let Some(undo) = undos.pop() {
                    state.unplay(undo);
                }
            } else {
                undos.push(state.play(m));
            }
            let board = Board::new(4, 4, state.tiles.clone()).unwrap();
            let fresh = State::new(&board, &options);
            let (a, b) = (state.pdb.as_ref().unwrap(), fresh.pdb.as_ref().unwrap());
            assert_eq!(state.manhattan, fresh.manhattan, "step {step}");
            assert_eq!(a.excess, b.excess, "step {step}");
            assert_eq!(a.reflected_excess, b.reflected_excess, "step {step}");
            assert_eq!(
                (a.sum, a.reflected_sum),
                (b.sum, b.reflected_sum),
                "step {step}"
            );
            assert_eq!(state.h(), fresh.h(), "step {step}");
        }
    }
}
