//! The one entry point that picks and runs a solver.

use thiserror::Error;

use crate::analysis::Solvability;
use crate::board::Board;
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
    };
    result.map_err(SolveError::GaveUp)
}
