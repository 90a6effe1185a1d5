//! Why a challenge code is refused, in the player's words.

use thiserror::Error;

/// Why a challenge could not be made or a code could not be opened. Each message is what the
/// player reads.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CodeError {
    /// Nothing but spaces and hyphens was given.
    #[error("There is no challenge code here: paste or type one")]
    Empty,
    /// The text is longer than any code, refused before it is read.
    #[error("This is far too long to be a challenge code")]
    InputTooLong,
    /// A character outside the code's alphabet, a failed check, or a code cut short.
    #[error("This challenge code is damaged: check that it was copied whole")]
    Damaged,
    /// A code in a format this version does not know.
    #[error("This challenge code comes from a newer Snapslide: update Snapslide to open it")]
    NewerVersion,
    /// A side under 2 or over 8.
    #[error("This challenge is for a {width}×{height} board: boards go from 2×2 to 8×8")]
    BoardSize {
        /// Cells per row.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// The start board does not hold each tile once.
    #[error("This challenge's board is not a real board: a tile is missing or appears twice")]
    NotABoard,
    /// The start board cannot reach the goal by any moves.
    #[error("This challenge's board can never be solved, so no one could have solved it")]
    Unsolvable,
    /// A move runs the gap off the board.
    #[error("Move {number} of this challenge slides off the board")]
    IllegalMove {
        /// The move's number, counting from 1.
        number: usize,
    },
    /// The moves leave the board unsolved.
    #[error("This challenge's moves do not solve its board")]
    NotSolved,
    /// Move times that go backwards, do not match the moves, or pass the total time.
    #[error("This challenge's times do not add up")]
    BadTimes,
    /// Faster than any person: over 30 moves a second, sustained.
    #[error("This challenge's time is faster than any person could play: over 30 moves a second")]
    TooFast,
    /// The solve is too long for a code the decoder would open.
    #[error("This solve is too long to share as a challenge code")]
    SolveTooLong,
}
