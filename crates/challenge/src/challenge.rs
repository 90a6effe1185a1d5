//! A challenge: a start board, the moves that solve it and their times, checked whole.

use npuzzle::{Board, Move, Shape, is_solvable};

use crate::error::CodeError;
use crate::format::{self, Fields};

/// What a link holds before its code: `snapslide://c/CODE`.
pub const LINK_PREFIX: &str = "snapslide://c/";
/// The smallest side a challenge's board may have.
pub const MIN_SIDE: usize = 2;
/// The largest side a challenge's board may have.
pub const MAX_SIDE: usize = 8;
/// The most characters of text [`decode`] reads: more is refused before any work. A 10,000-move
/// solve with every move's time takes about 25,000 characters.
pub const MAX_INPUT_CHARS: usize = 65_536;
/// The longest total time, ms (about 35 years): beyond it a time is not a solve's.
pub const MAX_TIME_MS: u64 = 1 << 40;
/// The fastest a person plays, sustained, in moves a second.
pub const MAX_MOVES_PER_SECOND: u64 = 30;
/// The fewest moves whose overall rate is judged against [`MAX_MOVES_PER_SECOND`].
pub const SPEED_MIN_MOVES: usize = 10;
/// With move times, the run of moves judged too: no [`SPEED_WINDOW`] moves may follow a move
/// within less than `SPEED_WINDOW / MAX_MOVES_PER_SECOND` seconds (one second). A second's worth
/// rather than fewer moves, since one tap slides a whole row at the same time.
pub const SPEED_WINDOW: usize = 30;

/// A solve to beat: a start board, the gap's moves that solve it, the total time and, if kept,
/// each move's time. Every constructor checks it whole, so a `Challenge` is always one a person
/// could have played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    start: Board,
    moves: Vec<Move>,
    time_ms: u64,
    times_ms: Option<Vec<u64>>,
    code: String,
}

impl Challenge {
    /// A challenge from a solve: `times_ms`, if given, holds each move's time since the first
    /// move (ms), and `time_ms` is the total.
    ///
    /// # Errors
    ///
    /// [`CodeError::BoardSize`] for a side outside 2–8, [`CodeError::Unsolvable`],
    /// [`CodeError::IllegalMove`], [`CodeError::NotSolved`], [`CodeError::BadTimes`] (times
    /// that are not one per move, go backwards, pass the total, or pass [`MAX_TIME_MS`]),
    /// [`CodeError::TooFast`], and [`CodeError::SolveTooLong`] for a code past
    /// [`MAX_INPUT_CHARS`].
    pub fn new(
        start: Board,
        moves: Vec<Move>,
        time_ms: u64,
        times_ms: Option<Vec<u64>>,
    ) -> Result<Challenge, CodeError> {
        let shape = start.shape();
        check_shape(shape)?;
        if !is_solvable(&start) {
            return Err(CodeError::Unsolvable);
        }
        let mut board = start.clone();
        board
            .apply_all(&moves)
            .map_err(|index| CodeError::IllegalMove { number: index + 1 })?;
        if !board.is_goal() {
            return Err(CodeError::NotSolved);
        }
        check_times(moves.len(), time_ms, times_ms.as_deref())?;
        check_speed(moves.len(), time_ms, times_ms.as_deref())?;
        let fields = Fields {
            width: shape.width,
            height: shape.height,
            tiles: start.tiles().to_vec(),
            moves,
            time_ms,
            times_ms,
        };
        let code = format::encode(&fields);
        if code.len() > MAX_INPUT_CHARS {
            return Err(CodeError::SolveTooLong);
        }
        Ok(Challenge {
            start,
            moves: fields.moves,
            time_ms,
            times_ms: fields.times_ms,
            code,
        })
    }

    /// The board the challenge starts from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The gap's moves, in order; made on [`Challenge::start`], they reach the goal.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The total time, ms.
    pub fn time_ms(&self) -> u64 {
        self.time_ms
    }

    /// Each move's time since the first move, ms, if the code holds them.
    pub fn times_ms(&self) -> Option<&[u64]> {
        self.times_ms.as_deref()
    }

    /// The code: Crockford base32 characters (digits and capitals), to paste or read aloud.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The link that opens the challenge: `snapslide://c/CODE`.
    pub fn link(&self) -> String {
        format!("{LINK_PREFIX}{}", self.code)
    }
}

impl std::str::FromStr for Challenge {
    type Err = CodeError;

    /// As [`decode`].
    fn from_str(text: &str) -> Result<Challenge, CodeError> {
        decode(text)
    }
}

/// A challenge from its code or its link (`snapslide://c/CODE`), checked before anything of
/// it is shown: the code's characters (either case; I and L read as 1, O as 0; hyphens and
/// white space skipped) and check, then the board, the moves replayed, and the times.
///
/// # Errors
///
/// [`CodeError::Empty`], [`CodeError::InputTooLong`] (past [`MAX_INPUT_CHARS`], refused before
/// it is read), [`CodeError::Damaged`], [`CodeError::NewerVersion`], [`CodeError::NotABoard`],
/// and each error of [`Challenge::new`].
pub fn decode(text: &str) -> Result<Challenge, CodeError> {
    if text.len() > MAX_INPUT_CHARS * 4 {
        return Err(CodeError::InputTooLong);
    }
    let trimmed = text.trim();
    let code = match trimmed.get(..LINK_PREFIX.len()) {
        Some(head) if head.eq_ignore_ascii_case(LINK_PREFIX) => &trimmed[LINK_PREFIX.len()..],
        _ => trimmed,
    };
    let characters = code
        .chars()
        .filter(|&c| c != '-' && !c.is_whitespace())
        .count();
    if characters == 0 {
        return Err(CodeError::Empty);
    }
    if characters > MAX_INPUT_CHARS {
        return Err(CodeError::InputTooLong);
    }
    let fields = format::decode(code)?;
    let start =
        Board::new(fields.width, fields.height, fields.tiles).map_err(|_| CodeError::NotABoard)?;
    Challenge::new(start, fields.moves, fields.time_ms, fields.times_ms)
}

/// Refuses a side outside [`MIN_SIDE`]–[`MAX_SIDE`].
fn check_shape(shape: Shape) -> Result<(), CodeError> {
    let sides = MIN_SIDE..=MAX_SIDE;
    if sides.contains(&shape.width) && sides.contains(&shape.height) {
        Ok(())
    } else {
        Err(CodeError::BoardSize {
            width: shape.width,
            height: shape.height,
        })
    }
}

/// Refuses move times that are not one a move, go backwards, or pass the total, and a total
/// past [`MAX_TIME_MS`].
fn check_times(moves: usize, time_ms: u64, times_ms: Option<&[u64]>) -> Result<(), CodeError> {
    let fits = time_ms <= MAX_TIME_MS
        && times_ms.is_none_or(|times| {
            times.len() == moves
                && times.windows(2).all(|pair| pair[0] <= pair[1])
                && times.last().is_none_or(|&last| last <= time_ms)
        });
    if fits {
        Ok(())
    } else {
        Err(CodeError::BadTimes)
    }
}

/// Whether `moves` moves in `ms` milliseconds pass [`MAX_MOVES_PER_SECOND`].
fn faster_than_a_person(moves: usize, ms: u64) -> bool {
    moves as u64 * 1000 > MAX_MOVES_PER_SECOND * ms
}

/// Refuses a solve of at least [`SPEED_MIN_MOVES`] moves faster than a person overall, or, with
/// move times, any [`SPEED_WINDOW`] moves after one move faster than a person.
fn check_speed(moves: usize, time_ms: u64, times_ms: Option<&[u64]>) -> Result<(), CodeError> {
    let overall = moves >= SPEED_MIN_MOVES && faster_than_a_person(moves, time_ms);
    let burst = times_ms.is_some_and(|times| {
        times
            .windows(SPEED_WINDOW + 1)
            .any(|run| faster_than_a_person(SPEED_WINDOW, run[SPEED_WINDOW] - run[0]))
    });
    if overall || burst {
        Err(CodeError::TooFast)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
