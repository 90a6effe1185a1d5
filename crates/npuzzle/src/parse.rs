//! The text formats, with errors that point at a line and column.
//!
//! Three layouts are accepted; blank lines and `#` comments are ignored in all of them.
//! - The course format: a header line, then one line per row. The header is the tile count
//!   (8, 15, 24…) or the side (3, 4, 5…), whichever the rows agree with, or `WxH` for a rectangle.
//! - Rows alone, one line each, all of one length: any width × height.
//! - One line: `1 0 3 4 2 5 7 8 6` (a square board is implied), or rows separated by `/`:
//!   the speedsolvers' slash form, `8 2 0/4 6 1/3 7 5`. Slashes may also end lines, or start
//!   them, and a header may come first.

use std::fmt;

use thiserror::Error;

use crate::board::{Board, MAX_SIDE, MAX_TILES, MIN_SIDE};

/// What is wrong with a text board, and where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// The line, counting from 1.
    pub line: usize,
    /// The column in characters, counting from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// The ways a text board can be wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// Nothing but blank lines and comments.
    Empty,
    /// A word that is not a whole number.
    NotANumber(String),
    /// A number below zero.
    Negative(String),
    /// A number past the largest tile.
    OutOfRange {
        /// The number as written.
        text: String,
        /// The largest number allowed.
        max: usize,
    },
    /// A tile that appears a second time, and so leaves another one missing.
    Duplicate {
        /// The tile.
        tile: usize,
        /// Where it appeared first (line, column).
        first: (usize, usize),
        /// A tile that is then missing.
        missing: usize,
    },
    /// A row of the wrong length.
    RowLength {
        /// The row, counting from 1.
        row: usize,
        /// Numbers expected.
        expected: usize,
        /// Numbers found.
        found: usize,
    },
    /// Too many or too few rows.
    RowCount {
        /// Rows expected.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// A header that the rows do not agree with.
    HeaderMismatch {
        /// The header as written.
        header: String,
        /// What the rows make.
        rows: String,
    },
    /// A board with a side under 2.
    TooSmall(String),
    /// A board with a side over 16 or more than 255 tiles.
    TooLarge(String),
    /// One-line numbers that do not make a square.
    NotSquare(usize),
    /// A `/` where a row was expected.
    EmptyRow,
    /// A benchmark line without an id, a length and tiles.
    NotABenchmarkLine,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseErrorKind::*;
        match self {
            Empty => write!(f, "no board found: the input is empty"),
            NotANumber(text) => write!(f, "'{text}' is not a number"),
            Negative(text) => write!(f, "{text} is negative: tiles are 0 (the blank) and up"),
            OutOfRange { text, max } => {
                write!(
                    f,
                    "{text} is out of range: numbers go from 0 (the blank) to {max}"
                )
            }
            Duplicate {
                tile,
                first,
                missing,
            } => write!(
                f,
                "tile {tile} appears twice (first at line {}, column {}), and tile {missing} is missing",
                first.0, first.1
            ),
            RowLength {
                row,
                expected,
                found,
            } => write!(f, "row {row} has {found} numbers, expected {expected}"),
            RowCount { expected, found } => {
                write!(f, "found {found} rows, expected {expected}")
            }
            HeaderMismatch { header, rows } => {
                write!(f, "the header says {header}, but the rows make {rows}")
            }
            TooSmall(what) => write!(
                f,
                "{what} is too small: each side needs at least {MIN_SIDE} cells"
            ),
            TooLarge(what) => write!(
                f,
                "{what} is too large: sides go up to {MAX_SIDE} and tiles up to {MAX_TILES}"
            ),
            NotSquare(count) => write!(
                f,
                "{count} numbers on one line do not make a square board (use / between rows for a rectangle)"
            ),
            EmptyRow => write!(f, "an empty row: expected numbers between the slashes"),
            NotABenchmarkLine => write!(f, "expected `id optimal_length tiles…`"),
        }
    }
}

/// A word of the input and where it stands.
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

impl Token<'_> {
    fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            line: self.line,
            column: self.column,
            kind,
        }
    }
}

/// A line with something on it: its words.
struct Line<'a> {
    tokens: Vec<Token<'a>>,
}

/// Splits text into lines of words: white space and commas separate, `/` stands alone, `#`
/// starts a comment.
fn tokenize<'a>(text: &'a str) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut tokens = Vec::new();
        let mut start: Option<(usize, usize)> = None; // (byte, column)
        let mut column = 0;
        let flush =
            |start: &mut Option<(usize, usize)>, end: usize, tokens: &mut Vec<Token<'a>>| {
                if let Some((byte, col)) = start.take() {
                    tokens.push(Token {
                        text: &line[byte..end],
                        line: index + 1,
                        column: col,
                    });
                }
            };
        for (byte, ch) in line.char_indices() {
            column += 1;
            if ch == '#' {
                flush(&mut start, byte, &mut tokens);
                break;
            } else if ch.is_whitespace() || ch == ',' {
                flush(&mut start, byte, &mut tokens);
            } else if ch == '/' {
                flush(&mut start, byte, &mut tokens);
                tokens.push(Token {
                    text: &line[byte..byte + 1],
                    line: index + 1,
                    column,
                });
            } else if start.is_none() {
                start = Some((byte, column));
            }
        }
        flush(&mut start, line.len(), &mut tokens);
        if !tokens.is_empty() {
            lines.push(Line { tokens });
        }
    }
    lines
}

/// Where the input ends, for errors about something missing at the end.
fn end_of(text: &str) -> (usize, usize) {
    let line = text.lines().count().max(1);
    let column = text.lines().last().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A header line: `n` (tiles or side) or `WxH`.
enum Header {
    Count(usize),
    Shape(usize, usize),
}

fn parse_header(token: &Token) -> Result<Header, ParseError> {
    if let Some((w, h)) = token.text.split_once(['x', 'X'])
        && let (Ok(w), Ok(h)) = (w.parse::<usize>(), h.parse::<usize>())
    {
        return Ok(Header::Shape(w, h));
    }
    let value = match parse_number(token, usize::MAX) {
        Err(ParseError {
            kind: ParseErrorKind::OutOfRange { .. },
            ..
        }) => usize::MAX,
        other => other?,
    };
    if value > MAX_SIDE * MAX_SIDE {
        return Err(token.error(ParseErrorKind::TooLarge(format!("a board of {value}"))));
    }
    Ok(Header::Count(value))
}

/// Reads a whole number no larger than `max`.
fn parse_number(token: &Token, max: usize) -> Result<usize, ParseError> {
    let text = token.text;
    let digits = text.strip_prefix('+').unwrap_or(text);
    if let Some(rest) = text.strip_prefix('-')
        && !rest.is_empty()
        && rest.chars().all(|c| c.is_ascii_digit())
    {
        return Err(token.error(ParseErrorKind::Negative(text.to_string())));
    }
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(token.error(ParseErrorKind::NotANumber(text.to_string())));
    }
    match digits.parse::<usize>() {
        Ok(value) if value <= max => Ok(value),
        _ => Err(token.error(ParseErrorKind::OutOfRange {
            text: text.to_string(),
            max,
        })),
    }
}

fn check_shape(width: usize, height: usize, at: &Token) -> Result<(), ParseError> {
    let what = format!("a {width}x{height} board");
    if width < MIN_SIDE || height < MIN_SIDE {
        return Err(at.error(ParseErrorKind::TooSmall(what)));
    }
    if width > MAX_SIDE || height > MAX_SIDE || width * height - 1 > MAX_TILES {
        return Err(at.error(ParseErrorKind::TooLarge(what)));
    }
    Ok(())
}

/// Parses a board in any of the accepted layouts.
///
/// # Errors
///
/// A [`ParseError`] pointing at the line and column of what cannot be read.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    let lines = tokenize(text);
    let Some(first) = lines.first() else {
        let (line, column) = end_of(text);
        return Err(ParseError {
            line,
            column,
            kind: ParseErrorKind::Empty,
        });
    };
    // Words that are not numbers are reported before anything about the board's shape.
    let has_header = lines.len() > 1 && first.tokens.len() == 1;
    for token in lines
        .iter()
        .flat_map(|l| &l.tokens)
        .skip(usize::from(has_header))
    {
        if token.text != "/" {
            match parse_number(token, usize::MAX) {
                Err(e) if !matches!(e.kind, ParseErrorKind::OutOfRange { .. }) => return Err(e),
                _ => {}
            }
        }
    }
    let rows: Vec<Vec<Token>> = if lines.len() == 1 {
        one_line_rows(&first.tokens)?
    } else {
        let header_line = first.tokens.len() == 1 && first.tokens[0].text != "/";
        let body = if header_line { &lines[1..] } else { &lines[..] };
        let rows = if body.iter().flat_map(|l| &l.tokens).any(|t| t.text == "/") {
            slash_rows(body)?
        } else {
            body.iter().map(|line| line.tokens.clone()).collect()
        };
        if header_line {
            check_header(&first.tokens[0], &rows)?;
        }
        rows
    };
    board_from_rows(text, &rows)
}

/// One line of a benchmark file, such as those in the repository's `benchmarks/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchmarkInstance {
    /// The instance's name in the file.
    pub id: String,
    /// Its optimal length, as the file gives it; 0 where the file says it is unknown.
    pub optimal: usize,
    /// A reference solution's length (another solver's, say), where the file has that column.
    pub reference: Option<usize>,
    /// The board: the line's tiles make a square (or rows separated by `/`).
    pub board: Board,
}

impl BenchmarkInstance {
    /// The optimal length, where the file claims one.
    pub fn known_optimal(&self) -> Option<usize> {
        (self.optimal > 0 || self.board.is_goal()).then_some(self.optimal)
    }
}

/// Reads a benchmark file: one instance a line, `id optimal_length tiles…` or
/// `id optimal_length reference_length tiles…` (0 in the optimal column: unknown), with 0 for
/// the blank; blank lines and `#` comments are ignored. A line has the reference column when
/// its tiles would otherwise not make a square (or its first row would be one too long).
/// Errors point at the line and column.
///
/// # Errors
///
/// A [`ParseError`] pointing at the line and column of what cannot be read.
pub fn parse_benchmark(text: &str) -> Result<Vec<BenchmarkInstance>, ParseError> {
    tokenize(text)
        .iter()
        .map(|line| {
            let [id, optimal, rest @ ..] = line.tokens.as_slice() else {
                return Err(line.tokens[0].error(ParseErrorKind::NotABenchmarkLine));
            };
            let (reference, tiles) = match rest {
                [first, tiles @ ..] if has_reference_column(rest) => {
                    (Some(parse_number(first, usize::MAX)?), tiles)
                }
                tiles => (None, tiles),
            };
            if tiles.is_empty() {
                return Err(optimal.error(ParseErrorKind::NotABenchmarkLine));
            }
            Ok(BenchmarkInstance {
                id: id.text.to_string(),
                optimal: parse_number(optimal, usize::MAX)?,
                reference,
                board: board_from_rows(text, &one_line_rows(tiles)?)?,
            })
        })
        .collect()
}

/// Whether a benchmark line's tokens after the optimal length start with a reference length:
/// without `/`, the tokens after the first make a square and all of them do not; with `/`,
/// the first row is one longer than the second.
fn has_reference_column(tokens: &[Token<'_>]) -> bool {
    let is_square = |n: usize| n > 1 && n.isqrt() * n.isqrt() == n;
    match tokens.iter().position(|t| t.text == "/") {
        None => !is_square(tokens.len()) && is_square(tokens.len().saturating_sub(1)),
        Some(first) => {
            let second = tokens[first + 1..]
                .iter()
                .position(|t| t.text == "/")
                .unwrap_or(tokens.len() - first - 1);
            first == second + 1
        }
    }
}

/// Splits a single line into rows: at `/` if there are any, else into a square.
fn one_line_rows<'a>(tokens: &[Token<'a>]) -> Result<Vec<Vec<Token<'a>>>, ParseError> {
    if tokens.iter().any(|t| t.text == "/") {
        let mut rows = vec![Vec::new()];
        for token in tokens {
            if token.text == "/" {
                if rows.last().is_some_and(Vec::is_empty) {
                    return Err(token.error(ParseErrorKind::EmptyRow));
                }
                rows.push(Vec::new());
            } else {
                rows.last_mut().expect("rows starts non-empty").push(*token);
            }
        }
        if rows.last().is_some_and(Vec::is_empty) {
            let last = tokens.last().expect("a slash was found");
            return Err(last.error(ParseErrorKind::EmptyRow));
        }
        return Ok(rows);
    }
    let count = tokens.len();
    let side = (1..=MAX_SIDE + 1)
        .find(|s| s * s >= count)
        .unwrap_or(MAX_SIDE + 1);
    if side * side != count {
        if count > (MAX_SIDE * MAX_SIDE) {
            return Err(tokens[0].error(ParseErrorKind::TooLarge(format!("{count} numbers"))));
        }
        return Err(tokens[0].error(ParseErrorKind::NotSquare(count)));
    }
    if side < MIN_SIDE {
        return Err(tokens[0].error(ParseErrorKind::TooSmall("a 1x1 board".into())));
    }
    Ok(tokens.chunks(side).map(<[Token]>::to_vec).collect())
}

/// Splits lines that hold `/` into rows: a `/` and a line break each end a row, and a `/` at
/// the end or start of a line ends the same row as the line break next to it. An empty row
/// between two slashes, or a slash first or last, is an error.
fn slash_rows<'a>(body: &[Line<'a>]) -> Result<Vec<Vec<Token<'a>>>, ParseError> {
    let mut rows: Vec<Vec<Token<'a>>> = vec![Vec::new()];
    // Whether a slash already ended the row before the (empty) one in progress.
    let mut slashed = false;
    let mut last_slash = None;
    for line in body {
        if rows.last().is_some_and(|row| !row.is_empty()) {
            rows.push(Vec::new());
            slashed = false;
        }
        for token in &line.tokens {
            let row = rows.last_mut().expect("rows starts non-empty");
            if token.text != "/" {
                row.push(*token);
            } else if !row.is_empty() {
                rows.push(Vec::new());
                slashed = true;
            } else if slashed || rows.len() == 1 {
                return Err(token.error(ParseErrorKind::EmptyRow));
            } else {
                slashed = true;
            }
            if token.text == "/" {
                last_slash = Some(*token);
            }
        }
    }
    if rows.last().is_some_and(Vec::is_empty) {
        if let (true, Some(slash)) = (slashed, last_slash) {
            return Err(slash.error(ParseErrorKind::EmptyRow));
        }
        rows.pop();
    }
    Ok(rows)
}

/// A row of the wrong length: a long row points at its first extra number, a short one just
/// past its last.
fn row_length_error(row: &[Token], index: usize, width: usize) -> ParseError {
    let kind = ParseErrorKind::RowLength {
        row: index + 1,
        expected: width,
        found: row.len(),
    };
    match row.get(width) {
        Some(extra) => extra.error(kind),
        None => {
            let last = row.last().expect("rows are not empty");
            ParseError {
                line: last.line,
                column: last.column + last.text.chars().count(),
                kind,
            }
        }
    }
}

/// Checks a header against the rows that follow it: tile count, side, or `WxH`.
fn check_header(header: &Token, rows: &[Vec<Token>]) -> Result<(), ParseError> {
    let (width, height) = match parse_header(header)? {
        Header::Shape(width, height) => (width, height),
        Header::Count(n) => {
            // n is the side or the tile count: the first row's length decides which.
            let first_row = rows.first().map_or(0, Vec::len);
            let side_from_tiles = (1..=MAX_SIDE + 1).find(|s| s * s == n + 1);
            if first_row == n {
                (n, n)
            } else if side_from_tiles == Some(first_row) {
                (first_row, first_row)
            } else {
                let side = side_from_tiles.unwrap_or(n);
                return Err(header.error(ParseErrorKind::HeaderMismatch {
                    header: format!("{n} (a {side}x{side} board)"),
                    rows: format!("{first_row} numbers in the first row"),
                }));
            }
        }
    };
    check_shape(width, height, header)?;
    for (index, row) in rows.iter().enumerate() {
        if row.len() != width {
            return Err(row_length_error(row, index, width));
        }
        if index == height {
            return Err(row[0].error(ParseErrorKind::RowCount {
                expected: height,
                found: rows.len(),
            }));
        }
    }
    if rows.len() < height {
        let last = rows.last().and_then(|r| r.last()).unwrap_or(header);
        return Err(ParseError {
            line: last.line,
            column: last.column + last.text.chars().count(),
            kind: ParseErrorKind::RowCount {
                expected: height,
                found: rows.len(),
            },
        });
    }
    Ok(())
}

/// Builds the board from rows of words, checking every number.
fn board_from_rows(text: &str, rows: &[Vec<Token>]) -> Result<Board, ParseError> {
    let Some(first_row) = rows.first() else {
        let (line, column) = end_of(text);
        return Err(ParseError {
            line,
            column,
            kind: ParseErrorKind::RowCount {
                expected: 2,
                found: 0,
            },
        });
    };
    let width = first_row.len();
    for (index, row) in rows.iter().enumerate() {
        if row.len() != width {
            return Err(row_length_error(row, index, width));
        }
    }
    let height = rows.len();
    check_shape(width, height, &first_row[0])?;
    let max = width * height - 1;
    let tiles = rows
        .iter()
        .flatten()
        .map(|token| parse_number(token, max))
        .collect::<Result<Vec<usize>, _>>()?;
    let mut first_seen: Vec<Option<(usize, usize)>> = vec![None; max + 1];
    for (token, &tile) in rows.iter().flatten().zip(&tiles) {
        if let Some(first) = first_seen[tile] {
            let missing = (0..=max)
                .find(|t| !tiles.contains(t))
                .expect("a repeated tile leaves another out");
            return Err(token.error(ParseErrorKind::Duplicate {
                tile,
                first,
                missing,
            }));
        }
        first_seen[tile] = Some((token.line, token.column));
    }
    let tiles = tiles.into_iter().map(|t| t as u8).collect();
    Ok(Board::new(width, height, tiles).expect("checked above"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> ParseErrorKind {
        parse_board(text).unwrap_err().kind
    }

    fn at(text: &str) -> (usize, usize) {
        let e = parse_board(text).unwrap_err();
        (e.line, e.column)
    }

    #[test]
    fn course_format_with_tile_count_or_side() {
        let by_tiles = parse_board("8\n1 0 3\n4 2 5\n7 8 6\n").unwrap();
        let by_side = parse_board("3\n1 0 3\n4 2 5\n7 8 6\n").unwrap();
        assert_eq!(by_tiles, by_side);
        assert_eq!(by_tiles.tiles(), &[1, 0, 3, 4, 2, 5, 7, 8, 6]);
        // 3 is both the 2x2 tile count and the 3x3 side: the rows decide.
        assert_eq!(parse_board("3\n1 2\n3 0").unwrap().width(), 2);
        let fifteen = parse_board("15\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0").unwrap();
        assert!(fifteen.is_goal());
    }

    #[test]
    fn one_line_and_slashes() {
        let plain = parse_board("1 0 3 4 2 5 7 8 6").unwrap();
        let slashed = parse_board("1 0 3 / 4 2 5 / 7 8 6").unwrap();
        assert_eq!(plain, slashed);
        let rect = parse_board("1 2 3/4 5 0").unwrap();
        assert_eq!((rect.width(), rect.height()), (3, 2));
    }

    #[test]
    fn slashes_across_lines() {
        let one_line = parse_board("8 2 0/4 6 1/3 7 5").unwrap();
        for text in [
            "8 2 0/\n4 6 1/\n3 7 5\n",
            "8 2 0\n/ 4 6 1\n/3 7 5",
            "8 2 0 / 4 6 1\n3 7 5",
            "3\n8 2 0/4 6 1/3 7 5",
            "8 2 0 /4 6 1/ 3 7 5 # slidysim",
        ] {
            assert_eq!(parse_board(text).as_ref(), Ok(&one_line), "{text:?}");
        }
        assert_eq!(
            at("8 2 0/\n/4 6 1/3 7 5"),
            (2, 1),
            "two slashes between rows"
        );
        assert_eq!(kind("8 2 0/\n/4 6 1/3 7 5"), ParseErrorKind::EmptyRow);
        assert_eq!(kind("/8 2 0\n4 6 1/3 7 5"), ParseErrorKind::EmptyRow);
        assert_eq!(at("8 2 0\n4 6 1/3 7 5/"), (2, 12), "a slash last");
        assert_eq!(
            at("8 2 0\n4 6 1/3 7"),
            (2, 10),
            "a short row: just past its end"
        );
        assert!(matches!(
            kind("8 2 0/4 6 1/3 7"),
            ParseErrorKind::RowLength { row: 3, .. }
        ));
        assert_eq!(
            at("8 2 0/4 6 1\n3 7 5 9"),
            (2, 7),
            "a long row: its extra number"
        );
        assert!(matches!(
            kind("8 2 0/4 6 1\n3 7 8"),
            ParseErrorKind::Duplicate {
                tile: 8,
                missing: 5,
                ..
            }
        ));
        assert!(matches!(
            kind("4\n8 2 0/4 6 1/3 7 5"),
            ParseErrorKind::HeaderMismatch { .. }
        ));
    }

    #[test]
    fn rectangles_by_rows_or_header() {
        let rows = parse_board("1 2 3 4\n5 6 7 0").unwrap();
        assert_eq!((rows.width(), rows.height()), (4, 2));
        let header = parse_board("4x2\n1 2 3 4\n5 6 7 0").unwrap();
        assert_eq!(rows, header);
    }

    #[test]
    fn comments_and_blank_lines_are_ignored() {
        let b = parse_board("# a puzzle\n\n3  # side\n1 0 3\n\n4 2 5 # middle\n7 8 6\n").unwrap();
        assert_eq!(b.tiles(), &[1, 0, 3, 4, 2, 5, 7, 8, 6]);
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(kind("  \n# nothing\n"), ParseErrorKind::Empty);
        assert_eq!(at("1 0 3\n4 x 5\n7 8 6"), (2, 3));
        assert_eq!(
            kind("1 0 3\n4 x 5\n7 8 6"),
            ParseErrorKind::NotANumber("x".into())
        );
        assert_eq!(
            kind("1 0 3\n4 -2 5\n7 8 6"),
            ParseErrorKind::Negative("-2".into())
        );
        assert!(matches!(
            kind("1 0 3\n4 9 5\n7 8 6"),
            ParseErrorKind::OutOfRange { max: 8, .. }
        ));
        assert!(matches!(
            kind("1 0 3 4 2 5 7 8 99999999999999999999999"),
            ParseErrorKind::OutOfRange { .. }
        ));
        assert_eq!(at("1 0 3\n4 2 5\n7 3 6"), (3, 3));
        assert_eq!(
            kind("1 0 3\n4 2 5\n7 3 6"),
            ParseErrorKind::Duplicate {
                tile: 3,
                first: (1, 5),
                missing: 8
            }
        );
        assert!(matches!(
            kind("1 0 3\n4 2 5 6\n7 8"),
            ParseErrorKind::RowLength { row: 2, .. }
        ));
        assert_eq!(
            at("1 0 3\n4 2 5 6\n7 8"),
            (2, 7),
            "a long row: its first extra number"
        );
        assert_eq!(
            at("3\n1 0 3\n4 2\n7 8 6"),
            (3, 4),
            "a short row: just past its end"
        );
        assert!(matches!(
            kind("3\n1 0 3\n4 2 5"),
            ParseErrorKind::RowCount {
                expected: 3,
                found: 2
            }
        ));
        assert!(matches!(
            kind("3\n1 0 3\n4 2 5\n7 8 6\n9 10 11"),
            ParseErrorKind::RowCount { .. }
        ));
        assert!(matches!(
            kind("15\n1 0 3\n4 2 5\n7 8 6"),
            ParseErrorKind::HeaderMismatch { .. }
        ));
        assert!(matches!(kind("1\n0"), ParseErrorKind::TooSmall(_)));
        assert!(matches!(kind("0"), ParseErrorKind::TooSmall(_)));
        assert!(matches!(kind("17x2\n0 1"), ParseErrorKind::TooLarge(_)));
        assert!(matches!(kind("1 0 3 4 2"), ParseErrorKind::NotSquare(5)));
        assert!(matches!(kind("1 2 / / 3 0"), ParseErrorKind::EmptyRow));
    }

    #[test]
    fn benchmark_lines() {
        let text = "# id length tiles\n\n7 3 1 0 3 4 2 5 7 8 6\nb 2 1 2 3 / 4 0 5\n";
        let instances = parse_benchmark(text).unwrap();
        assert_eq!(instances.len(), 2);
        assert_eq!(instances[0].id, "7");
        assert_eq!(instances[0].optimal, 3);
        assert_eq!(
            instances[0].board,
            parse_board("1 0 3 4 2 5 7 8 6").unwrap()
        );
        assert_eq!(
            (instances[1].board.width(), instances[1].board.height()),
            (3, 2)
        );
        let error = parse_benchmark("1 3 1 0 3 4 2 5 7 8 6\n2 x 1 0 3 4 2 5 7 8 6").unwrap_err();
        assert_eq!((error.line, error.column), (2, 3));
        let error = parse_benchmark("1 3 1 0 3 4 2 5 7 3 6").unwrap_err();
        assert!(matches!(
            error.kind,
            ParseErrorKind::Duplicate { tile: 3, .. }
        ));
        assert_eq!(
            parse_benchmark("only 2").unwrap_err().kind,
            ParseErrorKind::NotABenchmarkLine
        );
        assert_eq!(
            parse_benchmark("only").unwrap_err().kind,
            ParseErrorKind::NotABenchmarkLine
        );
        assert!(parse_benchmark("# nothing\n").unwrap().is_empty());
    }

    #[test]
    fn benchmark_lines_with_a_reference_length() {
        let text = "a 0 5 1 0 3 4 2 5 7 8 6\nb 3 4 1 2 3 / 4 0 5\nc 3 1 0 3 4 2 5 7 8 6\n";
        let instances = parse_benchmark(text).unwrap();
        assert_eq!(instances[0].reference, Some(5));
        assert_eq!(instances[0].known_optimal(), None);
        assert_eq!(
            instances[0].board,
            parse_board("1 0 3 4 2 5 7 8 6").unwrap()
        );
        assert_eq!(instances[1].reference, Some(4));
        assert_eq!(instances[1].known_optimal(), Some(3));
        assert_eq!(instances[1].board.width(), 3);
        assert_eq!(instances[2].reference, None);
        assert_eq!(instances[2].known_optimal(), Some(3));
    }

    #[test]
    fn huge_headers_are_refused() {
        assert!(matches!(
            kind("99999999999999999999\n1 0\n2 3"),
            ParseErrorKind::TooLarge(_)
        ));
        assert!(matches!(
            kind("100000\n1 0\n2 3"),
            ParseErrorKind::TooLarge(_)
        ));
    }
}
