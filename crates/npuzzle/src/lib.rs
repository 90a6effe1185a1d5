//! Sliding-tile puzzles of any width × height: the rules, text formats, analysis, and solvers.
//!
//! ```
//! use npuzzle::{parse_board, solve, Options};
//!
//! let board = parse_board("1 0 3 / 4 2 5 / 7 8 6").unwrap();
//! let solution = solve(&board, &Options::default()).unwrap();
//! assert_eq!(solution.moves_string(), "DRD");
//! ```

#![warn(missing_docs, clippy::missing_errors_doc)]

pub mod board;
pub mod distance;
pub mod error;
pub mod estimate;
pub mod generate;
pub mod hash;
pub mod large;
pub mod mtm;
pub mod notation;
pub mod packed;
pub mod parse;
pub mod pdb;
pub mod progress;
pub mod random;
pub mod rank;
pub mod search;
pub mod solution;
pub mod solvability;
mod solve;
#[cfg(test)]
mod testing;

pub use estimate::{hamming, linear_conflict, manhattan};
pub use solvability::{Solvability, inversions, is_solvable};

pub use board::{Board, Move, Shape, moves_from_str, moves_to_string};
pub use error::BoardError;
pub use notation::{NotationError, format_tile_moves, mtm_length, parse_tile_moves};
pub use parse::{BenchmarkInstance, ParseError, ParseErrorKind, parse_benchmark, parse_board};
pub use pdb::{Partition, PatternDatabase, PdbError, PdbEvent};
pub use progress::{Progress, ProgressEvent};
pub use search::budget::{Budget, CancelFlag, GaveUp, SearchStatus, StopReason};
pub use solution::{Algorithm, Ended, Solution};
pub use solve::{DEFAULT_IMPROVE_TIME, default_algorithm, pattern_database};
pub use solve::{Options, SolveError, solve};
