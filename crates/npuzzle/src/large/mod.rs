//! Large boards: a constructive solver that answers in milliseconds for any board up to 16×16,
//! shortening of its moves, and anytime improvement within a deadline.
//!
//! The improvement (its schedule in `schedule`; the best solution it shares in `best`):
//! - up to 25 cells (5×5), short windows re-solved optimally (`shorten`), wide beams to the
//!   goal and back from it (`wide`: the beam, its rank, the pairs both ways and the widening
//!   to the deadline), long windows of the best re-solved by beams aimed at each window's last
//!   board (`long_windows`), then weighted A* with falling weights (`weighted`);
//! - up to 49 cells (7×7), the wide beams, then the long windows and the short ones; any time
//!   left goes to what larger boards run;
//! - up to 64 cells with no side under 5 (8×8, 7×8, 5×12), the presorted constructions and
//!   their windows as on larger boards, then the wide beams and long windows as on 7×7, then
//!   the rest of the larger boards' round;
//! - on larger boards, beam searches presort the board (`presort`), the best-of construction
//!   finishes from where each stalls, and the shortest is kept; its end is re-solved the same
//!   way from where only a smaller region is left (`regions`), then windows of it and its last
//!   5×5 are re-solved (optimally, or by weighted A* on the 5×5 pattern databases when the
//!   caller has them); the wide beams take any time left.
//!
//! The solvers read nothing from the environment: the pattern databases they may use come in
//! [`Tables`], which the caller loads.
//!
//! ```
//! use npuzzle::{Board, Budget, random::random_solvable, large::solve_fast};
//!
//! let board = random_solvable(npuzzle::Shape::new(8, 8).unwrap(), 1);
//! let solution = solve_fast(&board, &Budget::default()).unwrap();
//! assert!(solution.solves(&board));
//! assert!(solution.lower_bound <= solution.len());
//! ```

mod beam;
mod best;
mod construct;
mod long_windows;
mod presort;
mod regions;
mod schedule;
mod shorten;
mod stage;
mod weighted;
mod wide;

pub use shorten::cancel_inverse_pairs;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::{Board, Move, Shape};
use crate::estimate::linear_conflict;
use crate::pdb::cache::{best_cached, best_cached_within};
use crate::pdb::{PatternDatabase, PdbError};
use crate::search::budget::{Budget, GaveUp, SearchStatus, StopReason, Stopwatch};
use crate::solution::{Algorithm, Ended, Solution};
use crate::solvability::Solvability;

use best::Best;
use construct::{Config, construct};
use schedule::run_on_rungs;
use shorten::Shortener;

/// Why a large-board solver returned no solution.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LargeError {
    /// The goal cannot be reached from this board.
    #[error("the board is unsolvable: {0}")]
    Unsolvable(Solvability),
    /// The budget ran out (or the search was cancelled) before a first solution.
    #[error("{0}")]
    GaveUp(GaveUp),
    /// The constructive method found no route for a tile (a bug: it should not happen).
    #[error("the constructive solver could not route tile {tile}")]
    Stuck {
        /// The tile that could not move (0 for the blank).
        tile: u8,
    },
}

impl LargeError {
    /// A stop by the budget, before the figures are known (see [`LargeError::with_figures`]).
    fn stopped(reason: StopReason) -> LargeError {
        LargeError::GaveUp(GaveUp::stopped(reason))
    }

    /// A stop with the time spent and the board's lower bound filled in.
    fn with_figures(self, seconds: f64, lower_bound: usize) -> LargeError {
        match self {
            LargeError::GaveUp(gave_up) => LargeError::GaveUp(GaveUp {
                seconds,
                lower_bound: gave_up.lower_bound.max(lower_bound),
                ..gave_up
            }),
            other => other,
        }
    }
}

/// The pattern databases the large-board solvers may use: the caller's, loaded before the
/// search (see [`Tables::cached`]). A 4×4 table lets a 4×4 remainder be solved optimally; a
/// 5×5 one guides weighted A* on 5×5 boards and on the last 5×5 of larger ones.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// Tables for 4×4.
    pub four: Option<Arc<PatternDatabase>>,
    /// Tables for 5×5.
    pub five: Option<Arc<PatternDatabase>>,
}

impl Tables {
    /// The strongest 4×4 and 5×5 tables that this process has loaded or that are cached in
    /// `dir`; never built. A cached file that cannot be read is an error.
    ///
    /// # Errors
    ///
    /// [`PdbError::Unreadable`] for a cached file that cannot be read.
    pub fn cached(dir: Option<&Path>) -> Result<Tables, PdbError> {
        let shape = |side| Shape::new(side, side).expect("4x4 and 5x5 are valid shapes");
        Ok(Tables {
            four: best_cached(shape(4), dir)?,
            five: best_cached(shape(5), dir)?,
        })
    }

    /// The strongest 4×4 and 5×5 tables that a board of `shape` can use (4×4 ones on boards at
    /// least 4 wide and high, 5×5 ones at least 5), loaded in this process or cached in `dir`;
    /// never built. Loading one counts against the budget: a cached file whose load would take
    /// more than a quarter of the time to the budget's deadline is passed over for a weaker
    /// one, or none (see [`best_cached_within`]).
    ///
    /// # Errors
    ///
    /// [`PdbError::Unreadable`] for a cached file that cannot be read.
    pub fn cached_for(
        shape: Shape,
        dir: Option<&Path>,
        budget: &Budget,
    ) -> Result<Tables, PdbError> {
        let allowance = load_allowance(budget);
        let tables = |side| {
            if shape.width < side || shape.height < side {
                return Ok(None);
            }
            let square = Shape::new(side, side).expect("4x4 and 5x5 are valid shapes");
            best_cached_within(square, dir, allowance)
        };
        Ok(Tables {
            four: tables(4)?,
            five: tables(5)?,
        })
    }

    /// The tables for a board of this shape, if there are.
    pub fn for_shape(&self, shape: Shape) -> Option<&PatternDatabase> {
        [&self.four, &self.five]
            .into_iter()
            .flatten()
            .find(|db| db.shape() == shape)
            .map(|db| &**db)
    }
}

/// The share of the time left to a budget's deadline that loading tables may take.
const LOAD_SHARE: u32 = 4;

/// How long loading tables may take within `budget`: a quarter of the time to its deadline,
/// `None` (no limit) without one.
pub fn load_allowance(budget: &Budget) -> Option<Duration> {
    budget
        .deadline
        .map(|deadline| deadline.saturating_duration_since(Instant::now()) / LOAD_SHARE)
}

/// The pattern-database heuristic of a board, where `tables` has its shape's: admissible,
/// often above [`crate::linear_conflict`].
pub fn pdb_bound(board: &Board, tables: &Tables) -> Option<usize> {
    tables.for_shape(board.shape())?.heuristic(board)
}

/// Settings of the anytime improvement.
#[derive(Clone, Debug)]
pub struct Improve {
    /// Window lengths tried in turn by the windowed re-solves, shortest first.
    pub windows: Vec<usize>,
    /// Nodes each window's IDA* may expand.
    pub window_nodes: u64,
    /// Nodes each weighted A* run may expand (boards of up to 25 cells).
    pub weighted_nodes: u64,
    /// Threads for the presorted constructions on boards over 25 cells and for the pairs of
    /// wide beams: `None` uses every thread of the current rayon pool, 1 works on the calling
    /// thread alone (a pair's beams one after the other).
    pub threads: Option<usize>,
    /// The pattern databases it may use.
    pub tables: Tables,
}

impl Improve {
    /// Whether the wide beams may use the rayon pool's threads: unless [`Improve::threads`]
    /// asks for one thread.
    fn parallel(&self) -> bool {
        self.threads != Some(1)
    }
}

impl Default for Improve {
    fn default() -> Improve {
        Improve {
            windows: vec![12, 16, 20, 24, 28, 32, 36, 40],
            window_nodes: 20_000,
            weighted_nodes: 3_000_000,
            threads: None,
            tables: Tables::default(),
        }
    }
}

fn checked(board: &Board) -> Result<(), LargeError> {
    let solvability = Solvability::of(board);
    if solvability.solvable {
        Ok(())
    } else {
        Err(LargeError::Unsolvable(solvability))
    }
}

/// The largest boards (in cells) whose fast solution fills lines from the cheaper end.
const CHOOSE_ENDS_CELLS: usize = 100;

/// The constructive moves with inverse pairs cancelled and a quick windowed pass.
fn first_moves(board: &Board, budget: &Budget) -> Result<Vec<Move>, LargeError> {
    // Choosing the cheaper end of each line saves about 2% of the moves but costs a second
    // search per tile: worth it only where that is cheap.
    let config = Config {
        choose_ends: board.tiles().len() <= CHOOSE_ENDS_CELLS,
        ..Config::FAST
    };
    constructed(board, &config, budget)
}

/// The constructive moves of one variant, with inverse pairs cancelled and a quick windowed pass.
fn constructed(
    board: &Board,
    config: &Config<'_>,
    budget: &Budget,
) -> Result<Vec<Move>, LargeError> {
    let moves = cancel_inverse_pairs(&construct(board, config, budget)?);
    let shortener = Shortener::new(board.shape());
    match shortener.pass(board, &moves, 10, 5, 500, budget) {
        Ok((moves, _)) => Ok(moves),
        Err((moves, _)) => Ok(moves),
    }
}

/// One wide beam `width` wide from `board` to the goal on the calling thread (no other
/// search, no shortening): a fixed amount of work for instruction counts
/// (`examples/work.rs`). The moves if the beam reached the goal.
///
/// # Errors
///
/// The budget's [`StopReason`] when it stopped the beam.
#[doc(hidden)]
pub fn beam_work(
    board: &Board,
    width: usize,
    budget: &Budget,
) -> Result<Option<Vec<Move>>, StopReason> {
    wide::beam_to_goal(board, width, budget)
}

/// Solves any solvable board in milliseconds: the constructive method, then the quick
/// shortenings. Not optimal; the solution carries the admissible lower bound.
///
/// # Errors
///
/// A [`LargeError`] for an unsolvable board, a budget that ran out, or a tile the
/// construction could not route.
pub fn solve_fast(board: &Board, budget: &Budget) -> Result<Solution, LargeError> {
    let clock = Stopwatch::start();
    checked(board)?;
    let moves = first_moves(board, budget)
        .map_err(|e| e.with_figures(clock.seconds(), linear_conflict(board)))?;
    Ok(Solution {
        moves,
        algorithm: Algorithm::Fast,
        optimal: false,
        nodes_expanded: 0,
        seconds: clock.seconds(),
        lower_bound: linear_conflict(board),
        ended: Ended::RanItsCourse,
    })
}

/// Solves fast, then improves the solution until the budget's deadline or cancel flag stops it
/// (or nothing more is found), calling `on_improve` with each better solution, the first
/// included. Returns the best. Without a deadline, it stops when a round finds nothing shorter.
///
/// Boards of up to 25 cells (5×5) also run weighted A* with falling weights (on the tables in
/// `improve` for their shape, else Manhattan + linear conflict); if it rules out anything
/// shorter, the solution is marked optimal.
///
/// # Errors
///
/// A [`LargeError`] as [`solve_fast`]; running out of time or memory later is no error (the
/// best found is kept).
pub fn solve_anytime(
    board: &Board,
    budget: &Budget,
    improve: &Improve,
    mut on_improve: impl FnMut(&Solution),
) -> Result<Solution, LargeError> {
    // The budget's progress callback hears of each better solution too.
    let on_improve = move |solution: &Solution| {
        budget.report(&SearchStatus {
            nodes_expanded: solution.nodes_expanded,
            seconds: solution.seconds,
            lower_bound: solution.lower_bound,
            best: Some(solution.len()),
        });
        on_improve(solution);
    };
    let clock = Stopwatch::start();
    let started = Instant::now();
    checked(board)?;
    let bound = linear_conflict(board);
    let first = Solution {
        moves: first_moves(board, budget).map_err(|e| e.with_figures(clock.seconds(), bound))?,
        algorithm: Algorithm::Fast,
        optimal: false,
        nodes_expanded: 0,
        seconds: clock.seconds(),
        lower_bound: bound,
        ended: Ended::RanItsCourse,
    };
    let mut best = Best {
        board,
        solution: first,
        clock,
        on_improve,
    };
    best.solution.optimal = best.done();
    (best.on_improve)(&best.solution);
    // The pattern databases' bound, where the caller has them.
    if let Some(pdb) = pdb_bound(board, &improve.tables)
        && pdb > best.solution.lower_bound
    {
        best.solution.lower_bound = pdb;
        best.solution.optimal = best.done();
    }
    let shortener = Shortener::new(board.shape());
    let run = run_on_rungs(&mut best, &shortener, improve, budget, started);
    let mut solution = best.solution;
    solution.seconds = clock.seconds();
    solution.ended = match run {
        // A stop once the solution is proved shortest changes nothing.
        Err(reason) if !solution.optimal => Ended::Stopped(reason),
        _ => Ended::RanItsCourse,
    };
    Ok(solution)
}
