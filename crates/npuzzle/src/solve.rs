//! The one entry point that picks and runs a solver.

use std::path::PathBuf;
use std::sync::Arc;

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::analysis::Solvability;
use crate::board::Board;
use crate::large::{Improve, LargeError, solve_anytime, solve_fast};
use crate::pdb::{Partition, PatternDatabase, PdbError, Progress, load_or_build};
use crate::search::astar::astar;
use crate::search::budget::{Budget, GaveUp, StopReason};
use crate::search::greedy::greedy;
use crate::search::idastar::{Heuristic, IdaOptions, idastar};
use crate::solution::{Algorithm, Solution};

/// How to solve: which method (or the best for the board), and the budget.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The method; `None` picks the best optimal method the engine has for the board.
    pub algorithm: Option<Algorithm>,
    /// The limits the search must keep.
    pub budget: Budget,
    /// With no method named: skip optimal search and improvement, and return the fast
    /// solver's first solution.
    pub fast: bool,
    /// How long the anytime solver improves (default 1 s; the budget's deadline still holds),
    /// and how long the default tries an optimal search that may not finish (5×5) before it
    /// falls back to the anytime solver.
    pub time: Option<Duration>,
    /// IDA*'s pattern database partition by name (`7-8`, `6-6-3`, `5-5-5` on 4×4, `6-6-6-6`
    /// on 5×5); `None` takes the shape's default ([`Partition::default_for`]).
    pub partition: Option<String>,
    /// Where pattern databases are cached; `None` is the default cache folder.
    pub pdb_dir: Option<PathBuf>,
    /// Threads for IDA* and the anytime solver: `None` uses every core, 1 searches on the
    /// calling thread alone.
    pub threads: Option<usize>,
    /// Told how a pattern database load or build goes (for a progress bar).
    pub progress: Option<Progress>,
}

/// Why no solution came back.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SolveError {
    /// The goal cannot be reached from this board.
    #[error("the board is unsolvable: {0}")]
    Unsolvable(Solvability),
    /// The budget ran out first.
    #[error("{0}")]
    GaveUp(GaveUp),
    /// A pattern database could not be had (an unknown partition for the shape, say).
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
}

/// The method `solve` runs when none is named.
///
/// A* for 3×3 and smaller; IDA* with pattern databases for 4×4 and 5×5.
pub fn default_algorithm(board: &Board) -> Algorithm {
    if Partition::default_for(board.shape()).is_some() {
        Algorithm::IdaStar
    } else {
        Algorithm::AStar
    }
}

/// The pattern databases IDA* would use on a board with these options: the named partition,
/// else the shape's default; `Ok(None)` for shapes without one (Manhattan + linear conflict).
/// Loads them from the cache or builds them, and keeps them for the rest of the process.
pub fn pattern_database(
    board: &Board,
    options: &Options,
) -> Result<Option<Arc<PatternDatabase>>, PdbError> {
    let shape = board.shape();
    let partition = match &options.partition {
        Some(name) => Partition::standard(shape, name)?,
        None => match Partition::default_for(shape) {
            Some(partition) => partition,
            None => return Ok(None),
        },
    };
    let db = load_or_build(
        &partition,
        options.pdb_dir.as_deref(),
        &options.budget,
        options.progress.as_ref(),
    )?;
    Ok(Some(db))
}

/// IDA* with the options' pattern databases (or Manhattan + linear conflict).
fn solve_idastar(board: &Board, options: &Options) -> Result<Solution, SolveError> {
    let db = pattern_database(board, options).map_err(SolveError::from_pdb)?;
    let heuristic = match &db {
        Some(db) => Heuristic::Pdb(db),
        None => Heuristic::ManhattanLinearConflict,
    };
    let ida = IdaOptions {
        heuristic,
        threads: options.threads,
        reflect: true,
    };
    idastar(board, &ida, &options.budget)
        .map(|result| result.solution)
        .map_err(SolveError::GaveUp)
}

/// Solves a board with the chosen method, within the budget.
pub fn solve(board: &Board, options: &Options) -> Result<Solution, SolveError> {
    let solvability = Solvability::of(board);
    if !solvability.solvable {
        return Err(SolveError::Unsolvable(solvability));
    }
    let algorithm = match options.algorithm {
        Some(algorithm) => algorithm,
        None if options.fast => Algorithm::Fast,
        None => return solve_default(board, options),
    };
    let result = match algorithm {
        Algorithm::AStar => astar(board, &options.budget),
        Algorithm::Greedy => greedy(board, &options.budget),
        Algorithm::IdaStar => return solve_idastar(board, options),
        Algorithm::Fast => return large_result(solve_fast(board, &options.budget)),
        Algorithm::Anytime => {
            return solve_improved(board, options);
        }
    };
    result.map_err(SolveError::GaveUp)
}

/// A large-board solver's result in `solve`'s terms.
fn large_result(result: Result<Solution, LargeError>) -> Result<Solution, SolveError> {
    result.map_err(|error| match error {
        LargeError::Unsolvable(solvability) => SolveError::Unsolvable(solvability),
        LargeError::GaveUp(gave_up) => SolveError::GaveUp(gave_up),
        LargeError::Stuck { .. } => SolveError::Internal(error.to_string()),
    })
}

/// How long the anytime solver improves when not told.
pub const DEFAULT_IMPROVE_TIME: Duration = Duration::from_secs(1);

/// The options' budget with the deadline brought forward to `time` from now (default 1 s).
fn improvement_budget(options: &Options) -> Budget {
    let mut budget = options.budget.clone();
    let deadline = Instant::now() + options.time.unwrap_or(DEFAULT_IMPROVE_TIME);
    budget.deadline = Some(budget.deadline.map_or(deadline, |d| d.min(deadline)));
    budget
}

/// The anytime solver within the options' improvement time.
fn solve_improved(board: &Board, options: &Options) -> Result<Solution, SolveError> {
    let improve = Improve {
        threads: options.threads,
        ..Improve::default()
    };
    large_result(solve_anytime(
        board,
        &improvement_budget(options),
        &improve,
        |_| {},
    ))
}

/// What `solve` runs when no method is named: optimal where that is feasible, otherwise fast
/// then improved.
///
/// - Up to 12 cells (3×3, 3×4, 2×6…) A* and 4×4 with [`default_algorithm`]'s optimal method
///   (when it is not plain A*): optimal, within the budget.
/// - Larger boards with an optimal method (5×5): that method for `time` (default 1 s); if it
///   gives up, the anytime solver for `time` more, its lower bound raised to what the optimal
///   search proved.
/// - Everything else: the fast solver, improved for `time`.
fn solve_default(board: &Board, options: &Options) -> Result<Solution, SolveError> {
    let algorithm = default_algorithm(board);
    let cells = board.tiles().len();
    let optimal = Options {
        algorithm: Some(algorithm),
        ..options.clone()
    };
    if cells <= 12 || (cells <= 16 && algorithm != Algorithm::AStar) {
        return solve(board, &optimal);
    }
    if algorithm == Algorithm::AStar {
        return solve_improved(board, options);
    }
    let attempt = Options {
        budget: improvement_budget(options),
        ..optimal
    };
    match solve(board, &attempt) {
        Err(SolveError::GaveUp(gave_up)) if gave_up.reason != StopReason::Cancelled => {
            let mut solution = solve_improved(board, options)?;
            solution.lower_bound = solution.lower_bound.max(gave_up.lower_bound);
            solution.optimal = solution.len() <= solution.lower_bound;
            Ok(solution)
        }
        other => other,
    }
}
