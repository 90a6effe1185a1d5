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

pub mod analysis;
pub mod board;
pub mod distances;
pub mod error;
pub mod generate;
pub mod hash;
pub mod large;
pub mod measure;
pub mod parse;
pub mod pdb;
pub mod progress;
pub mod random;
pub mod search;
pub mod solution;
mod solve;
#[cfg(test)]
mod testing;

pub use analysis::{Solvability, hamming, inversions, is_solvable, linear_conflict, manhattan};
pub use board::{Board, Move, Shape, moves_from_str, moves_to_string};
pub use error::BoardError;
pub use parse::{BenchmarkInstance, ParseError, ParseErrorKind, parse_benchmark, parse_board};
pub use pdb::{Partition, PatternDatabase, PdbError, PdbEvent};
pub use progress::{Progress, ProgressEvent};
pub use search::budget::{Budget, CancelFlag, GaveUp, SearchStatus, StopReason};
pub use solution::{Algorithm, Ended, Solution};
pub use solve::{DEFAULT_IMPROVE_TIME, default_algorithm, pattern_database};
pub use solve::{Options, SolveError, solve};
