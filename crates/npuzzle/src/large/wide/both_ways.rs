//! A wide beam each way between two boards (see `wide`): one from the first toward the second,
//! one from the second back toward the first, side by side; the shorter path is kept.
//!
//! The two beams go wrong in other places, so the shorter of the two is shorter than either
//! on the whole, and than one beam twice as wide. One pair of beams 16,000 wide, DeepCubeA's
//! 7×7 states 40–119, mean length ÷ DeepCubeA's: toward the goal 1.1095, back from it 1.0967,
//! the shorter 1.0828; 64,000 wide, first 20, 1.0885, 1.0804 and 1.0703 (a beam twice as
//! wide gains about half a percent); 6×6, first 40, 16,000 wide, 1.0674, 1.0623 and 1.0486.
//! On two threads each beam runs on one, which keeps both cores busier than one beam on both.

use crate::board::{Board, Move};
use crate::search::budget::{Budget, StopReason};

use super::{Estimator, Search, wide_beam};

/// The two boards and the estimates toward each: what a pair of beams between them needs.
pub(in crate::large) struct Ways {
    from: Board,
    to: Board,
    /// Toward `to`.
    forward: Estimator,
    /// Toward `from`.
    backward: Estimator,
}

impl Ways {
    /// The ways between `from` and `to`, boards of one shape.
    pub(in crate::large) fn new(from: &Board, to: &Board) -> Ways {
        let shape = from.shape();
        Ways {
            from: from.clone(),
            to: to.clone(),
            forward: Estimator::toward(shape, to.tiles()),
            backward: Estimator::toward(shape, from.tiles()),
        }
    }
}

/// A beam `width` wide from `from` to `to` and one from `to` back to `from`, on a thread each
/// of the rayon pool when `parallel`, else one after the other. The moves from `from` to `to`
/// of the shorter path under `upper` moves, if either beam found one. The pair holds the
/// budget's memory between them, half each.
///
/// # Errors
///
/// The budget's [`StopReason`] when it stopped a beam and the other found no path.
pub(in crate::large) fn beams_both_ways(
    ways: &Ways,
    width: usize,
    upper: usize,
    parallel: bool,
    budget: &Budget,
) -> Result<Option<Vec<Move>>, StopReason> {
    let half = Budget {
        max_memory: budget.max_memory.map(|bytes| bytes / 2),
        ..budget.clone()
    };
    // On two threads a beam each; with more, each beam spreads its children over the pool too.
    let spread = parallel && rayon::current_num_threads() > 2;
    let beam = |from: &Board, estimator: &Estimator| {
        let search = Search {
            estimator,
            parallel: spread,
        };
        wide_beam(from, &search, width, upper, &half)
    };
    let forward = || beam(&ways.from, &ways.forward);
    let backward = || beam(&ways.to, &ways.backward).map(|path| path.map(|p| reversed(&p)));
    let (forward, backward) = if parallel {
        rayon::join(forward, backward)
    } else {
        (forward(), backward())
    };
    match (forward, backward) {
        (Ok(a), Ok(b)) => Ok(shorter(a, b)),
        (Ok(Some(path)), Err(_)) | (Err(_), Ok(Some(path))) => Ok(Some(path)),
        (Err(reason), _) | (_, Err(reason)) => Err(reason),
    }
}

/// The moves that undo `moves`: the blank retraces its steps.
fn reversed(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|mv| mv.inverse()).collect()
}

/// The shorter of two paths, if any (the first of two as long).
fn shorter(a: Option<Vec<Move>>, b: Option<Vec<Move>>) -> Option<Vec<Move>> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.len() < a.len() { b } else { a }),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::random::random_solvable;

    fn after(board: &Board, moves: &[Move]) -> Board {
        let mut after = board.clone();
        after.apply_all(moves).unwrap();
        after
    }

    #[test]
    fn the_pair_s_path_leads_from_the_first_board_to_the_second_and_is_the_shorter_beam_s() {
        let shape = Shape::new(6, 6).unwrap();
        let budget = Budget::default();
        let mut backward_won = false;
        for seed in 0..6 {
            let from = random_solvable(shape, seed);
            let to = random_solvable(shape, seed + 100);
            let ways = Ways::new(&from, &to);
            let path = beams_both_ways(&ways, 500, 4000, seed % 2 == 0, &budget)
                .unwrap()
                .expect("beams this wide reach the other board");
            assert_eq!(after(&from, &path), to, "seed {seed}");
            // Each beam alone, as the pair runs it.
            let single = |start: &Board, estimator: &Estimator| {
                let search = Search {
                    estimator,
                    parallel: false,
                };
                wide_beam(start, &search, 500, 4000, &budget)
                    .unwrap()
                    .unwrap()
            };
            let forward = single(&from, &ways.forward);
            let backward = single(&to, &ways.backward);
            assert_eq!(after(&to, &backward), from);
            assert_eq!(after(&from, &reversed(&backward)), to);
            assert_eq!(path.len(), forward.len().min(backward.len()), "seed {seed}");
            backward_won |= backward.len() < forward.len();
        }
        assert!(backward_won, "the beam back never found the shorter path");
    }

    #[test]
    fn the_pair_finds_nothing_that_is_not_shorter_than_the_bound() {
        let shape = Shape::new(5, 5).unwrap();
        let from = random_solvable(shape, 4);
        let goal = Board::goal_of(shape);
        let ways = Ways::new(&from, &goal);
        let budget = Budget::default();
        let path = beams_both_ways(&ways, 1000, 4000, true, &budget)
            .unwrap()
            .unwrap();
        let again = beams_both_ways(&ways, 1000, path.len(), true, &budget).unwrap();
        assert!(again.is_none_or(|p| p.len() < path.len()));
    }

    #[test]
    fn a_memory_limit_too_small_for_either_beam_stops_the_pair() {
        let shape = Shape::new(7, 7).unwrap();
        let ways = Ways::new(&random_solvable(shape, 9), &Board::goal_of(shape));
        let budget = Budget::default().with_max_memory(100_000);
        let outcome = beams_both_ways(&ways, 20_000, 4000, true, &budget);
        assert_eq!(outcome, Err(StopReason::MemoryLimit));
    }
}
