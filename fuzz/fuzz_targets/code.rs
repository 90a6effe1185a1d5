//! Any bytes as a pasted challenge code, and as the fields behind a code with a good check: a
//! refusal or a challenge, never a panic; a challenge's moves solve its board, at most 30 moves
//! a second, and its code and its link open as the same challenge.
#![no_main]

use challenge::{Challenge, MAX_MOVES_PER_SECOND, SPEED_MIN_MOVES, decode, fuzzing};
use libfuzzer_sys::fuzz_target;

fn holds(text: &str) {
    let Ok(challenge) = decode(text) else {
        return;
    };
    let mut board = challenge.start().clone();
    assert_eq!(board.apply_all(challenge.moves()), Ok(()));
    assert!(board.is_goal());
    let moves = challenge.moves().len() as u64;
    assert!(
        moves < SPEED_MIN_MOVES as u64
            || moves * 1000 <= MAX_MOVES_PER_SECOND * challenge.time_ms()
    );
    assert_eq!(decode(challenge.code()).as_ref(), Ok(&challenge));
    assert_eq!(
        challenge.link().parse::<Challenge>().as_ref(),
        Ok(&challenge)
    );
}

fuzz_target!(|data: &[u8]| {
    holds(&String::from_utf8_lossy(data));
    holds(&fuzzing::seal(data));
});
