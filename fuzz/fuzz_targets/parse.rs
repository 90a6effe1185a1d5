//! Any bytes given to the parsers: an error or a valid board (or moves), never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::notation::{MAX_REPEAT, format_board, format_tile_moves, mtm_length, runs};
use npuzzle::{Solvability, linear_conflict, parse_board, parse_tile_moves};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = parse_board(text) {
        // What parses prints back to the same board, in both forms, and every measure runs on it.
        assert_eq!(parse_board(&board.to_string()).as_ref(), Ok(&board));
        assert_eq!(parse_board(&format_board(&board)).as_ref(), Ok(&board));
        let _ = linear_conflict(&board);
        let _ = Solvability::of(&board).to_string();
    }
    match parse_tile_moves(text) {
        // Moves write back to a string that reads to the same moves, one letter a run.
        Ok(moves) => {
            let written = format_tile_moves(&moves);
            assert_eq!(parse_tile_moves(&written).as_ref(), Ok(&moves));
            assert_eq!(runs(&moves).len(), mtm_length(&moves));
            assert!(moves.len() <= text.chars().count() * MAX_REPEAT);
        }
        // An error points inside the text (or just past its end).
        Err(error) => assert!((1..=text.chars().count() + 1).contains(&error.column)),
    }
});
