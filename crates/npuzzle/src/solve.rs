//! The one entry point that picks and runs a solver: the best solution within the options'
//! time, optimal where it can be proved, else the best found with its lower bound.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::Board;
use crate::large::{Improve, LargeError, Tables, load_allowance, solve_anytime, solve_fast};
use crate::pdb::cache::best_cached_within;
use crate::pdb::{Partition, PatternDatabase, PdbError, load_or_build};
use crate::progress::Progress;
use crate::search::astar::astar;
use crate::search::budget::{Budget, GaveUp, StopReason};
use crate::search::greedy::greedy;
use crate::search::idastar::{IdaOptions, idastar};
use crate::solution::{Algorithm, Solution};
use crate::solvability::Solvability;

/// How to solve: which method (or the best for the board), the budget, the tables.
///
/// Build one with [`Options::default`] and the `with_` methods:
/// `Options::default().with_time(Duration::from_secs(2)).with_threads(1)`.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The method; `None` picks the best the engine has for the board (see [`solve`]).
    pub algorithm: Option<Algorithm>,
    /// The limits the search must keep, and who hears of its progress.
    pub budget: Budget,
    /// With no method named: skip optimal search and improvement, and return the fast
    /// solver's first solution.
    pub fast: bool,
    /// How long the anytime solver improves (default 1 s; the budget's deadline still holds),
    /// and how long the default tries an optimal search that may not finish before it falls
    /// back to the anytime solver.
    pub time: Option<Duration>,
    /// The pattern database partition by name (`7-8`, `6-6-3`, `5-5-5` on 4×4, `6-5` on 3×4
    /// and 4×3, `6-6-6-6` on 5×5); `None` takes the strongest one at hand, else builds the
    /// shape's default ([`Partition::default_for`]).
    pub partition: Option<String>,
    /// Where pattern databases are cached. `None` reads and writes nothing on disk: tables
    /// are built in memory (and kept for the process).
    pub pdb_dir: Option<PathBuf>,
    /// Threads for IDA* and the anytime solver: `None` uses every core, 1 searches on the
    /// calling thread alone.
    pub threads: Option<usize>,
}

impl Options {
    /// These options with a method.
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Options {
        self.algorithm = Some(algorithm);
        self
    }

    /// These options with a budget.
    pub fn with_budget(mut self, budget: Budget) -> Options {
        self.budget = budget;
        self
    }

    /// These options asking for the fast solver's first solution.
    pub fn with_fast(mut self) -> Options {
        self.fast = true;
        self
    }

    /// These options with an improvement time.
    pub fn with_time(mut self, time: Duration) -> Options {
        self.time = Some(time);
        self
    }

    /// These options with a named partition.
    pub fn with_partition(mut self, name: impl Into<String>) -> Options {
        self.partition = Some(name.into());
        self
    }

    /// These options with a cache folder for the pattern databases.
    pub fn with_pdb_dir(mut self, dir: impl Into<PathBuf>) -> Options {
        self.pdb_dir = Some(dir.into());
        self
    }

    /// These options with a thread count.
    pub fn with_threads(mut self, threads: usize) -> Options {
        self.threads = Some(threads);
        self
    }

    /// These options with a progress callback (on the budget).
    pub fn with_progress(mut self, progress: Progress) -> Options {
        self.budget.progress = Some(progress);
        self
    }
}

/// Why no solution came back.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SolveError {
    /// The goal cannot be reached from this board.
    #[error("the board is unsolvable: {0}")]
    Unsolvable(Solvability),
    /// The budget ran out first, or the search was cancelled.
    #[error("{0}")]
    GaveUp(GaveUp),
    /// A pattern database could not be had (an unknown partition for the shape, a damaged
    /// cached file, say).
    #[error("{0}")]
    Pdb(PdbError),
    /// The board is too large for what was asked (an exact distance past 4×4, say).
    #[error("a {shape} board is too large for this: up to {max_cells} cells")]
    TooLarge {
        /// The board's shape.
        shape: crate::board::Shape,
        /// The most cells allowed.
        max_cells: usize,
    },
    /// A move that leaves the board.
    #[error("the move {0} leaves the board")]
    IllegalMove(crate::board::Move),
    /// A solver failed where it should not have (a bug), with its explanation.
    #[error("internal error: {0}")]
    Internal(String),
}

impl SolveError {
    /// A pattern database error in `solve`'s terms: a build cut short by the budget is the
    /// budget giving up; anything else is a table error.
    pub fn from_pdb(error: PdbError) -> SolveError {
        match error {
            PdbError::Stopped(reason) => SolveError::GaveUp(GaveUp::stopped(reason)),
            other => SolveError::Pdb(other),
        }
    }

    fn from_large(error: LargeError) -> SolveError {
        match error {
            LargeError::Unsolvable(solvability) => SolveError::Unsolvable(solvability),
            LargeError::GaveUp(gave_up) => SolveError::GaveUp(gave_up),
            LargeError::Stuck { .. } => SolveError::Internal(error.to_string()),
        }
    }
}

/// The optimal method `solve` runs when none is named: IDA* on shapes with pattern databases
/// (4×4, 3×4, 4×3, 5×5), A* on the rest.
pub fn default_algorithm(board: &Board) -> Algorithm {
    if Partition::default_for(board.shape()).is_some() {
        Algorithm::IdaStar
    } else {
        Algorithm::AStar
    }
}

/// The pattern databases IDA* would use on a board with these options: the named partition;
/// else the strongest standard one loaded or cached in the options' folder whose load fits a
/// quarter of the time to the budget's deadline (see [`load_allowance`]); else the shape's
/// default, built (and cached there) within the options' budget. `Ok(None)` for shapes
/// without one (Manhattan + linear conflict). Kept in memory for the rest of the process.
///
/// # Errors
///
/// A [`PdbError`] for a partition the shape does not have, a cached file that cannot be read,
/// or a build the budget stopped.
pub fn pattern_database(
    board: &Board,
    options: &Options,
) -> Result<Option<Arc<PatternDatabase>>, PdbError> {
    let shape = board.shape();
    let dir = options.pdb_dir.as_deref();
    let partition = match &options.partition {
        Some(name) => Partition::standard(shape, name)?,
        None => {
            if let Some(db) = best_cached_within(shape, dir, load_allowance(&options.budget))? {
                return Ok(Some(db));
            }
            match Partition::default_for(shape) {
                Some(partition) => partition,
                None => return Ok(None),
            }
        }
    };
    load_or_build(&partition, dir, &options.budget).map(Some)
}

/// IDA* with the options' pattern databases (or Manhattan + linear conflict).
fn solve_idastar(board: &Board, options: &Options) -> Result<Solution, SolveError> {
    let db = pattern_database(board, options).map_err(SolveError::from_pdb)?;
    let ida = IdaOptions::with_tables(db.as_deref(), options.threads);
    idastar(board, &ida, &options.budget)
        .map(|result| result.solution)
        .map_err(SolveError::GaveUp)
}

/// Solves a board within the options' budget.
///
/// With a method named, that method. With none, the best solution within the time: optimal
/// where it can be proved, else the best found, with its lower bound:
/// - up to 12 cells (3×3, 3×4, 2×6…) and 4×4: the optimal method ([`default_algorithm`]),
///   within the budget and `time` if given;
/// - 5×5 with its pattern databases at hand (never built here): IDA* for `time` (default 1 s);
/// - if that optimal search stops for anything but a cancel, or on every other board: the
///   anytime solver, improving until the budget's deadline, or for `time` (default 1 s) when
///   there is none; its lower bound raised to what the optimal search proved.
///
/// # Errors
///
/// [`SolveError::Unsolvable`] for an unsolvable board, [`SolveError::GaveUp`] when the budget
/// runs out before any solution, and the engine's other errors in their own words.
pub fn solve(board: &Board, options: &Options) -> Result<Solution, SolveError> {
    let solvability = Solvability::of(board);
    if !solvability.solvable {
        return Err(SolveError::Unsolvable(solvability));
    }
    match options.algorithm {
        Some(algorithm) => solve_with(board, algorithm, options),
        None if options.fast => solve_with(board, Algorithm::Fast, options),
        None => solve_best(board, options),
    }
}

/// One named method.
fn solve_with(
    board: &Board,
    algorithm: Algorithm,
    options: &Options,
) -> Result<Solution, SolveError> {
    match algorithm {
        Algorithm::AStar => astar(board, &options.budget).map_err(SolveError::GaveUp),
        Algorithm::Greedy => greedy(board, &options.budget).map_err(SolveError::GaveUp),
        Algorithm::IdaStar => solve_idastar(board, options),
        Algorithm::Fast => solve_fast(board, &options.budget).map_err(SolveError::from_large),
        Algorithm::Anytime => solve_improved(board, &improvement_budget(options), options),
    }
}

/// How long the anytime solver improves when not told.
pub const DEFAULT_IMPROVE_TIME: Duration = Duration::from_secs(1);

/// The least time the fallback gets after an optimal search used up the deadline: the fast
/// solver's first solution takes milliseconds on any board.
const FALLBACK_GRACE: Duration = Duration::from_millis(50);

/// The options' budget with the deadline brought forward to `time` from now (default 1 s).
fn improvement_budget(options: &Options) -> Budget {
    with_deadline_within(
        &options.budget,
        options.time.unwrap_or(DEFAULT_IMPROVE_TIME),
    )
}

/// A budget with the deadline at most `time` from now.
fn with_deadline_within(budget: &Budget, time: Duration) -> Budget {
    let mut budget = budget.clone();
    let deadline = Instant::now() + time;
    budget.deadline = Some(budget.deadline.map_or(deadline, |d| d.min(deadline)));
    budget
}

/// The anytime solver within `budget`, with the tables cached in the options' folder.
fn solve_improved(
    board: &Board,
    budget: &Budget,
    options: &Options,
) -> Result<Solution, SolveError> {
    let dir = options.pdb_dir.as_deref();
    let improve = Improve {
        threads: options.threads,
        tables: Tables::cached_for(board.shape(), dir, budget).map_err(SolveError::Pdb)?,
        ..Improve::default()
    };
    solve_anytime(board, budget, &improve, |_| {}).map_err(SolveError::from_large)
}

/// Whether the default tries an optimal search first, and within which budget.
fn optimal_attempt(board: &Board, options: &Options) -> Result<Option<Options>, SolveError> {
    let cells = board.tiles().len();
    let algorithm = default_algorithm(board);
    let dir = options.pdb_dir.as_deref();
    let budget = if cells <= 12 || (cells <= 16 && algorithm == Algorithm::IdaStar) {
        match options.time {
            Some(time) => with_deadline_within(&options.budget, time),
            None => options.budget.clone(),
        }
    } else if algorithm == Algorithm::IdaStar
        && let budget = improvement_budget(options)
        && best_cached_within(board.shape(), dir, load_allowance(&budget))
            .map_err(SolveError::Pdb)?
            .is_some()
    {
        budget
    } else {
        return Ok(None);
    };
    Ok(Some(Options {
        algorithm: Some(algorithm),
        budget,
        ..options.clone()
    }))
}

/// The best solution within the time (see [`solve`]).
fn solve_best(board: &Board, options: &Options) -> Result<Solution, SolveError> {
    let proved = match optimal_attempt(board, options)? {
        None => 0,
        Some(attempt) => match solve(board, &attempt) {
            Err(SolveError::GaveUp(gave_up)) if gave_up.reason != StopReason::Cancelled => {
                gave_up.lower_bound
            }
            other => return other,
        },
    };
    let budget = match options.budget.deadline {
        Some(deadline) => {
            let mut budget = options.budget.clone();
            budget.deadline = Some(deadline.max(Instant::now() + FALLBACK_GRACE));
            budget
        }
        None => improvement_budget(options),
    };
    let mut solution = solve_improved(board, &budget, options)?;
    solution.lower_bound = solution.lower_bound.max(proved);
    solution.optimal = solution.len() <= solution.lower_bound;
    Ok(solution)
}
