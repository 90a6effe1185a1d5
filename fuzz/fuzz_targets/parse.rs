//! Any bytes given to the parser: an error or a valid board, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::{Solvability, linear_conflict, parse_board};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = parse_board(text) {
        // What parses prints back to the same board, and every measure runs on it.
        assert_eq!(parse_board(&board.to_string()).as_ref(), Ok(&board));
        let _ = linear_conflict(&board);
        let _ = Solvability::of(&board).to_string();
    }
});
