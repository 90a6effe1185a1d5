//! The one entry point that picks and runs a solver.

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::analysis::Solvability;
use crate::board::Board;
use crate::large::{Improve, LargeError, solve_anytime, solve_fast};
use crate::search::astar::astar;
use crate::search::budget::{Budget, GaveUp, StopReason};
use crate::search::greedy::greedy;
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
    /// A solver failed where it should not have (a bug), with its explanation.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The method `solve` runs when none is named.
pub fn default_algorithm(_board: &Board) -> Algorithm {
    Algorithm::AStar
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
        Algorithm::Fast => return large_result(solve_fast(board, &options.budget)),
        Algorithm::Anytime => {
            return large_result(solve_anytime(
                board,
                &improvement_budget(options),
                &Improve::default(),
                |_| {},
            ));
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
    large_result(solve_anytime(
        board,
        &improvement_budget(options),
        &Improve::default(),
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
