//! The engine's errors, as types.

use thiserror::Error;

/// Why a board could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A side is shorter than 2.
    #[error("a {width}x{height} board is too small: each side needs at least 2 cells")]
    TooSmall {
        /// Cells per row.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A side is longer than 16, or there are more than 255 tiles.
    #[error("a {width}x{height} board is too large: sides go up to 16 and tiles up to 255")]
    TooLarge {
        /// Cells per row.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// The tile list does not fill the board.
    #[error("expected {expected} numbers (the tiles and 0 for the blank), found {found}")]
    WrongTileCount {
        /// Cells on the board.
        expected: usize,
        /// Numbers given.
        found: usize,
    },
    /// A number past the largest tile.
    #[error("{tile} is out of range: numbers go from 0 (the blank) to {max}")]
    TileOutOfRange {
        /// The number found.
        tile: u64,
        /// The largest tile.
        max: usize,
    },
    /// A tile that appears twice.
    #[error("tile {0} appears twice")]
    DuplicateTile(u8),
    /// A tile count that is not a square, where a square board was implied.
    #[error("{0} numbers do not make a square board")]
    NotSquare(usize),
    /// A letter that names no move.
    #[error("'{0}' is not a move: moves are U, D, L and R")]
    BadMoveLetter(char),
}
