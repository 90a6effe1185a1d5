//! The anytime driver of the wide beam (see `wide`): beams of growing width, each bounded by
//! the best solution so far, the last as wide as the time left allows.

use std::time::Instant;

use crate::search::budget::{Budget, StopReason};
use crate::solution::{Algorithm, Solution};

use super::best::{Best, improve_by_short_windows};
use super::shorten::Shortener;
use super::wide::{Estimator, Search, max_width, wide_beam};
use super::{Improve, cancel_inverse_pairs};

/// The first beam's width: a few milliseconds on 6×6, and a measure of the time per board.
const FIRST_WIDTH: usize = 500;

/// Each beam is at most this many times wider than the last (when time allows).
const GROWTH: f64 = 2.0;

/// The share of the time left the next beam is planned to take (beams vary in depth).
const PLAN_SHARE: f64 = 0.8;

/// A beam's time grows as its width to this power, as planned: wider beams miss the caches
/// more. Measured on DeepCubeA's states, a doubling took 1.9–2.5 times as long on 6×6 and 7×7
/// from 32,000 wide; planned as linear, the last beam on a 6×6 at `--time 10` (351,000 wide
/// after a 64,000 one of 1.1 s) was still running at the deadline and gave nothing for the
/// last 7.7 s.
const TIME_EXPONENT: f64 = 1.3;

/// The widest beam run without a deadline.
const UNTIMED_WIDTH: usize = 8_000;

/// Why the beams stopped widening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Widening {
    /// The next beam would not fit the time left.
    OutOfTime,
    /// The widest beam that fits the memory (ours, or the budget's) was run: more time cannot
    /// help this search.
    AtMemoryCap,
    /// No deadline: the widest untimed beam was run.
    Untimed,
}

/// Beams of growing width, the first [`FIRST_WIDTH`] wide, each next one [`GROWTH`] times as
/// wide or as wide as [`PLAN_SHARE`] of the time left allows (from the last beam's time per
/// unit of width), until the time is up or the width reaches the memory cap. Each better
/// solution's windows are then re-solved.
pub(super) fn improve_by_wide_beams<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<Widening, StopReason> {
    let estimator = Estimator::new(best.board.shape());
    let search = Search {
        estimator: &estimator,
        parallel: improve.threads != Some(1),
    };
    let mut width = FIRST_WIDTH;
    loop {
        if best.done() {
            return Ok(Widening::AtMemoryCap);
        }
        let started = Instant::now();
        let found = match wide_beam(best.board, &search, width, best.solution.len(), budget) {
            Err(StopReason::MemoryLimit) => return Ok(Widening::AtMemoryCap),
            other => other?,
        };
        if let Some(moves) = found
            && best.offer(cancel_inverse_pairs(&moves), Algorithm::Anytime)
        {
            improve_by_short_windows(best, shortener, improve, budget)?;
        }
        let cap = max_width(best.board.shape(), best.solution.len());
        if width >= cap {
            return Ok(Widening::AtMemoryCap);
        }
        let Some(deadline) = budget.deadline else {
            if width >= UNTIMED_WIDTH {
                return Ok(Widening::Untimed);
            }
            width = (width * 2).min(UNTIMED_WIDTH);
            continue;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        let Some(next) = next_width(width, started.elapsed().as_secs_f64(), left.as_secs_f64())
        else {
            return Ok(Widening::OutOfTime);
        };
        width = next.min(cap);
    }
}

/// The width of the beam after one `width` wide that took `seconds`, with `left` seconds
/// to go: [`GROWTH`] times as wide when that beam and the one after it fit [`PLAN_SHARE`] of
/// the time left, else as wide as fits it; `None` when that is not a quarter wider.
fn next_width(width: usize, seconds: f64, left: f64) -> Option<usize> {
    let planned = left * PLAN_SHARE;
    let seconds = seconds.max(1e-6);
    let time_at = |w: f64| seconds * (w / width as f64).powf(TIME_EXPONENT);
    let doubled = width as f64 * GROWTH;
    let next = if time_at(doubled) + time_at(doubled * GROWTH) <= planned {
        doubled
    } else {
        width as f64 * (planned / seconds).powf(1.0 / TIME_EXPONENT)
    } as usize;
    (next >= width * 5 / 4).then_some(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::random::random_solvable;

    fn widen(width: usize, height: usize, budget: &Budget) -> (Widening, usize, usize) {
        let board = random_solvable(Shape::new(width, height).unwrap(), 11);
        let first = crate::large::solve_fast(&board, &Budget::default()).unwrap();
        let length = first.len();
        let mut best = Best::quiet(&board, first);
        let shortener = Shortener::new(board.shape());
        let widening =
            improve_by_wide_beams(&mut best, &shortener, &Improve::default(), budget).unwrap();
        assert!(best.solution.solves(&board));
        (widening, length, best.solution.len())
    }

    #[test]
    fn the_next_beam_is_planned_to_end_within_the_time_left() {
        // Plenty of time: double.
        assert_eq!(next_width(1000, 0.01, 10.0), Some(2000));
        // The 6x6 that overran when planned as linear: 64,000 wide in 1.122 s, 7.7 s left.
        let next = next_width(64_000, 1.122, 7.7).unwrap();
        let taken = 1.122 * (next as f64 / 64_000.0).powf(TIME_EXPONENT);
        assert!(
            taken <= 0.8 * 7.7 + 1e-9 && taken > 0.7 * 7.7,
            "{next} wide: {taken} s"
        );
        assert!(next < 64_000 * 351 / 64, "planned as linear it was 351,000");
        // Too little time for a beam a quarter wider.
        assert_eq!(next_width(64_000, 1.122, 1.0), None);
    }

    #[test]
    fn without_a_deadline_the_beams_widen_to_a_cap_and_shorten_the_fast_solution() {
        let (widening, first, best) = widen(6, 6, &Budget::default());
        assert_eq!(widening, Widening::Untimed);
        assert!(best < first, "{best} >= {first}");
    }

    #[test]
    fn the_budget_s_memory_limit_ends_the_widening_without_an_error() {
        let budget = Budget::default().with_max_memory(200_000);
        let (widening, first, best) = widen(7, 7, &budget);
        assert_eq!(widening, Widening::AtMemoryCap);
        assert!(best <= first);
    }
}
