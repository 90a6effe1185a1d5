//! What a solver returns: the moves and the figures around them.

use std::fmt;

use crate::board::{Board, Move, moves_to_string};
use crate::search::budget::StopReason;

/// The solving methods the engine offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A* on steps + Manhattan: optimal.
    AStar,
    /// Greedy best-first on Manhattan: fast, not optimal.
    Greedy,
    /// IDA* with additive pattern databases (4×4, 5×5) or Manhattan + linear conflict: optimal.
    IdaStar,
    /// The constructive solver for any size (row by row, column by column), shortened: a
    /// solution in milliseconds, not optimal.
    Fast,
    /// The fast solution improved until a deadline (windowed re-solves, weighted search): not
    /// optimal in general.
    Anytime,
}

impl Algorithm {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::Greedy => "greedy",
            Algorithm::IdaStar => "idastar",
            Algorithm::Fast => "fast",
            Algorithm::Anytime => "anytime",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A solution: blank moves from the board to the goal, and how they were found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Blank moves, in order.
    pub moves: Vec<Move>,
    /// The method that found them.
    pub algorithm: Algorithm,
    /// Whether they are proved shortest.
    pub optimal: bool,
    /// Nodes the search expanded.
    pub nodes_expanded: u64,
    /// Seconds the search took.
    pub seconds: f64,
    /// The best proved lower bound on the shortest length (the length itself when optimal).
    pub lower_bound: usize,
    /// Why the search ended where it did.
    pub ended: Ended,
}

/// Why the search behind a solution ended: what more time would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The method ran to its end: the optimal searches, greedy and the fast solver give one
    /// answer, and the anytime solver ends early when every improving method has run its
    /// course (or the solution is proved shortest). More time gives the same solution.
    RanItsCourse,
    /// The budget stopped the improvement (its deadline, memory, nodes or a cancel): more
    /// time, or memory, might give a shorter solution.
    Stopped(StopReason),
}

impl Solution {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the board was solved already.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves as letters, such as `DRD`.
    pub fn moves_string(&self) -> String {
        moves_to_string(&self.moves)
    }

    /// Whether the moves take `board` to the goal.
    pub fn solves(&self, board: &Board) -> bool {
        let mut board = board.clone();
        board.apply_all(&self.moves).is_ok() && board.is_goal()
    }
}
