//! Reading a board from a file or standard input.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};
use npuzzle::{Board, parse_board};

/// The largest input read: far more than a 16x16 board with comments needs.
const MAX_INPUT_BYTES: u64 = 1 << 20;

/// Reads and parses the board in `path`, or in standard input for `-`.
pub fn read_board(path: &Path) -> Result<Board> {
    let (name, text) = if path.as_os_str() == "-" {
        (
            "<stdin>".to_string(),
            read_limited(std::io::stdin().lock())?,
        )
    } else {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let text = read_limited(file).with_context(|| format!("cannot read {}", path.display()))?;
        (path.display().to_string(), text)
    };
    parse_board(&text).with_context(|| format!("{name} is not a valid board"))
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
