//! Snapslide's challenge codes: a board, a solve of it and its times in a short text that
//! survives chat apps, e-mail and being read aloud, checked whole before anything is shown.
//!
//! ```
//! use challenge::{Challenge, decode};
//! use npuzzle::{Board, moves_from_str};
//!
//! let start = Board::new(3, 3, vec![1, 0, 3, 4, 2, 5, 7, 8, 6]).unwrap();
//! let solve = Challenge::new(start, moves_from_str("DRD").unwrap(), 1_500, None).unwrap();
//! let opened = decode(&solve.link()).unwrap();
//! assert_eq!(opened, solve);
//! assert_eq!(opened.time_ms(), 1_500);
//! ```
//!
//! The format, bit by bit, is in docs/challenge-code.md.

#![warn(missing_docs, clippy::missing_errors_doc)]

mod base32;
mod bits;
mod challenge;
mod error;
mod format;
#[doc(hidden)]
pub mod fuzzing;
mod rank;

pub use challenge::{
    Challenge, LINK_PREFIX, MAX_INPUT_CHARS, MAX_MOVES_PER_SECOND, MAX_SIDE, MAX_TIME_MS, MIN_SIDE,
    SPEED_MIN_MOVES, SPEED_WINDOW, decode,
};
pub use error::CodeError;
