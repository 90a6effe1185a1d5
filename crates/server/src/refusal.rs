//! Why a result is refused after it was read: what its replay found, in the player's words.

use challenge::CodeError;
use thiserror::Error;

/// Why a result is refused, in the player's words.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Refusal {
    /// The code does not decode, or decodes to no solve a person could make.
    #[error("{0}")]
    Code(#[from] CodeError),
    /// The code keeps no move times, so its pace cannot be checked.
    #[error("This result has no move times: post it from Snapslide's win card, which keeps them")]
    NoTimes,
    /// The code's board is not the day's.
    #[error("This solve is not of that day's daily board")]
    NotTheDaily,
    /// The moves leave the board unsolved.
    #[error("These moves do not solve the day's board")]
    NotSolved,
    /// Moves after the board was solved (the game ends at the win).
    #[error("These moves go on after the board is solved: post the solve as the game ended it")]
    MovesAfterTheWin,
    /// A move timed before the move before it.
    #[error("This result's move times go backwards")]
    TimesGoBack,
    /// A burst faster than any person.
    #[error("No person slides that fast: over 30 slides a second, within the result's moves")]
    TooFastBurst,
    /// A total time faster than any person.
    #[error("No person solves that fast: less than a second for every 30 slides")]
    TooFastOverall,
}
