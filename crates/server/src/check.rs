//! A result checked by replaying it with the app's own code: the challenge code decoded
//! (crates/challenge), its board compared with the day's daily, its moves replayed through the
//! game's executor (crates/game) to the win, and its times held to a pace a person can keep.

use std::ops::Range;

use crate::daily::DayBoard;
pub use crate::refusal::Refusal;
use challenge::Challenge;
use npuzzle::Move;
use snapslide_game::{Game, Outcome};

/// The most slides a second a person makes, sustained.
pub const MAX_SLIDES_PER_SECOND: u64 = 30;
/// The run of slides the pace is judged over: no [`PACE_WINDOW`] slides may follow a slide
/// within less than `PACE_WINDOW / MAX_SLIDES_PER_SECOND` seconds (a third of a second).
pub const PACE_WINDOW: usize = 10;

/// A result that stands up to its replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The solve, as decoded.
    pub challenge: Challenge,
    /// The gap's moves (the app's move counter).
    pub moves: usize,
    /// The slides: moves made by one touch (one time, one direction) count once.
    pub slides: usize,
    /// The total time, ms.
    pub time_ms: u64,
}

/// Checks a result's code against the day's daily: decoded, the day's board, move times kept
/// and never going back, a human pace, and the moves replayed through the app's game to its win.
///
/// # Errors
///
/// The [`Refusal`] that says what is wrong, the first found in the order above.
pub fn check_result(code: &str, daily: &DayBoard) -> Result<Checked, Refusal> {
    let challenge = challenge::decode(code)?;
    let times = challenge.times_ms().ok_or(Refusal::NoTimes)?;
    if challenge.start() != &daily.board {
        return Err(Refusal::NotTheDaily);
    }
    check_times_go_forward(times)?;
    let slides = slides_of(challenge.moves(), times);
    let slide_times: Vec<u64> = slides.iter().map(|slide| times[slide.start]).collect();
    check_pace(&slide_times, challenge.time_ms())?;
    replay_to_the_win(&challenge, &slides, daily)?;
    Ok(Checked {
        moves: challenge.moves().len(),
        slides: slides.len(),
        time_ms: challenge.time_ms(),
        challenge,
    })
}

/// Refuses times that go backwards (the code's format cannot hold them; checked all the same).
///
/// # Errors
///
/// [`Refusal::TimesGoBack`].
pub fn check_times_go_forward(times: &[u64]) -> Result<(), Refusal> {
    if times.windows(2).all(|pair| pair[0] <= pair[1]) {
        Ok(())
    } else {
        Err(Refusal::TimesGoBack)
    }
}

/// The moves grouped into slides: a run of moves in one direction at one time is one touch
/// (the app times a tap that slides a row once for all its tiles).
pub fn slides_of(moves: &[Move], times: &[u64]) -> Vec<Range<usize>> {
    let mut slides: Vec<Range<usize>> = Vec::new();
    for index in 0..moves.len().min(times.len()) {
        match slides.last_mut() {
            Some(slide)
                if moves[slide.start] == moves[index] && times[slide.start] == times[index] =>
            {
                slide.end = index + 1;
            }
            _ => slides.push(index..index + 1),
        }
    }
    slides
}

/// Whether `slides` slides in `ms` milliseconds pass [`MAX_SLIDES_PER_SECOND`].
fn faster_than_a_person(slides: usize, ms: u64) -> bool {
    slides as u64 * 1000 > MAX_SLIDES_PER_SECOND * ms
}

/// Refuses a pace no person reaches: [`PACE_WINDOW`] slides after any slide within less than
/// a third of a second, or a total time under `slides / 30` seconds.
///
/// # Errors
///
/// [`Refusal::TooFastBurst`] or [`Refusal::TooFastOverall`].
pub fn check_pace(slide_times: &[u64], total_ms: u64) -> Result<(), Refusal> {
    let burst = slide_times
        .windows(PACE_WINDOW + 1)
        .any(|run| faster_than_a_person(PACE_WINDOW, run[PACE_WINDOW] - run[0]));
    if burst {
        return Err(Refusal::TooFastBurst);
    }
    if faster_than_a_person(slide_times.len(), total_ms) {
        return Err(Refusal::TooFastOverall);
    }
    Ok(())
}

/// Replays the slides through the app's game of the day: each slide one action, and the last
/// one the win.
fn replay_to_the_win(
    challenge: &Challenge,
    slides: &[Range<usize>],
    daily: &DayBoard,
) -> Result<(), Refusal> {
    let mut game = Game::daily(challenge.start().clone(), daily.day, daily.optimal);
    for slide in slides {
        if game.apply(&challenge.moves()[slide.clone()]) == Outcome::Illegal {
            return Err(if game.is_won() {
                Refusal::MovesAfterTheWin
            } else {
                Refusal::NotSolved
            });
        }
    }
    if game.is_won() {
        Ok(())
    } else {
        Err(Refusal::NotSolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_touch_that_slides_a_row_is_one_slide() {
        let moves = [
            Move::Left,
            Move::Left,
            Move::Left,
            Move::Up,
            Move::Up,
            Move::Up,
        ];
        let times = [0, 0, 0, 500, 500, 700];
        assert_eq!(slides_of(&moves, &times), vec![0..3, 3..5, 5..6]);
        // The same time but another direction is another touch.
        let turn = [Move::Left, Move::Up];
        assert_eq!(slides_of(&turn, &[100, 100]), vec![0..1, 1..2]);
    }

    #[test]
    fn ten_slides_within_a_third_of_a_second_are_too_fast() {
        // Slides every 34 ms: 10 of them take 340 ms, at most 30 a second.
        let steady: Vec<u64> = (0..40).map(|i| i * 34).collect();
        assert_eq!(check_pace(&steady, 40 * 34), Ok(()));
        // Slides every 33 ms: 10 take 330 ms, over 30 a second.
        let quick: Vec<u64> = (0..40).map(|i| 2_000 + i * 33).collect();
        assert_eq!(check_pace(&quick, 60_000), Err(Refusal::TooFastBurst));
        // 9 slides at once are not yet 10.
        let nine: Vec<u64> = [vec![0; 10], vec![5_000]].concat();
        assert_eq!(check_pace(&nine, 6_000), Ok(()));
        let ten: Vec<u64> = [vec![0; 11], vec![5_000]].concat();
        assert_eq!(check_pace(&ten, 6_000), Err(Refusal::TooFastBurst));
    }

    #[test]
    fn a_total_under_a_second_for_30_slides_is_too_fast() {
        let sparse: Vec<u64> = (0..30).map(|i| i * 34).collect();
        assert_eq!(check_pace(&sparse, 1_000), Ok(()));
        assert_eq!(check_pace(&sparse, 999), Err(Refusal::TooFastOverall));
        assert_eq!(check_pace(&[0, 0], 66), Err(Refusal::TooFastOverall));
        assert_eq!(check_pace(&[0, 0], 67), Ok(()));
    }

    #[test]
    fn times_going_backwards_are_refused() {
        assert_eq!(check_times_go_forward(&[0, 5, 5, 9]), Ok(()));
        assert_eq!(
            check_times_go_forward(&[0, 5, 4]),
            Err(Refusal::TimesGoBack)
        );
    }
}
