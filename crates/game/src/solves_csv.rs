//! The solve history as CSV, out and in: the player's data, theirs to take elsewhere.
//!
//! [`export_csv`] writes a header, then one row a solve, oldest first, with these columns:
//!
//! | column        | what                                                                  |
//! |---------------|-----------------------------------------------------------------------|
//! | `finished_at` | when it ended, RFC 3339 in UTC to the millisecond: `2026-12-05T09:31:33.365Z` |
//! | `size`        | width x height: `4x4`                                                 |
//! | `mode`        | the mode's key ([`Mode`]): `random`, `daily-20787`, `custom`          |
//! | `result`      | `solved` or `dnf`                                                     |
//! | `time_ms`     | the time in milliseconds                                              |
//! | `moves`       | moves in STM (each tile's slide counts one)                           |
//! | `moves_mtm`   | moves in MTM (a slide of several tiles in one line counts once)       |
//! | `scramble`    | the start board in the slash form: `1 2 3/4 5 6/7 8 0`                |
//! | `solution`    | the moves in the speedsolvers' notation, the tile's direction: `R2U2LDLD` |
//! | `helped`      | `true` when a hint or solution was shown                              |
//! | `photo`       | the bundled photo's name, or `your photo`                             |
//! | `shortest`    | the start board's shortest solution, when known                       |
//! | `times_ms`    | each move's time since the first move, separated by spaces            |
//! | `boards_before` | a run's boards before its last, each `scramble \| solution \| times_ms`, separated by ` ; ` |
//!
//! A field holding a comma, a quote or a line break is quoted as RFC 4180 says.
//!
//! [`import_csv`] reads such a file. It needs the first six columns only, in that order; the
//! others may follow in any order, each at most once, and an empty field is one not given.
//! It reads all or nothing: the first line it cannot take refuses the whole file, naming the
//! line (the header is line 1) and what is wrong. Sizes are the ones the app plays (sides
//! from [`MIN_SIDE`] to [`MAX_SIDE`]), so every imported solve can be shown and counted.
//!
//! A row with a `solution` (or with 0 moves) keeps its moves: the solution must agree with the
//! `moves` and `moves_mtm` counts, and with a `scramble` it must stay on the board and, for a
//! solved result, solve it. A row without one keeps its counts only ([`Solve::counted`]): its
//! moves are empty, the statistics count its time and moves, and it has nothing to replay. A
//! row without `moves_mtm` (or with it empty) has an unknown MTM, left out of the MTM figures.
//!
//! **A run of several boards** (a mode `marathon-N-WxH` with N over 1, or `relay-N`: see
//! [`Solve::is_run`]) is one row: `time_ms`, `moves` and `moves_mtm` are the whole run's, while
//! `size`, `scramble`, `solution`, `shortest` and `times_ms` are its last board's (the history
//! keeps that board's moves only). On import the last board's solution may then be shorter than
//! `moves` (not longer), `times_ms` has one time for each of its moves (or, without a solution,
//! at most `moves`: as an earlier version exported a run), and with a `scramble` the solution
//! must stay on it and, for a solved result, solve it. `boards_before` holds the boards before
//! the last in order, so that the run can be watched again (each board's solution must solve its
//! scramble, with a time a move on the run's clock); with it, the boards' solutions must add up
//! to `moves`.
//!
//! **Impossible solves are refused**, each at its line: a `finished_at` more than a day
//! ([`MAX_AHEAD_MS`]) past the clock of the device importing, and a pace over
//! [`MAX_SLIDES_PER_SECOND`] slides a second over at least [`PACE_MIN_SLIDES`] slides, as for a
//! challenge code. Slides are counted as in MTM (a tap slides a line of tiles at once); with
//! the MTM unknown, as the fewest slides the moves can take (a line of the board at a time).
//!
//! **Adding to a history** ([`new_solves`]): a solve the history has already (the same
//! `finished_at`, board and moves: [`Solve::identity`]), or that comes twice in the file, is
//! skipped and counted, so that a file imported twice adds nothing the second time.

use npuzzle::notation::{format_board, format_tile_moves};
use npuzzle::{NotationError, moves_from_str, moves_to_string, mtm_length, parse_board};
use npuzzle::{ParseError, parse_tile_moves};
use thiserror::Error;

use crate::solves::{Ending, Leg, Mode, MoveCounts, Solve};
use crate::{MAX_SIDE, MIN_SIDE, civil_date, day_of, days_in_month};

/// The columns an export writes, in order; an import needs the first [`REQUIRED_COLUMNS`].
pub const COLUMNS: [&str; 14] = [
    "finished_at",
    "size",
    "mode",
    "result",
    "time_ms",
    "moves",
    "moves_mtm",
    "scramble",
    "solution",
    "helped",
    "photo",
    "shortest",
    "times_ms",
    "boards_before",
];

/// How many of [`COLUMNS`] a file must begin with.
pub const REQUIRED_COLUMNS: usize = 6;

/// The largest file an import reads: 256 MiB.
pub const MAX_BYTES: usize = 256 << 20;

/// The most solves one import reads.
pub const MAX_ROWS: usize = 1_000_000;

/// The longest time a solve may have: a year (365 days), in milliseconds.
pub const MAX_TIME_MS: u64 = 365 * MS_PER_DAY as u64;

/// How far past the importing device's clock a solve's `finished_at` may be: a day (another
/// device's clock may run ahead); later, it is a date from the future.
pub const MAX_AHEAD_MS: i64 = MS_PER_DAY;

/// The most slides a second a person makes, sustained: as challenge codes, 30 (a slide moves
/// one or more tiles in one line: one tap, key or hover, counted once, as in MTM).
pub const MAX_SLIDES_PER_SECOND: u64 = 30;

/// The fewest slides whose pace is judged against [`MAX_SLIDES_PER_SECOND`], as challenge
/// codes: 10.
pub const PACE_MIN_SLIDES: u64 = 10;

const MS_PER_DAY: i64 = 86_400_000;

/// Why an import was refused (nothing was imported).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ImportError {
    /// The file is larger than an import reads ([`MAX_BYTES`]).
    #[error("the file is {bytes} bytes; an import reads at most {limit} bytes")]
    TooLarge {
        /// The file's size.
        bytes: usize,
        /// The most read.
        limit: usize,
    },
    /// A line that cannot be read.
    #[error("line {line}: {problem}")]
    Line {
        /// The line, counting from 1 (the header is line 1); for a row spread over several
        /// lines by a quoted line break, the line it begins on.
        line: usize,
        /// What is wrong with it.
        problem: Problem,
    },
}

impl ImportError {
    /// The line refused, if the refusal is about one.
    pub fn line(&self) -> Option<usize> {
        match self {
            ImportError::TooLarge { .. } => None,
            ImportError::Line { line, .. } => Some(*line),
        }
    }
}

/// What is wrong with a line of an import.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    /// The file is empty: there is no header.
    #[error("the file is empty: it needs a header, such as {}", COLUMNS[..REQUIRED_COLUMNS].join(","))]
    NoHeader,
    /// The header does not begin with the required columns.
    #[error("the header must begin with {required}, but it is \"{0}\"", required = COLUMNS[..REQUIRED_COLUMNS].join(","))]
    WrongHeader(String),
    /// A column this version does not know.
    #[error("\"{0}\" is not a column; the columns are {all}", all = COLUMNS.join(", "))]
    UnknownColumn(String),
    /// A column named twice.
    #[error("the column \"{0}\" is named twice")]
    DuplicateColumn(String),
    /// A row with more or fewer fields than the header has columns.
    #[error("{found} fields where the header has {expected} columns")]
    FieldCount {
        /// The header's columns.
        expected: usize,
        /// The row's fields.
        found: usize,
    },
    /// A quoted field that is never closed.
    #[error("a quote opens a field that is never closed")]
    UnclosedQuote,
    /// A quote inside a field that is not quoted, or text after a closing quote.
    #[error(
        "a quote in the middle of a field: a field with a quote must be quoted whole, its quotes doubled"
    )]
    StrayQuote,
    /// The rows go past the most an import reads ([`MAX_ROWS`]).
    #[error("more than {0} solves: an import reads at most {0}")]
    TooManyRows(usize),
    /// A `finished_at` that is not an RFC 3339 date and time.
    #[error("\"{0}\" is not a date and time such as 2026-12-05T09:31:33.365Z")]
    BadDate(String),
    /// A `size` that is not width x height.
    #[error("\"{0}\" is not a size such as 4x4 (width x height)")]
    BadSize(String),
    /// A size the app does not play.
    #[error("a {0} board: the app plays sides from {MIN_SIDE} to {MAX_SIDE}")]
    SizeOutOfRange(String),
    /// An empty `mode`.
    #[error("the mode is empty")]
    NoMode,
    /// A `result` other than `solved` or `dnf`.
    #[error("\"{0}\" is not a result: a result is solved or dnf")]
    BadResult(String),
    /// A field that should be a whole number and is not.
    #[error("{column} is \"{value}\", not a whole number")]
    NotANumber {
        /// The column.
        column: &'static str,
        /// What it holds.
        value: String,
    },
    /// A `helped` other than `true` or `false`.
    #[error("helped is \"{0}\": it is true or false")]
    BadHelped(String),
    /// A solved result with a time of 0.
    #[error("a solve with a time of 0 ms: a solved result takes some time")]
    ZeroTime,
    /// A time longer than [`MAX_TIME_MS`].
    #[error("a time of {0} ms is longer than a year")]
    TimeTooLong(u64),
    /// A `solution` that cannot be read.
    #[error("the solution cannot be read: {0}")]
    BadSolution(NotationError),
    /// A `scramble` that is not a board.
    #[error("the scramble is not a board: {0}")]
    BadScramble(String),
    /// A `scramble` of another size than the row's.
    #[error("the scramble is a {found} board, but the size is {size}")]
    ScrambleSize {
        /// The row's size.
        size: String,
        /// The scramble's.
        found: String,
    },
    /// Move counts that the solution does not have.
    #[error("{column} is {stated}, but the solution has {counted}")]
    CountDisagrees {
        /// The column that disagrees.
        column: &'static str,
        /// What it says.
        stated: u32,
        /// The solution's count.
        counted: usize,
    },
    /// An MTM count of 0, or above the STM count, which cannot be.
    #[error("moves_mtm is {mtm} for {stm} moves: it is from 1 to the moves")]
    MtmOutOfRange {
        /// The MTM count.
        mtm: u32,
        /// The STM count.
        stm: u32,
    },
    /// A solution that runs off the scramble's board.
    #[error("the solution's move {0} runs off the board")]
    OffTheBoard(usize),
    /// A solved result whose solution does not solve its scramble.
    #[error("the result is solved, but the solution does not solve the scramble")]
    NotSolved,
    /// A `times_ms` whose count is not the moves'.
    #[error("times_ms has {found} times for {moves} moves")]
    TimesCount {
        /// The times.
        found: usize,
        /// The moves.
        moves: u32,
    },
    /// A run whose last board's solution has more moves than the whole run.
    #[error(
        "{column} is {stated} for the whole run, but the solution of its last board alone has {counted}"
    )]
    RunCountShort {
        /// The column that is short.
        column: &'static str,
        /// What it says.
        stated: u32,
        /// The last board's count.
        counted: usize,
    },
    /// A board of `boards_before` that cannot be taken (its number from 1, and why).
    #[error("board {board} of boards_before: {why}")]
    BadBoardBefore {
        /// Which board, from 1.
        board: usize,
        /// What is wrong with it.
        why: String,
    },
    /// Boards before the last whose moves and the last board's do not make the run's count.
    #[error("moves is {stated}, but boards_before and the solution have {counted}")]
    BoardsBeforeCount {
        /// The `moves` column.
        stated: u32,
        /// The boards' moves.
        counted: usize,
    },
    /// A solve that ends after the importing device's clock, by more than [`MAX_AHEAD_MS`].
    #[error("finished_at is {0}, which has not come yet: a solve cannot end in the future")]
    InTheFuture(String),
    /// Moves faster than any person plays ([`MAX_SLIDES_PER_SECOND`]).
    #[error(
        "{moves} moves in {time_ms} ms is faster than anyone plays: more than {MAX_SLIDES_PER_SECOND} slides a second"
    )]
    TooFast {
        /// The moves (STM).
        moves: u32,
        /// The time.
        time_ms: u64,
    },
}

/// The solves as CSV: the header, then one row a solve, in order, each line ending in `\n`.
pub fn export_csv(solves: &[Solve]) -> String {
    let mut text = COLUMNS.join(",");
    text.push('\n');
    for solve in solves {
        let fields = export_fields(solve);
        for (index, field) in fields.iter().enumerate() {
            if index > 0 {
                text.push(',');
            }
            push_field(&mut text, field);
        }
        text.push('\n');
    }
    text
}

/// A solve's fields, in the order of [`COLUMNS`]. A run of several boards writes the run's
/// counts, and its last board's scramble, solution, shortest and times.
fn export_fields(solve: &Solve) -> [String; 14] {
    let moves_mtm = solve.mtm().known().map_or(String::new(), |m| m.to_string());
    let solution = match moves_from_str(&solve.moves) {
        Ok(moves) if solve.counted.is_none() || solve.is_run() => format_tile_moves(&moves),
        _ => String::new(),
    };
    let scramble = format_scramble(solve.width, solve.height, &solve.start);
    [
        format_timestamp(solve.finished_at_ms),
        format!("{}x{}", solve.width, solve.height),
        solve.mode.to_string(),
        match solve.result {
            Ending::Solved => "solved".into(),
            Ending::Dnf => "dnf".into(),
        },
        solve.time_ms.to_string(),
        solve.stm().to_string(),
        moves_mtm,
        scramble,
        solution,
        solve.helped.to_string(),
        solve.photo.clone(),
        solve.shortest.map_or(String::new(), |s| s.to_string()),
        format_times(&solve.times_ms),
        export_legs(&solve.legs),
    ]
}

/// A run's boards before its last, for `boards_before`: `scramble | solution | times ; …`.
fn export_legs(legs: &[Leg]) -> String {
    let leg = |leg: &Leg| {
        let moves = moves_from_str(&leg.moves).unwrap_or_default();
        format!(
            "{} | {} | {}",
            format_scramble(leg.width, leg.height, &leg.start),
            format_tile_moves(&moves),
            format_times(&leg.times_ms)
        )
    };
    legs.iter().map(leg).collect::<Vec<_>>().join(" ; ")
}

/// Appends a field, quoted (its quotes doubled) when it holds a comma, a quote or a line break.
fn push_field(text: &mut String, field: &str) {
    if field.contains([',', '"', '\n', '\r']) {
        text.push('"');
        text.push_str(&field.replace('"', "\"\""));
        text.push('"');
    } else {
        text.push_str(field);
    }
}

/// A time in milliseconds since 1970 as RFC 3339 in UTC, to the millisecond:
/// `2026-12-05T09:31:33.365Z` (years 0 to 9999 read back).
pub fn format_timestamp(ms: i64) -> String {
    let (day, in_day) = (ms.div_euclid(MS_PER_DAY), ms.rem_euclid(MS_PER_DAY));
    let (year, month, date) = civil_date(day);
    let (seconds, millis) = (in_day / 1000, in_day % 1000);
    format!(
        "{year:04}-{month:02}-{date:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// Reads an RFC 3339 date and time (`2026-12-05T09:31:33.365Z`, `2026-12-05T10:31:33+01:00`;
/// `t`, `z` and a space for the `T` are taken too) as milliseconds since 1970; digits past
/// the millisecond are dropped. `None` if it is not one.
pub fn parse_timestamp(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let number = |from: usize, to: usize| -> Option<i64> {
        let digits = text.get(from..to)?;
        digits.bytes().all(|b| b.is_ascii_digit()).then_some(())?;
        digits.parse().ok()
    };
    let (year, month, date) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    let separators = [bytes[4], bytes[7], bytes[13], bytes[16]] == *b"--::";
    if !separators || !matches!(bytes[10], b'T' | b't' | b' ') {
        return None;
    }
    let (millis, rest) = fraction(&text[19..])?;
    let offset_minutes = offset(rest)?;
    let month_ok = (1..=12).contains(&month);
    if !month_ok || date < 1 || date > i64::from(days_in_month(year, month as u32)) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let day = day_of(year, month as u32, date as u32);
    let seconds = ((hour * 60 + minute - offset_minutes) * 60) + second;
    Some(day * MS_PER_DAY + seconds * 1000 + millis)
}

/// The milliseconds of a fraction of a second (`.365`, or nothing), and the text after it.
fn fraction(text: &str) -> Option<(i64, &str)> {
    let Some(fraction) = text.strip_prefix('.') else {
        return Some((0, text));
    };
    let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let millis = fraction[..digits.min(3)]
        .bytes()
        .fold(0, |n, b| n * 10 + i64::from(b - b'0'));
    Some((
        millis * 10_i64.pow(3 - digits.min(3) as u32),
        &fraction[digits..],
    ))
}

/// An offset from UTC in minutes: `Z`, `z`, or `+hh:mm` / `-hh:mm`.
fn offset(text: &str) -> Option<i64> {
    if text == "Z" || text == "z" {
        return Some(0);
    }
    let bytes = text.as_bytes();
    let sign = match bytes.first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    if bytes.len() != 6 || bytes[3] != b':' {
        return None;
    }
    let hours: i64 = text.get(1..3)?.parse().ok()?;
    let minutes: i64 = text.get(4..6)?.parse().ok()?;
    let digits = text[1..3]
        .bytes()
        .chain(text[4..6].bytes())
        .all(|b| b.is_ascii_digit());
    (digits && hours < 24 && minutes < 60).then_some(sign * (hours * 60 + minutes))
}

/// Reads a CSV export (or any file with its first six columns) back into solves, in order;
/// `now_ms` is the clock of the device importing (ms since 1970), for dates from the future.
///
/// # Errors
///
/// An [`ImportError`], and no solve, when the file is larger than [`MAX_BYTES`], or holds
/// more than [`MAX_ROWS`] rows, or a line cannot be read or is not a solve a person could have
/// played: its line number and what is wrong.
///
/// ```
/// use snapslide_game::solves_csv::{export_csv, import_csv};
///
/// let text = "finished_at,size,mode,result,time_ms,moves\n\
///             2026-12-05T09:31:33.365Z,4x4,random,solved,14210,57\n";
/// let now = 1_796_500_000_000; // 2026-12-05T19:46:40Z
/// let solves = import_csv(text, now).unwrap();
/// assert_eq!((solves[0].time_ms, solves[0].stm()), (14_210, 57));
/// assert_eq!(import_csv(&export_csv(&solves), now).unwrap(), solves);
///
/// let error = import_csv(&text.replace("solved", "won"), now).unwrap_err();
/// assert_eq!(error.to_string(), "line 2: \"won\" is not a result: a result is solved or dnf");
/// ```
pub fn import_csv(text: &str, now_ms: i64) -> Result<Vec<Solve>, ImportError> {
    import_limited(text, MAX_BYTES, MAX_ROWS, now_ms)
}

/// [`import_csv`] with other limits (the tests' small ones).
fn import_limited(
    text: &str,
    max_bytes: usize,
    max_rows: usize,
    now_ms: i64,
) -> Result<Vec<Solve>, ImportError> {
    if text.len() > max_bytes {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            limit: max_bytes,
        });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader {
        text,
        at: 0,
        line: 1,
    };
    let at_line = |line| move |problem| ImportError::Line { line, problem };
    let (line, header) = match reader.next_record() {
        None => return Err(at_line(1)(Problem::NoHeader)),
        Some(record) => record?,
    };
    let columns = read_header(&header).map_err(at_line(line))?;
    let mut solves = Vec::new();
    while let Some(record) = reader.next_record() {
        let (line, fields) = record?;
        if solves.len() == max_rows {
            return Err(at_line(line)(Problem::TooManyRows(max_rows)));
        }
        if fields.len() != header.len() {
            let (expected, found) = (header.len(), fields.len());
            return Err(at_line(line)(Problem::FieldCount { expected, found }));
        }
        solves.push(
            read_row(
                &Row {
                    fields: &fields,
                    columns: &columns,
                },
                now_ms,
            )
            .map_err(at_line(line))?,
        );
    }
    Ok(solves)
}

/// What an import adds to a history: the solves it does not have yet, and how many it has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewSolves {
    /// The solves to add, in the file's order.
    pub added: Vec<Solve>,
    /// The solves skipped: already in the history, or earlier in the file.
    pub already_there: usize,
}

impl NewSolves {
    /// What was done, for the player: "3 solves added, 30 already there", "1 solve added".
    pub fn summary(&self) -> String {
        let added = format!("{} added", count_solves(self.added.len()));
        match self.already_there {
            0 => added,
            skipped => format!("{added}, {skipped} already there"),
        }
    }
}

/// The solves of an import that `history` does not have: a solve with the same
/// [`Solve::identity`] as one in the history, or one earlier in `imported`, is skipped.
pub fn new_solves(history: &[Solve], imported: Vec<Solve>) -> NewSolves {
    let mut seen: std::collections::HashSet<_> = history.iter().map(Solve::identity).collect();
    let new: Vec<bool> = imported
        .iter()
        .map(|solve| seen.insert(solve.identity()))
        .collect();
    NewSolves {
        already_there: new.iter().filter(|&&new| !new).count(),
        added: imported
            .into_iter()
            .zip(new)
            .filter_map(|(solve, new)| new.then_some(solve))
            .collect(),
    }
}

/// A number of solves, for the player: "1 solve", "30 solves".
pub fn count_solves(count: usize) -> String {
    match count {
        1 => "1 solve".into(),
        count => format!("{count} solves"),
    }
}

/// Where each optional column is in a file's rows, by its index in [`COLUMNS`].
struct Columns([Option<usize>; COLUMNS.len()]);

/// The columns a header names: the required ones first, then known ones at most once each.
fn read_header(names: &[String]) -> Result<Columns, Problem> {
    let names: Vec<&str> = names.iter().map(|name| name.trim()).collect();
    if names.len() < REQUIRED_COLUMNS || names[..REQUIRED_COLUMNS] != COLUMNS[..REQUIRED_COLUMNS] {
        return Err(Problem::WrongHeader(names.join(",")));
    }
    let mut columns = Columns([None; COLUMNS.len()]);
    for (at, &name) in names.iter().enumerate() {
        let Some(index) = COLUMNS.iter().position(|&column| column == name) else {
            return Err(Problem::UnknownColumn(name.into()));
        };
        if columns.0[index].replace(at).is_some() {
            return Err(Problem::DuplicateColumn(name.into()));
        }
    }
    Ok(columns)
}

/// One row's fields, read by column name.
struct Row<'a> {
    fields: &'a [String],
    columns: &'a Columns,
}

impl Row<'_> {
    /// The field of a column, trimmed unless it is the photo; empty when the file has no such
    /// column.
    fn get(&self, column: &str) -> &str {
        let index = COLUMNS
            .iter()
            .position(|&c| c == column)
            .expect("a known column");
        let field = self.columns.0[index].map_or("", |at| self.fields[at].as_str());
        if column == "photo" {
            field
        } else {
            field.trim()
        }
    }

    /// A column's whole number, `None` when it is empty.
    fn number(&self, column: &'static str) -> Result<Option<u64>, Problem> {
        let value = self.get(column);
        if value.is_empty() {
            return Ok(None);
        }
        let digits = value.bytes().all(|b| b.is_ascii_digit());
        match value.parse::<u64>() {
            Ok(number) if digits => Ok(Some(number)),
            _ => Err(Problem::NotANumber {
                column,
                value: value.into(),
            }),
        }
    }

    /// A column's whole number up to `u32::MAX`, `None` when it is empty.
    fn small_number(&self, column: &'static str) -> Result<Option<u32>, Problem> {
        let too_large = || Problem::NotANumber {
            column,
            value: self.get(column).into(),
        };
        self.number(column)?
            .map(|n| u32::try_from(n).map_err(|_| too_large()))
            .transpose()
    }

    /// A required column's whole number up to `u32::MAX` (empty is not one).
    fn required_number(&self, column: &'static str) -> Result<u32, Problem> {
        let empty = || Problem::NotANumber {
            column,
            value: String::new(),
        };
        self.small_number(column)?.ok_or_else(empty)
    }
}

/// A row as a solve (one a person could have played by `now_ms`).
fn read_row(row: &Row, now_ms: i64) -> Result<Solve, Problem> {
    let date = row.get("finished_at");
    let finished_at_ms = parse_timestamp(date).ok_or_else(|| Problem::BadDate(date.into()))?;
    if finished_at_ms > now_ms.saturating_add(MAX_AHEAD_MS) {
        return Err(Problem::InTheFuture(date.into()));
    }
    let (width, height) = read_size(row.get("size"))?;
    let mode = match row.get("mode") {
        "" => return Err(Problem::NoMode),
        key => Mode::from(key.to_string()),
    };
    let result = match row.get("result") {
        "solved" => Ending::Solved,
        "dnf" => Ending::Dnf,
        other => return Err(Problem::BadResult(other.into())),
    };
    let time_ms = row.number("time_ms")?.ok_or(Problem::NotANumber {
        column: "time_ms",
        value: String::new(),
    })?;
    if time_ms == 0 && result == Ending::Solved {
        return Err(Problem::ZeroTime);
    }
    if time_ms > MAX_TIME_MS {
        return Err(Problem::TimeTooLong(time_ms));
    }
    let run = mode.boards() > 1;
    let (start, moves, counted) = read_moves(row, (width, height), result, run)?;
    let helped = match row.get("helped") {
        "" | "false" => false,
        "true" => true,
        other => return Err(Problem::BadHelped(other.into())),
    };
    let solve = Solve {
        finished_at_ms,
        width,
        height,
        mode,
        start,
        times_ms: read_times(row)?,
        moves,
        time_ms,
        result,
        helped,
        photo: row.get("photo").into(),
        shortest: row.small_number("shortest")?,
        counted,
        legs: read_legs(row.get("boards_before"))?,
    };
    check_legs_count(&solve)?;
    check_times_count(&solve)?;
    check_pace(&solve)?;
    Ok(solve)
}

/// Refuses times that are not one for each move kept: for a solve whose moves are not kept,
/// one a move counted; for a run without its last board's moves (as an earlier version
/// exported it), at most one a move counted.
fn check_times_count(solve: &Solve) -> Result<(), Problem> {
    let found = solve.times_ms.len();
    let (moves, fits) = if !solve.moves.is_empty() || solve.counted.is_none() {
        (solve.moves.len(), found == solve.moves.len())
    } else if solve.is_run() {
        (solve.stm(), found <= solve.stm())
    } else {
        (solve.stm(), found == solve.stm())
    };
    match found == 0 || fits {
        true => Ok(()),
        false => Err(Problem::TimesCount {
            found,
            moves: moves as u32,
        }),
    }
}

/// Refuses a solve of at least [`PACE_MIN_SLIDES`] slides at more than
/// [`MAX_SLIDES_PER_SECOND`]: its slides are its MTM or, unknown, the fewest its moves take.
fn check_pace(solve: &Solve) -> Result<(), Problem> {
    let line = usize::from(solve.width.max(solve.height))
        .saturating_sub(1)
        .max(1);
    let slides = solve.mtm().known().unwrap_or(solve.stm().div_ceil(line)) as u64;
    let too_fast =
        slides >= PACE_MIN_SLIDES && slides * 1000 > MAX_SLIDES_PER_SECOND * solve.time_ms;
    match too_fast {
        true => Err(Problem::TooFast {
            moves: solve.stm() as u32,
            time_ms: solve.time_ms,
        }),
        false => Ok(()),
    }
}

/// A size, `4x4` (width x height), with sides the app plays.
fn read_size(text: &str) -> Result<(u8, u8), Problem> {
    let bad = || Problem::BadSize(text.into());
    let (width, height) = text.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let side = |side: &str| match !side.is_empty() && side.bytes().all(|b| b.is_ascii_digit()) {
        true => side
            .parse::<u32>()
            .map_err(|_| Problem::SizeOutOfRange(text.into())),
        false => Err(bad()),
    };
    let (width, height) = (side(width)?, side(height)?);
    let playable = |side: u32| (MIN_SIDE as u32..=MAX_SIDE as u32).contains(&side);
    if !playable(width) || !playable(height) {
        return Err(Problem::SizeOutOfRange(text.into()));
    }
    Ok((width as u8, height as u8))
}

/// A row's start board, its moves (as the gap's letters) and, when they are not all its moves
/// (a run's last board's, or none), its counts: the solution checked against the counts and
/// the scramble.
fn read_moves(
    row: &Row,
    (width, height): (u8, u8),
    result: Ending,
    run: bool,
) -> Result<(Vec<u8>, String, Option<MoveCounts>), Problem> {
    let stm = row.required_number("moves")?;
    let mtm = row.small_number("moves_mtm")?;
    if let Some(mtm) = mtm.filter(|&mtm| mtm > stm || (mtm == 0 && stm > 0)) {
        return Err(Problem::MtmOutOfRange { mtm, stm });
    }
    let board = read_scramble(row.get("scramble"), width, height)?;
    let solution = row.get("solution");
    let start = board
        .as_ref()
        .map_or(Vec::new(), |board| board.tiles().to_vec());
    let counted = Some(MoveCounts { stm, mtm });
    if solution.is_empty() && (stm > 0 || run) {
        return Ok((start, String::new(), counted));
    }
    let moves = parse_tile_moves(solution).map_err(Problem::BadSolution)?;
    let (count, mtm_count) = (moves.len(), mtm_length(&moves));
    let problem = |column, stated, counted| match run {
        true => Problem::RunCountShort {
            column,
            stated,
            counted,
        },
        false => Problem::CountDisagrees {
            column,
            stated,
            counted,
        },
    };
    // A run's counts are its boards', of which the solution is the last's.
    let agrees = |stated: u32, counted: usize| match run {
        true => counted <= stated as usize,
        false => counted == stated as usize,
    };
    if !agrees(stm, count) {
        return Err(problem("moves", stm, count));
    }
    if let Some(mtm) = mtm.filter(|&mtm| !agrees(mtm, mtm_count)) {
        return Err(problem("moves_mtm", mtm, mtm_count));
    }
    if let Some(mut board) = board {
        board
            .apply_all(&moves)
            .map_err(|at| Problem::OffTheBoard(at + 1))?;
        if result == Ending::Solved && !board.is_goal() {
            return Err(Problem::NotSolved);
        }
    }
    Ok((start, moves_to_string(&moves), counted.filter(|_| run)))
}

/// The scramble's board, when the row has one, of the row's size.
fn read_scramble(text: &str, width: u8, height: u8) -> Result<Option<npuzzle::Board>, Problem> {
    if text.is_empty() {
        return Ok(None);
    }
    let board = parse_board(text).map_err(|e: ParseError| Problem::BadScramble(e.to_string()))?;
    if (board.width(), board.height()) != (width.into(), height.into()) {
        let found = format!("{}x{}", board.width(), board.height());
        return Err(Problem::ScrambleSize {
            size: format!("{width}x{height}"),
            found,
        });
    }
    Ok(Some(board))
}

/// A run's boards before its last, from `boards_before`: each scramble, its solution, which
/// must solve it, and a time for each of its moves.
fn read_legs(text: &str) -> Result<Vec<Leg>, Problem> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    (text.split(';').enumerate())
        .map(|(index, leg)| {
            read_leg(leg).map_err(|why| Problem::BadBoardBefore {
                board: index + 1,
                why,
            })
        })
        .collect()
}

/// One board of `boards_before`: `scramble | solution | times`.
fn read_leg(text: &str) -> Result<Leg, String> {
    let parts: Vec<&str> = text.split('|').map(str::trim).collect();
    let [scramble, solution, times] = parts[..] else {
        return Err("it is not scramble | solution | times_ms".into());
    };
    let board = parse_board(scramble).map_err(|e| format!("the scramble is not a board: {e}"))?;
    let moves = parse_tile_moves(solution).map_err(|e| format!("the solution: {e}"))?;
    let mut end = board.clone();
    end.apply_all(&moves)
        .map_err(|at| format!("the solution's move {} runs off the board", at + 1))?;
    if !end.is_goal() {
        return Err("the solution does not solve the scramble".into());
    }
    let times = parse_times(times).ok_or("its times are not whole numbers")?;
    if times.len() != moves.len() {
        return Err(format!("{} times for {} moves", times.len(), moves.len()));
    }
    Ok(Leg {
        width: board.width() as u8,
        height: board.height() as u8,
        start: board.tiles().to_vec(),
        moves: moves_to_string(&moves),
        times_ms: times,
    })
}

/// Refuses boards before the last whose moves, with the last board's, are not the run's count.
fn check_legs_count(solve: &Solve) -> Result<(), Problem> {
    if solve.legs.is_empty() {
        return Ok(());
    }
    let counted = solve.moves_on_record();
    match counted == solve.stm() {
        true => Ok(()),
        false => Err(Problem::BoardsBeforeCount {
            stated: solve.stm() as u32,
            counted,
        }),
    }
}

/// The moves' times (their count is checked apart: [`check_times_count`]).
fn read_times(row: &Row) -> Result<Vec<u32>, Problem> {
    let text = row.get("times_ms");
    parse_times(text).ok_or_else(|| Problem::NotANumber {
        column: "times_ms",
        value: text.into(),
    })
}

/// Times in milliseconds separated by spaces, each digits only; `None` if one is not.
fn parse_times(text: &str) -> Option<Vec<u32>> {
    (text.split_ascii_whitespace())
        .map(|time| match time.bytes().all(|b| b.is_ascii_digit()) {
            true => time.parse::<u32>().ok(),
            false => None,
        })
        .collect()
}

/// Times in milliseconds separated by spaces, as [`parse_times`] reads them.
fn format_times(times: &[u32]) -> String {
    let times: Vec<String> = times.iter().map(u32::to_string).collect();
    times.join(" ")
}

/// A start board in the slash form; empty when it is not a board (a solve kept as counts).
fn format_scramble(width: u8, height: u8, start: &[u8]) -> String {
    npuzzle::Board::new(width.into(), height.into(), start.to_vec())
        .map_or(String::new(), |board| format_board(&board))
}

/// Reads RFC 4180 records: fields separated by commas, records by `\n` or `\r\n`, a field
/// quoted when it holds those or a quote (doubled inside). Empty lines are skipped.
struct Reader<'a> {
    text: &'a str,
    /// The byte where the next record begins.
    at: usize,
    /// The line it begins on, from 1.
    line: usize,
}

impl Reader<'_> {
    /// The next record and the line it begins on; `None` at the end of the text.
    fn next_record(&mut self) -> Option<Result<(usize, Vec<String>), ImportError>> {
        let bytes = self.text.as_bytes();
        while line_end(bytes, self.at).is_some() {
            self.at += usize::from(bytes[self.at] == b'\r') + 1;
            self.line += 1;
        }
        if self.at >= bytes.len() {
            return None;
        }
        let line = self.line;
        let mut fields = Vec::new();
        loop {
            let (field, next) = match self.field() {
                Ok(read) => read,
                Err(problem) => return Some(Err(ImportError::Line { line, problem })),
            };
            fields.push(field);
            match bytes.get(next) {
                Some(b',') => self.at = next + 1,
                _ => {
                    let newline = usize::from(bytes.get(next) == Some(&b'\r')) + 1;
                    self.at = (next + newline).min(bytes.len());
                    self.line += 1;
                    return Some(Ok((line, fields)));
                }
            }
        }
    }

    /// The field at `self.at` and the byte after it (a comma, a line's end or the text's).
    fn field(&mut self) -> Result<(String, usize), Problem> {
        let bytes = self.text.as_bytes();
        if bytes.get(self.at) != Some(&b'"') {
            let end = (self.at..bytes.len())
                .find(|&i| bytes[i] == b',' || line_end(bytes, i) == Some(i))
                .unwrap_or(bytes.len());
            let field = &self.text[self.at..end];
            return match field.contains('"') {
                true => Err(Problem::StrayQuote),
                false => Ok((field.to_string(), end)),
            };
        }
        let mut field = String::new();
        let mut from = self.at + 1;
        loop {
            let quote = (from..bytes.len())
                .find(|&i| bytes[i] == b'"')
                .ok_or(Problem::UnclosedQuote)?;
            let piece = &self.text[from..quote];
            self.line += piece.bytes().filter(|&b| b == b'\n').count();
            field.push_str(piece);
            if bytes.get(quote + 1) == Some(&b'"') {
                field.push('"');
                from = quote + 2;
                continue;
            }
            let next = quote + 1;
            let ends =
                next == bytes.len() || bytes[next] == b',' || line_end(bytes, next) == Some(next);
            return if ends {
                Ok((field, next))
            } else {
                Err(Problem::StrayQuote)
            };
        }
    }
}

/// `Some(at)` when a line ends at `at` (a `\n`, or a `\r` before one); `None` otherwise (the
/// text's end is looked for apart).
fn line_end(bytes: &[u8], at: usize) -> Option<usize> {
    match (bytes.get(at), bytes.get(at + 1)) {
        (Some(b'\n'), _) | (Some(b'\r'), Some(b'\n')) => Some(at),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
