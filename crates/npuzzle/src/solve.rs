//! The one entry point that picks and runs a solver.

use thiserror::Error;

use crate::analysis::Solvability;
use crate::board::Board;
use crate::large::{Improve, LargeError, solve_anytime, solve_fast};
use crate::search::astar::astar;
use crate::search::budget::{Budget, GaveUp};
use crate::search::greedy::greedy;
use crate::solution::{Algorithm, Solution};

/// How to solve: which method (or the best for the board), and the budget.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The method; `None` picks the best optimal method the engine has for the board.
    pub algorithm: Option<Algorithm>,
    /// The limits the search must keep.
    pub budget: Budget,
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
    let algorithm = options
        .algorithm
        .unwrap_or_else(|| default_algorithm(board));
    let result = match algorithm {
        Algorithm::AStar => astar(board, &options.budget),
        Algorithm::Greedy => greedy(board, &options.budget),
        Algorithm::Fast => return large_result(solve_fast(board, &options.budget)),
        Algorithm::Anytime => {
            return large_result(solve_anytime(
                board,
                &options.budget,
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
