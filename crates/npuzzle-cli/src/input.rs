//! Reading a board from a file, standard input, or the argument itself.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};
use npuzzle::{Board, parse_board};

/// The largest input read: far more than a 16x16 board with comments needs.
const MAX_INPUT_BYTES: u64 = 1 << 20;

/// Reads and parses the board in `path`, in standard input for `-`, or, when no such file
/// exists and the argument is made of numbers, white space, commas and `/` only, the board the
/// argument itself writes (`npuzzle solve '8 2 0/4 6 1/3 7 5'`).
pub fn read_board(path: &Path) -> Result<Board> {
    let (name, text) = if path.as_os_str() == "-" {
        (
            "<stdin>".to_string(),
            read_limited(std::io::stdin().lock())?,
        )
    } else if let Some(text) = board_argument(path) {
        (
            format!("'{text}' (no such file, read as a board)"),
            text.to_string(),
        )
    } else {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let text = read_limited(file).with_context(|| format!("cannot read {}", path.display()))?;
        (path.display().to_string(), text)
    };
    parse_board(&text).with_context(|| format!("{name} is not a valid board"))
}

/// The argument as a board's text, when it is not a file and looks like a board: digits, with
/// white space, commas or `/` between them (a file name has some other character, or is there).
fn board_argument(path: &Path) -> Option<&str> {
    let text = path.to_str()?;
    let looks_like_a_board = text.chars().any(|c| c.is_ascii_digit())
        && text.chars().any(|c| c.is_whitespace() || c == '/')
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_whitespace() || c == '/' || c == ',');
    (looks_like_a_board && !path.exists()).then_some(text)
}

fn read_limited(reader: impl Read) -> Result<String> {
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "the input is larger than {} KiB: not a board",
            MAX_INPUT_BYTES >> 10
        );
    }
    String::from_utf8(bytes).context("the input is not UTF-8 text")
}
