//! Greedy best-first search on Manhattan alone: the classroom variant. Not optimal.

use super::best_first::{OpenOrder, search};
use super::budget::{Budget, GaveUp};
use crate::board::Board;
use crate::estimate::linear_conflict;
use crate::solution::{Algorithm, Ended, Solution};

/// Finds some solution quickly, usually far from the shortest. The board must be solvable.
///
/// # Errors
///
/// [`GaveUp`] when the budget runs out or the search is cancelled.
pub fn greedy(board: &Board, budget: &Budget) -> Result<Solution, GaveUp> {
    let found = search(board, OpenOrder::Manhattan, budget)?;
    Ok(Solution {
        moves: found.moves,
        algorithm: Algorithm::Greedy,
        optimal: false,
        nodes_expanded: found.nodes_expanded,
        seconds: found.seconds,
        lower_bound: linear_conflict(board),
        ended: Ended::RanItsCourse,
    })
}
