//! The speedsolvers' move notation (slidy's and slidysim's), and the multi-tile metric.
//!
//! A letter names the direction **the tile** moves, the opposite of the blank's [`Move`]:
//! `L` slides the tile right of the gap to the left (the blank goes right). A number after a
//! letter repeats it: `R3` is `RRR`. White space may separate moves.
//!
//! The multi-tile metric (MTM) counts a slide of several tiles in one line as one move: a run
//! of one direction counts once, so `R3U2L` is 6 single-tile moves and 3 in MTM.
//!
//! ```
//! use npuzzle::notation::{format_tile_moves, mtm_length, parse_tile_moves};
//! use npuzzle::{Move, parse_board};
//!
//! // On `1 2 3/4 5 6/7 0 8` the tile right of the gap moves left: `L` solves it.
//! let mut board = parse_board("1 2 3/4 5 6/7 0 8").unwrap();
//! let moves = parse_tile_moves("L").unwrap();
//! assert_eq!(moves, [Move::Right]);
//! board.apply_all(&moves).unwrap();
//! assert!(board.is_goal());
//!
//! let moves = parse_tile_moves("R3U2L").unwrap();
//! assert_eq!(moves.len(), 6);
//! assert_eq!(mtm_length(&moves), 3);
//! assert_eq!(format_tile_moves(&moves), "R3U2L");
//! ```

use thiserror::Error;

use crate::board::{Board, MAX_SIDE, Move};

/// The largest repeat count read: a line of tiles on the largest board is this long, so a
/// longer run can never be made.
pub const MAX_REPEAT: usize = MAX_SIDE - 1;

/// What is wrong in a tile-move string, and where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("column {column}: {kind}")]
pub struct NotationError {
    /// The column in characters, counting from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: NotationErrorKind,
}

/// The ways a tile-move string can be wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationErrorKind {
    /// A character that is not U, D, L, R, a digit or white space.
    #[error("'{0}' is not a move: moves are U, D, L and R, the direction the tile moves")]
    UnknownLetter(char),
    /// Digits with no move letter right before them.
    #[error("a repeat count must follow a move letter")]
    CountWithoutMove,
    /// A repeat count of 0.
    #[error("a repeat count of 0: counts go from 1 to {MAX_REPEAT}")]
    ZeroRepeat,
    /// A repeat count past [`MAX_REPEAT`].
    #[error("a repeat count of {0} is too large: counts go from 1 to {MAX_REPEAT}")]
    RepeatTooLarge(String),
}

/// The letter of the direction the tile moves when the blank makes `mv`.
pub fn tile_letter(mv: Move) -> char {
    mv.inverse().letter()
}

/// The blank's move for a tile-direction letter (U, D, L or R, upper case only, as slidy
/// reads them), if the letter names one.
pub fn from_tile_letter(letter: char) -> Option<Move> {
    match letter {
        'U' | 'D' | 'L' | 'R' => Move::from_letter(letter).map(Move::inverse),
        _ => None,
    }
}

/// The runs of one direction in `moves`, in order: each run's move and length. Each run is one
/// move in the multi-tile metric.
pub fn runs(moves: &[Move]) -> Vec<(Move, usize)> {
    let mut runs: Vec<(Move, usize)> = Vec::new();
    for &mv in moves {
        match runs.last_mut() {
            Some((last, count)) if *last == mv => *count += 1,
            _ => runs.push((mv, 1)),
        }
    }
    runs
}

/// The length of `moves` in the multi-tile metric: a run of one direction counts once.
pub fn mtm_length(moves: &[Move]) -> usize {
    moves
        .iter()
        .zip(moves.iter().skip(1))
        .filter(|(a, b)| a != b)
        .count()
        + usize::from(!moves.is_empty())
}

/// Writes a board in the slash form, rows separated by `/` and 0 for the gap, such as
/// `8 2 0/4 6 1/3 7 5`; [`crate::parse_board`] reads it back.
pub fn format_board(board: &Board) -> String {
    board
        .tiles()
        .chunks(board.width())
        .map(|row| {
            let row: Vec<String> = row.iter().map(u8::to_string).collect();
            row.join(" ")
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Writes blank moves in the tile-direction notation with repeat counts, such as `R3U2L`.
/// A run longer than [`MAX_REPEAT`] (which no board allows) is written in pieces, so that
/// [`parse_tile_moves`] reads every string written here back.
pub fn format_tile_moves(moves: &[Move]) -> String {
    let mut text = String::new();
    for (mv, mut count) in runs(moves) {
        while count > 0 {
            let piece = count.min(MAX_REPEAT);
            text.push(tile_letter(mv));
            if piece > 1 {
                text += &piece.to_string();
            }
            count -= piece;
        }
    }
    text
}

/// Reads a tile-direction string such as `R3U2L` (or `R R R U U L`) into the blank's moves.
///
/// # Errors
///
/// A [`NotationError`] with the column of the first character that cannot be read: an
/// unknown letter, a count with no letter before it, or a count of 0 or past [`MAX_REPEAT`].
pub fn parse_tile_moves(text: &str) -> Result<Vec<Move>, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut moves = Vec::new();
    let mut index = 0;
    while index < chars.len() {
        let c = chars[index];
        let error = |kind| NotationError {
            column: index + 1,
            kind,
        };
        if c.is_whitespace() {
            index += 1;
        } else if c.is_ascii_digit() {
            return Err(error(NotationErrorKind::CountWithoutMove));
        } else {
            let mv =
                from_tile_letter(c).ok_or_else(|| error(NotationErrorKind::UnknownLetter(c)))?;
            let digits = chars[index + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let count = repeat_count(&chars[index + 1..index + 1 + digits], index + 2)?;
            moves.extend(std::iter::repeat_n(mv, count));
            index += 1 + digits;
        }
    }
    Ok(moves)
}

/// The repeat count written in `digits` (1 when there are none), which start at `column`.
fn repeat_count(digits: &[char], column: usize) -> Result<usize, NotationError> {
    if digits.is_empty() {
        return Ok(1);
    }
    let text: String = digits.iter().collect();
    let error = |kind| NotationError { column, kind };
    match text.parse::<usize>() {
        Ok(0) => Err(error(NotationErrorKind::ZeroRepeat)),
        Ok(count) if count <= MAX_REPEAT => Ok(count),
        _ => Err(error(NotationErrorKind::RepeatTooLarge(text))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves_from_str;

    fn kind_at(text: &str) -> (NotationErrorKind, usize) {
        let error = parse_tile_moves(text).unwrap_err();
        (error.kind, error.column)
    }

    #[test]
    fn letters_name_the_tile_not_the_blank() {
        assert_eq!(parse_tile_moves("L").unwrap(), [Move::Right]);
        assert_eq!(parse_tile_moves("U").unwrap(), [Move::Down]);
        assert_eq!(format_tile_moves(&[Move::Left, Move::Up]), "RD");
    }

    #[test]
    fn repeats_compress_runs_and_expand_back() {
        let moves = moves_from_str("LLLDDRUU").unwrap();
        assert_eq!(format_tile_moves(&moves), "R3U2LD2");
        assert_eq!(parse_tile_moves("R3U2LD2").unwrap(), moves);
        assert_eq!(parse_tile_moves(" R3 U U\tL D2 ").unwrap(), moves);
        assert_eq!(parse_tile_moves("R15").unwrap().len(), 15);
        let long = vec![Move::Left; 20];
        assert_eq!(format_tile_moves(&long), "R15R5");
        assert_eq!(parse_tile_moves("R15R5").unwrap(), long);
        assert_eq!(parse_tile_moves("").unwrap(), []);
        assert_eq!(format_tile_moves(&[]), "");
    }

    #[test]
    fn boards_in_the_slash_form() {
        let board = crate::parse_board("8 2 0\n4 6 1\n3 7 5").unwrap();
        assert_eq!(format_board(&board), "8 2 0/4 6 1/3 7 5");
        let wide = Board::goal(4, 2).unwrap();
        assert_eq!(format_board(&wide), "1 2 3 4/5 6 7 0");
    }

    #[test]
    fn mtm_counts_runs_once() {
        assert_eq!(mtm_length(&[]), 0);
        assert_eq!(mtm_length(&moves_from_str("R").unwrap()), 1);
        assert_eq!(mtm_length(&moves_from_str("LLLDDRUU").unwrap()), 4);
        assert_eq!(mtm_length(&moves_from_str("LRLR").unwrap()), 4);
        assert_eq!(
            runs(&moves_from_str("LLD").unwrap()),
            [(Move::Left, 2), (Move::Down, 1)]
        );
    }

    #[test]
    fn bad_strings_say_what_and_where() {
        assert_eq!(kind_at("R2X"), (NotationErrorKind::UnknownLetter('X'), 3));
        assert_eq!(kind_at("r"), (NotationErrorKind::UnknownLetter('r'), 1));
        assert_eq!(kind_at("U 3"), (NotationErrorKind::CountWithoutMove, 3));
        assert_eq!(kind_at("2U"), (NotationErrorKind::CountWithoutMove, 1));
        assert_eq!(kind_at("UR0"), (NotationErrorKind::ZeroRepeat, 3));
        assert_eq!(
            kind_at("L1000000"),
            (NotationErrorKind::RepeatTooLarge("1000000".into()), 2)
        );
        assert_eq!(
            kind_at("L16"),
            (NotationErrorKind::RepeatTooLarge("16".into()), 2)
        );
        assert!(matches!(
            kind_at("D99999999999999999999999999").0,
            NotationErrorKind::RepeatTooLarge(_)
        ));
        assert_eq!(kind_at("Ré"), (NotationErrorKind::UnknownLetter('é'), 2));
    }
}
