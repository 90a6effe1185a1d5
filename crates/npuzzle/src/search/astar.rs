//! A*: steps + Manhattan, parent pointers, a closed set. Optimal.

use super::best_first::{OpenOrder, search};
use super::budget::{Budget, GaveUp};
use crate::board::Board;
use crate::solution::{Algorithm, Ended, Solution};

/// Finds a shortest solution, or gives up at the budget. The board must be solvable.
///
/// # Errors
///
/// [`GaveUp`] when the budget runs out or the search is cancelled.
pub fn astar(board: &Board, budget: &Budget) -> Result<Solution, GaveUp> {
    let found = search(board, OpenOrder::StepsPlusManhattan, budget)?;
    Ok(Solution {
        lower_bound: found.moves.len(),
        moves: found.moves,
        algorithm: Algorithm::AStar,
        optimal: true,
        nodes_expanded: found.nodes_expanded,
        seconds: found.seconds,
        ended: Ended::RanItsCourse,
    })
}
