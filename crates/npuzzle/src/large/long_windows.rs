//! Long windows of the best solution re-solved by wide beams (see `wide`) aimed at each
//! window's last board instead of the goal, a pair of them (see `both_ways`): one from the
//! window's first board to its last, one from the last back to the first.
//!
//! Over a window of a hundred moves the estimate toward the window's last board is nearer the
//! truth than the estimate toward the goal is over the whole path (fewer tiles are out of
//! place, and less far), so a beam of the same width finds shorter stretches than the beam that
//! found the path. The windows are too long for the IDA* re-solves (see `shorten`), which
//! reach about 40 moves.

use std::time::Instant;

use crate::board::{Board, Move};
use crate::search::budget::{Budget, StopReason};
use crate::solution::{Algorithm, Solution};

use super::Improve;
use super::best::{Best, improve_by_short_windows};
use super::cancel_inverse_pairs;
use super::shorten::Shortener;
use super::wide::both_ways::{Ways, beams_both_ways};
use super::wide::max_width;
use super::wide::widening::Pace;

/// The window lengths of one round, in moves, each with where its first window starts: the
/// lengths differ and the windows start apart, so a round's passes cut the path in other
/// places.
///
/// Many passes of one width did better than fewer of twice the width in the same time.
/// Measured on DeepCubeA's first 20 7×7 states after a goal beam 32,000 wide, mean length ÷
/// its lengths, with the three first windows alone, rounds of 2,000 to 64,000 wide: 1.0931 in
/// 73 s of windows; with the ten, rounds of 8,000 and 16,000 wide: 1.0845 in 34 s (and of
/// 2,000 to 16,000: 1.0878 in 51 s). On 6×6, 1.0644 in 11.4 s → 1.0577 in 6.9 s.
const WINDOWS: [(usize, usize); 10] = [
    (100, 0),
    (75, 25),
    (125, 60),
    (175, 10),
    (150, 40),
    (90, 70),
    (110, 30),
    (140, 90),
    (60, 15),
    (200, 50),
];

/// The narrowest first round's beam width; each further round's beams are twice as wide.
/// Narrow enough that a few passes fit the little time the wide beams leave on a 7×7 at
/// `--time 1` (measured with rounds of three passes, from 8,000: DeepCubeA's 7×7 states, 1 s,
/// the whole even half, 1.239 → 1.228 × its lengths).
const FIRST_WIDTH: usize = 2_000;

/// The widest round without a deadline.
const UNTIMED_WIDTH: usize = 8_000;

/// A pass over the path takes about this many times as long as a beam to the goal as wide
/// (its windows overlap by half, so it covers the path twice, but toward nearer boards the
/// beams are pruned harder): on DeepCubeA's first 10 7×7 states, ten passes 16,000 wide took
/// 1.6 s a state, a goal beam 16,000 wide 0.32 s.
const PASS_COST: f64 = 0.5;

/// The share of the time left that the first round of a timed run is planned to take: the
/// next round, twice as wide, takes the rest. Narrow rounds first only spend the time: after a
/// goal beam 32,000 wide, rounds of 8,000 and 16,000 did better (1.0845) than rounds of 4,000
/// to 16,000 (1.0870) and 2,000 to 16,000 (1.0878), and one round of 16,000 gave 1.0879.
const FIRST_ROUND_SHARE: f64 = 1.0 / 3.0;

/// Rounds of long windows, each round's beams twice as wide as the last's, until the budget
/// stops them, or after a round whose beams were all as wide as fits the memory (without a
/// deadline, after the round [`UNTIMED_WIDTH`] wide). With a deadline, the first round is as
/// wide as [`FIRST_ROUND_SHARE`] of the time left allows at the `pace` of the widest beam to
/// the goal, if it was measured.
///
/// # Errors
///
/// The budget's [`StopReason`] when it stops a beam (the best so far is kept).
pub(super) fn improve_by_long_windows<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
    pace: Option<Pace>,
) -> Result<(), StopReason> {
    let shortest = WINDOWS.iter().map(|&(length, _)| length).min().unwrap_or(1);
    let widest = max_width(best.board.shape(), shortest);
    let mut width = first_width(pace, budget);
    loop {
        let planned = width;
        for (length, first) in WINDOWS {
            if best.done() {
                return Ok(());
            }
            let Some(shorter) = pass_that_fits(best, length, first, &mut width, improve, budget)?
            else {
                return Ok(());
            };
            if shorter {
                improve_by_short_windows(best, shortener, improve, budget)?;
            }
        }
        let untimed_done = budget.deadline.is_none() && width >= UNTIMED_WIDTH;
        if width < planned || width >= widest || untimed_done {
            return Ok(());
        }
        width *= 2;
    }
}

/// [`pass`] with beams `width` wide, or as wide as fits [`max_width`] for windows of `length`
/// if that is less; when the budget's memory limit stops it, again with half the width, down
/// to [`FIRST_WIDTH`]. Whether a window got shorter; `None` when even that did not fit.
fn pass_that_fits<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    length: usize,
    first: usize,
    width: &mut usize,
    improve: &Improve,
    budget: &Budget,
) -> Result<Option<bool>, StopReason> {
    let cap = max_width(best.board.shape(), length);
    loop {
        let tried = (*width).min(cap);
        match pass(best, length, first, tried, improve, budget) {
            Err(StopReason::MemoryLimit) if tried > FIRST_WIDTH => {
                *width = (tried / 2).max(FIRST_WIDTH);
            }
            Err(StopReason::MemoryLimit) => return Ok(None),
            other => return other.map(Some),
        }
    }
}

/// The first round's width: [`FIRST_WIDTH`], or with a deadline and a `pace`, the
/// [`planned_width`] for the time left, if wider.
fn first_width(pace: Option<Pace>, budget: &Budget) -> usize {
    let (Some(pace), Some(deadline)) = (pace, budget.deadline) else {
        return FIRST_WIDTH;
    };
    let left = deadline.saturating_duration_since(Instant::now());
    planned_width(pace, left.as_secs_f64()).max(FIRST_WIDTH)
}

/// The width whose round of [`WINDOWS`] is planned to take [`FIRST_ROUND_SHARE`] of `left`
/// seconds, at the `pace` of a beam to the goal (a pass costing [`PASS_COST`] of such a beam).
fn planned_width(pace: Pace, left: f64) -> usize {
    let round = PASS_COST * WINDOWS.len() as f64 * pace.seconds.max(1e-6);
    (pace.width as f64 * FIRST_ROUND_SHARE * left / round).round() as usize
}

/// One pass over the best solution: windows of `length` moves, half a window apart from the
/// move `first` on, each re-solved by a pair of beams `width` wide between its first and last
/// boards. Whether any window got shorter.
fn pass<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    length: usize,
    first: usize,
    width: usize,
    improve: &Improve,
    budget: &Budget,
) -> Result<bool, StopReason> {
    let parallel = improve.parallel();
    let mut shorter = false;
    let mut start = first;
    while start + length <= best.solution.len() {
        let moves = &best.solution.moves;
        let from = board_after(best.board, &moves[..start]);
        let to = board_after(&from, &moves[start..start + length]);
        let ways = Ways::new(&from, &to);
        if let Some(stretch) = beams_both_ways(&ways, width, length, parallel, budget)? {
            let mut moves = moves.clone();
            moves.splice(start..start + length, stretch);
            shorter |= best.offer(cancel_inverse_pairs(&moves), Algorithm::Anytime);
        }
        start += length / 2;
    }
    Ok(shorter)
}

/// The board after `moves`, which are legal on `board`.
fn board_after(board: &Board, moves: &[Move]) -> Board {
    let mut after = board.clone();
    after
        .apply_all(moves)
        .expect("the best solution's moves are legal");
    after
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::board::Shape;
    use crate::random::random_solvable;

    #[test]
    fn a_round_of_long_windows_shortens_the_fast_solution_and_keeps_it_a_solution() {
        // 5×5 is the smallest board the schedule gives long windows (its paths are short).
        for (side, seed) in [(5, 2), (6, 3)] {
            let shape = Shape::new(side, side).unwrap();
            let board = random_solvable(shape, seed);
            let budget = Budget::default();
            let first = crate::large::solve_fast(&board, &budget).unwrap();
            let before = first.len();
            let mut best = Best::quiet(&board, first);
            let shortener = Shortener::new(shape);
            let improve = Improve::default();
            improve_by_long_windows(&mut best, &shortener, &improve, &budget, None).unwrap();
            assert!(best.solution.solves(&board));
            assert!(
                best.solution.len() * 10 < before * 9,
                "{shape}: {before} -> {}",
                best.solution.len()
            );
        }
    }

    #[test]
    fn a_timed_first_round_is_planned_from_the_goal_beam_s_pace() {
        let pace = Pace {
            width: 100_000,
            seconds: 2.0,
        };
        // Ten passes 100,000 wide are planned at 10 s: a third of 30 s; half as wide at half
        // the pace.
        assert_eq!(planned_width(pace, 30.0), 100_000);
        let slower = Pace {
            seconds: 4.0,
            ..pace
        };
        assert_eq!(planned_width(slower, 30.0), 50_000);
        assert_eq!(planned_width(pace, 0.0), 0);
        // Without a deadline or a pace, the narrowest first round; with them, the plan, but
        // never narrower than that.
        let timed = Budget::default().with_time_limit(Duration::from_secs(30));
        assert_eq!(first_width(Some(pace), &Budget::default()), FIRST_WIDTH);
        assert_eq!(first_width(None, &timed), FIRST_WIDTH);
        assert!(first_width(Some(pace), &timed) > 90_000);
        let short = Budget::default().with_time_limit(Duration::from_millis(100));
        assert_eq!(first_width(Some(pace), &short), FIRST_WIDTH);
    }

    #[test]
    fn a_round_too_wide_for_the_memory_runs_narrower_instead_of_not_at_all() {
        let shape = Shape::new(6, 6).unwrap();
        let board = random_solvable(shape, 3);
        let first = crate::large::solve_fast(&board, &Budget::default()).unwrap();
        let before = first.len();
        let mut best = Best::quiet(&board, first);
        // A limit that a beam 2,000 wide fits and one 64,000 wide does not; a pace and a
        // deadline that plan the first round far wider than both.
        let budget = Budget::default()
            .with_max_memory(20 << 20)
            .with_time_limit(Duration::from_secs(600));
        let pace = Pace {
            width: 10_000_000,
            seconds: 0.1,
        };
        let shortener = Shortener::new(shape);
        let improve = Improve::default();
        improve_by_long_windows(&mut best, &shortener, &improve, &budget, Some(pace)).unwrap();
        assert!(best.solution.solves(&board));
        assert!(best.solution.len() < before, "no window was re-solved");
    }

    #[test]
    fn a_window_s_beams_are_aimed_at_its_last_board() {
        let shape = Shape::new(5, 5).unwrap();
        let from = random_solvable(shape, 8);
        let moves = crate::large::solve_fast(&from, &Budget::default())
            .unwrap()
            .moves;
        let to = board_after(&from, &moves[..60]);
        let ways = Ways::new(&from, &to);
        let stretch = beams_both_ways(&ways, 2000, 61, true, &Budget::default())
            .unwrap()
            .expect("a path no longer than the one known");
        assert_eq!(board_after(&from, &stretch), to);
    }
}
