//! The anytime driver of the wide beam (see `wide`): pairs of beams of growing width, one
//! from the board to the goal and one back (see `both_ways`), each bounded by the best
//! solution so far, the last as wide as the time left allows.

use std::time::Instant;

use crate::board::Board;
use crate::search::budget::{Budget, StopReason};
use crate::solution::{Algorithm, Solution};

use super::both_ways::{Ways, beams_both_ways};
use super::max_width;
use crate::large::best::{Best, improve_by_short_windows};
use crate::large::shorten::Shortener;
use crate::large::{Improve, cancel_inverse_pairs};

/// The first beam's width: a few milliseconds on 6×6, and a measure of the time per board.
const FIRST_WIDTH: usize = 500;

/// Each beam is at most this many times wider than the last (when time allows) on boards of
/// fewer than [`GROW_FASTER_CELLS`].
const GROWTH: f64 = 2.0;

/// The growth from [`GROW_FASTER_CELLS`] on: fewer narrow beams leave more of the time to the
/// widest. On DeepCubeA's 7×7 at `--time 10`, 3 against 2 gave 1.0545 against 1.0649 × its
/// lengths on its first 10 states and 1.0766 against 1.0862 on the next 10 (1.5 gave 1.0641
/// and 4 gave 1.0704 on the first 10); 8×8 at 2 s on one thread, 12 boards, 499.8 → 495.3
/// moves. On 6×6 at `--time 10` it spread the runs instead (four of 1.028–1.049 against two of
/// 1.029), so smaller boards keep [`GROWTH`].
const FASTER_GROWTH: f64 = 3.0;

/// The fewest cells (7×7) on which the beams grow by [`FASTER_GROWTH`].
const GROW_FASTER_CELLS: usize = 49;

/// The share of the time left the next beam is planned to take (beams vary in depth).
const PLAN_SHARE: f64 = 0.8;

/// A beam's boards beyond this many bytes (a layer's tiles: width × cells) miss the second
/// level cache, and its time grows faster than its width.
const CACHED_BYTES: usize = 2 << 20;

/// How much faster than linear a beam's time is planned to grow beyond [`CACHED_BYTES`]: a
/// beam `r` times as wide beyond it takes `r^(1 + LEAP)` times as long. On DeepCubeA's 6×6
/// and 7×7 a doubling takes 1.5–2 times as long up to 32,000 wide and 1.9–2.05 times beyond
/// (16,000 to 256,000 wide); a little over that, for safety. Planned as linear, a beam that
/// overran its deadline would give nothing for the time it took; planned with the time growing
/// faster at every width, the beams at `--time 1` came out narrower than they could be (6×6,
/// 40 states: 1.100 → 1.108 × DeepCubeA's length, with the growth then measured, 2.4–2.5).
const LEAP: f64 = 0.1;

/// The widest beam run without a deadline.
const UNTIMED_WIDTH: usize = 8_000;

/// Why the beams stopped widening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::large) enum Widening {
    /// The next beam would not fit the time left.
    OutOfTime,
    /// The widest beam that fits our memory cap was run: more time cannot help this search.
    AtMemoryCap,
    /// The budget's memory limit stopped a beam: more memory would widen the next.
    OutOfMemory,
    /// No deadline: the widest untimed beam was run.
    Untimed,
    /// The best solution is as short as the lower bound: no beam can beat it.
    Proved,
}

/// How fast a beam to the goal ran: its width and seconds, from which the long windows plan
/// theirs (see `long_windows`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::large) struct Pace {
    /// The beam's width.
    pub(in crate::large) width: usize,
    /// The seconds it took.
    pub(in crate::large) seconds: f64,
}

/// Beams of growing width, the first [`FIRST_WIDTH`] wide, each next one [`growth`] times as
/// wide or as wide as [`PLAN_SHARE`] of the time left allows (from the last beam's time per
/// unit of width), until the time is up or the width reaches the memory cap. Each better
/// solution's windows are then re-solved. Returns why the widening stopped, with the pace of
/// the widest beam that reached the goal.
pub(in crate::large) fn improve_by_wide_beams<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<(Widening, Option<Pace>), StopReason> {
    let ways = Ways::new(best.board, &Board::goal_of(best.board.shape()));
    let parallel = improve.parallel();
    let cells = best.board.tiles().len();
    let cached_width = CACHED_BYTES / cells;
    let mut width = FIRST_WIDTH;
    let mut widest = width;
    let mut pace: Option<Pace> = None;
    loop {
        widest = widest.max(width);
        if best.done() {
            return Ok((Widening::Proved, pace));
        }
        let started = Instant::now();
        let upper = best.solution.len();
        let found = match beams_both_ways(&ways, width, upper, parallel, budget) {
            Err(StopReason::MemoryLimit) => return Ok((Widening::OutOfMemory, pace)),
            other => other?,
        };
        let seconds = started.elapsed().as_secs_f64();
        // A beam that found no path may have died out early: its time says nothing of a
        // whole one's.
        if found.is_some() && pace.is_none_or(|p| p.width <= width) {
            pace = Some(Pace { width, seconds });
        }
        if let Some(moves) = found
            && best.offer(cancel_inverse_pairs(&moves), Algorithm::Anytime)
        {
            improve_by_short_windows(best, shortener, improve, budget)?;
        }
        let cap = max_width(best.board.shape(), best.solution.len());
        if width >= cap {
            return Ok((Widening::AtMemoryCap, pace));
        }
        let Some(deadline) = budget.deadline else {
            if width >= UNTIMED_WIDTH {
                return Ok((Widening::Untimed, pace));
            }
            width = (width * 2).min(UNTIMED_WIDTH);
            continue;
        };
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        let plan = Plan {
            width,
            seconds,
            cached_width,
            growth: growth(cells),
        };
        width = match plan.next_width(left) {
            Some(next) => next,
            None => {
                // No room for a wider beam: one as wide as fits, while that is at least half as
                // wide as the widest (another sample, nearly as good). Ending the widening here
                // instead, the long windows taking the time, did no better (6×6 `--time 1`,
                // first 100: 1.0303 and 1.0338 × DeepCubeA's length against 1.0300 and 1.0301).
                let fits = plan.widest_fitting(left);
                if fits < widest / 2 {
                    return Ok((Widening::OutOfTime, pace));
                }
                fits
            }
        }
        .min(cap);
    }
}

/// How many times wider than the last each beam may be on a board of `cells`: [`GROWTH`], or
/// [`FASTER_GROWTH`] from [`GROW_FASTER_CELLS`] on.
fn growth(cells: usize) -> f64 {
    if cells >= GROW_FASTER_CELLS {
        FASTER_GROWTH
    } else {
        GROWTH
    }
}

/// What the next beam's width is planned from: the last beam's width and time.
struct Plan {
    width: usize,
    seconds: f64,
    /// The widest beam whose boards fit [`CACHED_BYTES`].
    cached_width: usize,
    /// How many times wider the next beam may be.
    growth: f64,
}

impl Plan {
    /// The time planned for a beam `width` wide: linear in the width, and faster beyond
    /// the cached width (see [`LEAP`]).
    fn time_for(&self, width: usize) -> f64 {
        let ratio = width as f64 / self.width as f64;
        let beyond = width as f64 / self.width.max(self.cached_width) as f64;
        self.seconds.max(1e-6) * ratio * beyond.max(1.0).powf(LEAP)
    }

    /// The next width with `left` seconds to go: `growth` times as wide when that beam and
    /// the one after it fit [`PLAN_SHARE`] of the time left, else the widest that fits it;
    /// `None` when that is not a quarter wider.
    fn next_width(&self, left: f64) -> Option<usize> {
        let planned = left * PLAN_SHARE;
        let grown = (self.width as f64 * self.growth) as usize;
        let grown_twice = (self.width as f64 * self.growth * self.growth) as usize;
        if self.time_for(grown) + self.time_for(grown_twice) <= planned {
            return Some(grown);
        }
        let fits = self.widest_fitting(left);
        (fits >= self.width * 5 / 4).then_some(fits)
    }

    /// The widest beam whose planned time fits [`PLAN_SHARE`] of `left` seconds.
    fn widest_fitting(&self, left: f64) -> usize {
        let planned = left * PLAN_SHARE;
        let (mut fits, mut too_wide) = (0, self.width.saturating_mul(1 << 10));
        while too_wide - fits > 1 + fits / 1000 {
            let middle = fits + (too_wide - fits) / 2;
            if self.time_for(middle) <= planned {
                fits = middle;
            } else {
                too_wide = middle;
            }
        }
        fits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::random::random_solvable;

    fn widen(
        width: usize,
        height: usize,
        budget: &Budget,
    ) -> (Widening, Option<Pace>, usize, usize) {
        let board = random_solvable(Shape::new(width, height).unwrap(), 11);
        widen_from(&board, budget)
    }

    /// The widening from the fast solution of `board`: why it stopped, its pace, and the
    /// lengths before and after.
    fn widen_from(board: &Board, budget: &Budget) -> (Widening, Option<Pace>, usize, usize) {
        let first = crate::large::solve_fast(board, &Budget::default()).unwrap();
        let length = first.len();
        let mut best = Best::quiet(board, first);
        let shortener = Shortener::new(board.shape());
        let (widening, pace) =
            improve_by_wide_beams(&mut best, &shortener, &Improve::default(), budget).unwrap();
        assert!(best.solution.solves(board));
        (widening, pace, length, best.solution.len())
    }

    #[test]
    fn the_next_beam_is_planned_to_end_within_the_time_left() {
        let plan = |width, seconds| Plan {
            width,
            seconds,
            cached_width: CACHED_BYTES / 36,
            growth: GROWTH,
        };
        // Plenty of time: twice as wide (three times from 7x7 on).
        assert_eq!(plan(1000, 0.01).next_width(10.0), Some(2000));
        assert_eq!((growth(36), growth(49)), (GROWTH, FASTER_GROWTH));
        let faster = Plan {
            growth: FASTER_GROWTH,
            ..plan(1000, 0.01)
        };
        assert_eq!(faster.next_width(10.0), Some(3000));
        // Within the cache the time is linear in the width; beyond it, faster.
        let small = plan(8000, 0.2);
        assert!((small.time_for(16_000) - 2.0 * small.time_for(8000)).abs() < 1e-9);
        let large = plan(64_000, 1.122);
        assert!(large.time_for(128_000) > 2.0 * large.time_for(64_000));
        // Too little time for the next two: the next fills the time left's share, and a beam
        // 1 % wider would not fit it (the 6x6 that overran when planned as linear is the
        // second: 64,000 wide in 1.122 s, 7.7 s left).
        for (plan, left) in [(&small, 1.0), (&large, 7.7), (&large, 3.0)] {
            let next = plan.next_width(left).unwrap();
            assert!(next > plan.width, "{next}");
            assert!(plan.time_for(next) <= PLAN_SHARE * left, "{next}");
            assert!(
                plan.time_for(next * 101 / 100) > PLAN_SHARE * left,
                "{next}"
            );
        }
        // Too little time for a beam a quarter wider; the widest that fits is narrower.
        assert_eq!(large.next_width(1.0), None);
        let fits = large.widest_fitting(1.0);
        assert!(fits < large.width * 5 / 4);
        assert!(
            large.time_for(fits) <= PLAN_SHARE && large.time_for(fits * 101 / 100) > PLAN_SHARE
        );
    }

    #[test]
    fn without_a_deadline_the_beams_widen_to_a_cap_and_shorten_the_fast_solution() {
        let (widening, pace, first, best) = widen(6, 6, &Budget::default());
        assert_eq!(widening, Widening::Untimed);
        // The pace is that of a pair of beams that found a shorter path: one of the widths
        // run, doubling from the first to the widest untimed.
        let width = pace.expect("a pair of beams found a shorter path").width;
        assert!(width % FIRST_WIDTH == 0 && (width / FIRST_WIDTH).is_power_of_two());
        assert!(width <= UNTIMED_WIDTH, "{width}");
        assert!(best < first, "{best} >= {first}");
    }

    #[test]
    fn a_solution_proved_shortest_runs_no_beam() {
        let mut board = Board::goal_of(Shape::new(6, 6).unwrap());
        board.apply(crate::board::Move::Up);
        let (widening, pace, _, best) = widen_from(&board, &Budget::default());
        assert_eq!((widening, pace, best), (Widening::Proved, None, 1));
    }

    #[test]
    fn the_budget_s_memory_limit_ends_the_widening_without_an_error() {
        let budget = Budget::default().with_max_memory(200_000);
        let (widening, _, first, best) = widen(7, 7, &budget);
        assert_eq!(widening, Widening::OutOfMemory);
        assert!(best <= first);
    }
}
