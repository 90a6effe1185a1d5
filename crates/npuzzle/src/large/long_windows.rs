//! Long windows of the best solution re-solved by wide beams (see `wide`) aimed at each
//! window's last board instead of the goal.
//!
//! Over a window of a hundred moves the estimate toward the window's last board is nearer the
//! truth than the estimate toward the goal is over the whole path (fewer tiles are out of
//! place, and less far), so a beam of the same width finds shorter stretches than the beam that
//! found the path. The windows are too long for the IDA* re-solves (see `shorten`), which
//! reach about 40 moves.

use crate::board::{Board, Move};
use crate::search::budget::{Budget, StopReason};
use crate::solution::{Algorithm, Solution};

use super::Improve;
use super::best::{Best, improve_by_short_windows};
use super::cancel_inverse_pairs;
use super::shorten::Shortener;
use super::wide::{Estimator, Search, max_width, wide_beam};

/// The window lengths of one round, in moves, each with where its first window starts: the
/// lengths differ and the windows start apart, so a round's passes cut the path in other
/// places.
const WINDOWS: [(usize, usize); 3] = [(100, 0), (75, 25), (125, 60)];

/// The first round's beam width; each further round's beams are twice as wide. Narrow enough
/// that a round fits the little time the wide beams leave on a 7×7 at `--time 1` (from 8,000:
/// DeepCubeA's 7×7 states, 1 s, the whole even half, 1.239 → 1.228 × its lengths).
const FIRST_WIDTH: usize = 2_000;

/// The widest round without a deadline.
const UNTIMED_WIDTH: usize = 8_000;

/// Rounds of long windows, each round's beams twice as wide as the last's, until the budget
/// stops them or the beams reach the widest that fits the memory (without a deadline,
/// [`UNTIMED_WIDTH`]).
///
/// # Errors
///
/// The budget's [`StopReason`] when it stops a beam (the best so far is kept).
pub(super) fn improve_by_long_windows<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<(), StopReason> {
    let mut width = FIRST_WIDTH;
    loop {
        for (length, first) in WINDOWS {
            let cap = max_width(best.board.shape(), length);
            if best.done() || width > cap {
                return Ok(());
            }
            let shorter = match pass(best, length, first, width, improve, budget) {
                Err(StopReason::MemoryLimit) => return Ok(()),
                other => other?,
            };
            if shorter {
                improve_by_short_windows(best, shortener, improve, budget)?;
            }
        }
        if budget.deadline.is_none() && width >= UNTIMED_WIDTH {
            return Ok(());
        }
        width *= 2;
    }
}

/// One pass over the best solution: windows of `length` moves, half a window apart from the
/// move `first` on, each re-solved by a beam `width` wide aimed at its last board. Whether
/// any window got shorter.
fn pass<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    length: usize,
    first: usize,
    width: usize,
    improve: &Improve,
    budget: &Budget,
) -> Result<bool, StopReason> {
    let shape = best.board.shape();
    let mut shorter = false;
    let mut start = first;
    while start + length <= best.solution.len() {
        let moves = &best.solution.moves;
        let from = board_after(best.board, &moves[..start]);
        let to = board_after(&from, &moves[start..start + length]);
        let estimator = Estimator::toward(shape, to.tiles());
        let search = Search::new(&estimator, improve);
        if let Some(stretch) = wide_beam(&from, &search, width, length, budget)? {
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
    use super::*;
    use crate::board::Shape;
    use crate::random::random_solvable;

    #[test]
    fn a_round_of_long_windows_shortens_the_fast_solution_and_keeps_it_a_solution() {
        let shape = Shape::new(6, 6).unwrap();
        let board = random_solvable(shape, 3);
        let budget = Budget::default();
        let first = crate::large::solve_fast(&board, &budget).unwrap();
        let before = first.len();
        let mut best = Best::quiet(&board, first);
        let shortener = Shortener::new(shape);
        improve_by_long_windows(&mut best, &shortener, &Improve::default(), &budget).unwrap();
        assert!(best.solution.solves(&board));
        assert!(
            best.solution.len() * 10 < before * 9,
            "{before} -> {}",
            best.solution.len()
        );
    }

    #[test]
    fn a_window_s_beam_is_aimed_at_its_last_board() {
        let shape = Shape::new(5, 5).unwrap();
        let from = random_solvable(shape, 8);
        let moves = crate::large::solve_fast(&from, &Budget::default())
            .unwrap()
            .moves;
        let to = board_after(&from, &moves[..60]);
        let estimator = Estimator::toward(shape, to.tiles());
        let search = Search {
            estimator: &estimator,
            parallel: false,
            salt: 0,
        };
        let stretch = wide_beam(&from, &search, 2000, 61, &Budget::default())
            .unwrap()
            .expect("a path no longer than the one known");
        assert_eq!(board_after(&from, &stretch), to);
    }
}
