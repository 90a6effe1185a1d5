//! Codes whose check passes but whose contents no player could have made: each is refused
//! for what it is, and so is the same solve given to [`Challenge::new`].

use npuzzle::{Board, Move};

use super::{Challenge, MAX_TIME_MS, decode};
use crate::error::CodeError;
use crate::format::{Fields, encode};

/// A 3×3 board two moves from the goal (the gap in the middle), and those moves, in 2 s.
fn two_moves() -> Fields {
    Fields {
        width: 3,
        height: 3,
        tiles: vec![1, 2, 3, 4, 0, 5, 7, 8, 6],
        moves: vec![Move::Right, Move::Down],
        time_ms: 2_000,
        times_ms: None,
    }
}

/// The fields as a code with a good check, opened.
fn opened(fields: &Fields) -> Result<Challenge, CodeError> {
    decode(&encode(fields))
}

/// The fields given straight to [`Challenge::new`].
fn made(fields: Fields) -> Result<Challenge, CodeError> {
    let start = Board::new(fields.width, fields.height, fields.tiles).unwrap();
    Challenge::new(start, fields.moves, fields.time_ms, fields.times_ms)
}

/// Both ways in give the same answer, which is returned.
fn refused(fields: Fields) -> CodeError {
    let error = opened(&fields).expect_err("refused");
    assert_eq!(made(fields), Err(error.clone()));
    error
}

#[test]
fn the_good_fields_open() {
    let challenge = opened(&two_moves()).unwrap();
    assert_eq!(challenge.moves(), &[Move::Right, Move::Down]);
}

#[test]
fn an_unsolvable_board_is_refused() {
    let swapped = Fields {
        tiles: vec![2, 1, 3, 4, 0, 5, 7, 8, 6],
        ..two_moves()
    };
    assert_eq!(refused(swapped), CodeError::Unsolvable);
}

#[test]
fn an_illegal_move_is_refused_by_its_number() {
    let off_the_edge = Fields {
        moves: vec![Move::Right, Move::Right, Move::Down],
        ..two_moves()
    };
    assert_eq!(refused(off_the_edge), CodeError::IllegalMove { number: 2 });
    assert_eq!(
        CodeError::IllegalMove { number: 2 }.to_string(),
        "Move 2 of this challenge slides off the board"
    );
}

#[test]
fn moves_that_leave_the_board_unsolved_are_refused() {
    let one_short = Fields {
        moves: vec![Move::Right],
        ..two_moves()
    };
    assert_eq!(refused(one_short), CodeError::NotSolved);
    let none = Fields {
        moves: vec![],
        ..two_moves()
    };
    assert_eq!(refused(none), CodeError::NotSolved);
}

#[test]
fn a_board_over_8x8_is_refused() {
    let cells = 81;
    let mut tiles: Vec<u8> = (1..cells).map(|t| t as u8).collect();
    tiles.push(0);
    let nine = Fields {
        width: 9,
        height: 9,
        tiles,
        moves: vec![],
        time_ms: 0,
        times_ms: None,
    };
    let error = CodeError::BoardSize {
        width: 9,
        height: 9,
    };
    assert_eq!(refused(nine), error);
    assert!(error.to_string().contains("9×9"), "{error}");
}

/// `count` moves back and forth on a 2×2 board from its goal (an even count ends solved).
fn back_and_forth(count: usize, time_ms: u64, times_ms: Option<Vec<u64>>) -> Fields {
    Fields {
        width: 2,
        height: 2,
        tiles: vec![1, 2, 3, 0],
        moves: (0..count)
            .map(|i| if i % 2 == 0 { Move::Up } else { Move::Down })
            .collect(),
        time_ms,
        times_ms,
    }
}

#[test]
fn over_30_moves_a_second_overall_is_refused_from_10_moves() {
    assert_eq!(refused(back_and_forth(10, 333, None)), CodeError::TooFast);
    assert!(opened(&back_and_forth(10, 334, None)).is_ok());
    assert!(
        opened(&back_and_forth(8, 0, None)).is_ok(),
        "under 10 moves"
    );
    assert_eq!(
        refused(back_and_forth(1_000, 33_333, None)),
        CodeError::TooFast
    );
    assert!(opened(&back_and_forth(1_000, 33_334, None)).is_ok());
}

#[test]
fn thirty_moves_in_under_a_second_is_refused_within_a_slow_solve() {
    // 100 moves a second apart, but 30 of them within 999 ms after move 50.
    let burst = |span: u64| {
        let mut times: Vec<u64> = (0..100).map(|i| i * 1_000).collect();
        for (k, time) in times[51..=80].iter_mut().enumerate() {
            *time = 50_000 + span * (k as u64 + 1) / 30;
        }
        for time in &mut times[81..] {
            *time += 30_000;
        }
        back_and_forth(100, 200_000, Some(times))
    };
    assert_eq!(refused(burst(999)), CodeError::TooFast);
    assert!(opened(&burst(1_000)).is_ok());
    // A row of 7 tiles slid at once every 300 ms: 10 moves can fall within 300 ms, but no 30
    // within a second.
    let rows: Vec<u64> = (0..70).map(|i| i / 7 * 300).collect();
    assert!(made(back_and_forth(70, 2_800, Some(rows))).is_ok());
}

#[test]
fn times_that_do_not_add_up_are_refused() {
    for times in [vec![0, 500, 400, 600], vec![0, 500], vec![0, 1, 2, 5_001]] {
        let fields = back_and_forth(4, 5_000, Some(times.clone()));
        assert_eq!(made(fields), Err(CodeError::BadTimes), "{times:?}");
    }
    let forever = back_and_forth(2, MAX_TIME_MS + 1, None);
    assert_eq!(refused(forever), CodeError::BadTimes);
    assert!(made(back_and_forth(2, MAX_TIME_MS, None)).is_ok());
}

#[test]
fn a_solve_too_long_for_a_code_is_refused_when_made() {
    // 2 bits a move: 170,000 moves take 68,000 characters.
    let long = back_and_forth(170_000, 6_000_000, None);
    assert_eq!(made(long), Err(CodeError::SolveTooLong));
    assert!(made(back_and_forth(120_000, 6_000_000, None)).is_ok());
}
