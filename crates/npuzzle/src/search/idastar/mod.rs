//! IDA*: iterative-deepening A* over a compact state, with incremental heuristics.
//!
//! The state is the tiles by cell, the blank's cell, and each tile's cell (and the same for the
//! board reflected about the main diagonal), all in fixed byte arrays that a move updates and
//! its undo restores; nothing is allocated per node. Each move changes one tile, so the
//! heuristic is updated from that tile alone: its Manhattan term, and the one pattern table
//! (and one reflected table) that holds it, or the one line of linear conflicts. The estimate
//! is the one IDA*, weighted A* and the wide beams keep ([`crate::estimate::kept::Kept`]), a
//! few bytes: the child's is made from the parent's by value, and the parent's put back on the
//! way up. The move back to the parent is never made. Each iteration's bound is the smallest f
//! that exceeded the last one, so the first solution found is optimal.
//!
//! Pattern databases that keep the least cost over the blank's places are admissible but not
//! consistent: a child's value can exceed its parent's by more than one. The search then lifts
//! the parent to the child's value less one (BPMX, one level) and cuts the parent off when that
//! passes the bound.
//!
//! With more than one thread, the paths of a few moves from the root are searched in parallel
//! (`parallel`), so that the moves do not depend on the thread count.
//!
//! The same search runs between any two boards (`between`): plain Manhattan distance toward
//! the second board (one `Toward` a pass, aimed at each window's end), a node cap, the cells'
//! neighbours made once a shape; the large solver's windowed re-solves are its many short
//! searches.
//!
//! Optimal solving in the multi-tile metric ([`crate::mtm`]) is this IDA* too: the same
//! iterations (`deepen`), the same looks at the budget and counts (`shared`), with its own
//! depth-first search of one bound over multi-tile moves and its tables.
//!
//! The jobs: this module drives the iterations; `parallel` splits one over threads; `depth_first`
//! is the depth-first search of one bound, with the estimate (the one kept estimate of
//! [`crate::estimate::kept`]) beside the board; `between` is the search between two boards;
//! `shared` is what the threads share.

pub(crate) mod between;
mod depth_first;
mod parallel;
pub(crate) mod shared;

use super::budget::{Budget, GaveUp, SearchStatus, StopReason, Stopwatch};
use crate::board::{Board, Move};
use crate::estimate::kept::{CONFLICTS, FEW_PATTERNS, MOST_PATTERNS};
use crate::estimate::pdb::PdbLookup;
use crate::estimate::toward::Toward;
use crate::pdb::PatternDatabase;
use crate::solution::{Algorithm, Ended, Solution};

use depth_first::{DepthFirst, neighbours};
use parallel::Split;
use shared::{Shared, Subtree};

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
    let shape = board.shape();
    let toward = Toward::goal(shape);
    let tables = match options.heuristic {
        Heuristic::Pdb(db) if db.shape() == shape => Some(PdbLookup::new(db, options.reflect)),
        _ => None,
    };
    let within = Within {
        board,
        options,
        budget,
        bounds: (first, last),
        toward: &toward,
        tables: tables.as_ref(),
    };
    // Room in the estimate for the tables' patterns: four at most in every standard partition.
    match tables.as_ref().map(PdbLookup::patterns) {
        None => within.search::<0>(),
        Some(patterns) if patterns <= FEW_PATTERNS => within.search::<FEW_PATTERNS>(),
        Some(_) => within.search::<MOST_PATTERNS>(),
    }
}

/// One call of [`idastar_within`]: its arguments, and the estimate's target and tables.
struct Within<'a> {
    board: &'a Board,
    options: &'a IdaOptions<'a>,
    budget: &'a Budget,
    /// The first bound and the last.
    bounds: (u32, u32),
    toward: &'a Toward,
    tables: Option<&'a PdbLookup<'a>>,
}

impl Within<'_> {
    /// The search, with room in the estimate for `P` patterns' excesses.
    fn search<const P: usize>(&self) -> Result<Option<IdaResult>, GaveUp> {
        let Within {
            board,
            options,
            budget,
            ..
        } = *self;
        let (first, last) = self.bounds;
        let clock = Stopwatch::start();
        let threads = options
            .threads
            .map_or_else(rayon::current_num_threads, |n| n.max(1));
        let shared = Shared::new(budget, threads);
        let neighbours = neighbours(board.shape());
        let (tiles, blank) = (board.tiles(), board.blank());
        let mut root: DepthFirst<P> = DepthFirst::new(
            tiles,
            blank,
            &neighbours,
            self.toward,
            self.tables,
            CONFLICTS,
            0,
        );
        let memory = root.memory();
        let split = Split::plan(&mut root, threads, options.threads.is_some());
        let report = |bound: u32, expanded: u64| {
            budget.report(&SearchStatus {
                nodes_expanded: expanded,
                seconds: clock.seconds(),
                lower_bound: bound as usize,
                best: None,
            });
        };
        let h = root.h();
        let iterate = |bound| split.iterate(&mut root, bound, &shared);
        match deepen(h, first, last, iterate, report) {
            Deepened::Found {
                path,
                iterations,
                expanded,
                ..
            } => {
                let moves: Vec<Move> = path.iter().map(|&m| Move::ALL[m as usize]).collect();
                let solution = Solution {
                    lower_bound: moves.len(),
                    moves,
                    algorithm: Algorithm::IdaStar,
                    optimal: true,
                    nodes_expanded: expanded,
                    seconds: clock.seconds(),
                    ended: Ended::RanItsCourse,
                };
                Ok(Some(IdaResult {
                    solution,
                    nodes_generated: shared.generated(),
                    iterations,
                }))
            }
            Deepened::Exhausted => Ok(None),
            Deepened::Stopped { reason, bound } => Err(GaveUp {
                reason: shared.reason_or(reason),
                nodes_expanded: shared.expanded(),
                seconds: clock.seconds(),
                memory,
                lower_bound: bound as usize,
            }),
        }
    }
}

/// How the iterations of one search ended.
pub(crate) enum Deepened {
    /// A path to the goal, as indices into [`Move::ALL`], found in the `iterations`-th bound,
    /// `bound`, after `expanded` nodes in all.
    Found {
        path: Vec<u8>,
        bound: u32,
        iterations: u32,
        expanded: u64,
    },
    /// No bound within the last has a path, or nothing is left to search.
    Exhausted,
    /// The budget (or another thread) stopped the search at `bound`.
    Stopped { reason: StopReason, bound: u32 },
}

/// The iterations of IDA*, whatever its moves and their costs: `iterate(bound)` is one
/// bound's depth-first search from the root (single-tile moves in [`depth_first`], split over
/// threads by [`parallel`]; multi-tile moves in [`crate::mtm`]). The first bound is the root's
/// estimate `root_h` or `first` if higher, each next one the smallest f that exceeded the
/// last, until a path is found or the next bound would pass `last`. `on_bound(bound,
/// expanded)` hears of each next bound searched, with the nodes expanded so far.
pub(crate) fn deepen(
    root_h: u32,
    first: u32,
    last: u32,
    mut iterate: impl FnMut(u32) -> Iteration,
    mut on_bound: impl FnMut(u32, u64),
) -> Deepened {
    let mut bound = root_h.max(first);
    let (mut iterations, mut expanded) = (0u32, 0u64);
    while bound <= last {
        iterations += 1;
        let outcome = iterate(bound);
        expanded += outcome.expanded;
        if let Some(reason) = outcome.stop {
            return Deepened::Stopped { reason, bound };
        }
        if let Some(path) = outcome.moves {
            return Deepened::Found {
                path,
                bound,
                iterations,
                expanded,
            };
        }
        // Past `last` ends the loop, as does nothing left to search (an unsolvable board).
        bound = outcome.next_bound;
        if bound <= last {
            on_bound(bound, expanded);
        }
    }
    Deepened::Exhausted
}

/// What one bound's search came to.
pub(crate) struct Iteration {
    moves: Option<Vec<u8>>,
    next_bound: u32,
    stop: Option<StopReason>,
    expanded: u64,
}

impl Iteration {
    /// The end of one bound's search that ended as `subtree` says, having expanded `expanded`
    /// nodes and seen `next_bound` as the least f past the bound: the path from the root
    /// (taken) when it found the goal.
    pub(crate) fn ended(
        subtree: Subtree,
        path: &mut Vec<u8>,
        next_bound: u32,
        expanded: u64,
    ) -> Iteration {
        let found = matches!(subtree, Subtree::Found);
        Iteration {
            moves: found.then(|| std::mem::take(path)),
            next_bound,
            stop: match subtree {
                Subtree::Stop(reason) => Some(reason),
                _ => None,
            },
            expanded,
        }
    }
}
