//! Presorting: beam searches bring the board near order, and the best-of construction finishes
//! from where each stalls; the ends of the best are re-solved the same way.

use std::time::Instant;

use rayon::prelude::*;

use crate::board::{Board, Move};
use crate::pdb::PatternDatabase;
use crate::search::budget::{Budget, StopReason};
use crate::solution::{Algorithm, Solution};

use super::best::{Best, improve_by_short_windows};
use super::construct::{BEST_OF, Config};
use super::regions::{last_region, suffix_regions};
use super::shorten::Shortener;
use super::{Improve, beam, cancel_inverse_pairs, constructed};

/// How fast each presorting beam lets the weights of earlier lines grow (as `num / den` a
/// line), in the order they are tried: each gives a different presorted board, and the
/// construction's length varies enough between them that the best of several wins.
const GROWTHS: [(u32, u32); 8] = [
    (3, 2),
    (8, 5),
    (7, 5),
    (13, 10),
    (5, 4),
    (17, 10),
    (2, 1),
    (11, 10),
];

/// Where the construction takes over from a presorting beam, as a fraction of the depth of the
/// beam's best board (the last stretch before the beam's best gains little per move).
const HANDOVER: f64 = 0.9;

/// A solution by presorting (a beam with weights growing by `growth`) and then the best-of
/// construction from the board the beam handed over.
fn presorted(
    board: &Board,
    growth: (u32, u32),
    four: Option<&PatternDatabase>,
    budget: &Budget,
) -> Option<Vec<Move>> {
    let settings = beam::BeamSettings {
        growth,
        ..beam::BeamSettings::DEFAULT
    };
    let beam = beam::presort(board, &settings, budget).ok()?;
    let mut moves = beam.path_to((beam.best_depth as f64 * HANDOVER).round() as usize);
    let mut start = board.clone();
    start.apply_all(&moves).ok()?;
    let config = Config {
        options: BEST_OF,
        finish_4x4: four,
        ..Config::FAST
    };
    moves.extend(constructed(&start, &config, budget).ok()?);
    Some(cancel_inverse_pairs(&moves))
}

/// Runs [`presorted`] on `board` with each of [`GROWTHS`], `threads` at a time, and hands each
/// solution to `take`; starts no round after `stop_at`.
fn each_presorted(
    board: &Board,
    threads: usize,
    four: Option<&PatternDatabase>,
    stop_at: Option<Instant>,
    budget: &Budget,
    mut take: impl FnMut(Vec<Move>) -> Result<(), StopReason>,
) -> Result<(), StopReason> {
    for round in GROWTHS.chunks(threads.max(1)) {
        if stop_at.is_some_and(|stop| Instant::now() >= stop) {
            break;
        }
        let found: Vec<Option<Vec<Move>>> = if round.len() == 1 {
            vec![presorted(board, round[0], four, budget)]
        } else {
            round
                .par_iter()
                .map(|&growth| presorted(board, growth, four, budget))
                .collect()
        };
        for moves in found.into_iter().flatten() {
            take(moves)?;
        }
        budget.check(0, 0)?;
    }
    Ok(())
}

/// The moment when `share` of the time left before the budget's deadline has passed (none
/// without a deadline).
fn share_of_time_left(budget: &Budget, share: f64) -> Option<Instant> {
    budget.deadline.map(|deadline| {
        let now = Instant::now();
        now + deadline.saturating_duration_since(now).mul_f64(share)
    })
}

/// The share of the time left that presorting the whole board takes, and then the share of
/// what is left that re-solving the ends takes; the rest goes to the shortenings.
const PRESORT_SHARE: f64 = 0.55;
const SUFFIX_SHARE: f64 = 0.7;

/// Presorts the whole board by beams and constructs from where each stopped, shortening each
/// new best by short windows; then re-solves the ends of the best the same way (see
/// [`suffix_regions`]), keeping the best end each time. A construction's length varies enough
/// between beams that the best of several wins, for the whole and for each end.
pub(super) fn improve_by_presorting<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<(), StopReason> {
    let board = best.board;
    let threads = improve
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let four = improve.tables.four.as_deref();
    let stop_at = share_of_time_left(budget, PRESORT_SHARE);
    each_presorted(board, threads, four, stop_at, budget, |moves| {
        if best.offer(moves, Algorithm::Anytime) {
            improve_by_short_windows(best, shortener, improve, budget)?;
        }
        Ok(())
    })?;
    let stop_at = share_of_time_left(budget, SUFFIX_SHARE);
    for (width, height) in suffix_regions(board.shape()) {
        let Some((start, region)) = last_region(board, &best.solution.moves, width, height) else {
            continue;
        };
        let prefix = best.solution.moves[..start].to_vec();
        each_presorted(&region, threads, four, stop_at, budget, |tail| {
            let mut moves = prefix.clone();
            moves.extend(tail);
            best.offer(cancel_inverse_pairs(&moves), Algorithm::Anytime);
            Ok(())
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::random::random_solvable;

    #[test]
    fn presorted_solutions_solve_every_shape() {
        let budget = Budget::default();
        for (width, height) in [(6, 6), (9, 4), (4, 9), (11, 11), (3, 12)] {
            let board = random_solvable(Shape::new(width, height).unwrap(), 8);
            for growth in [GROWTHS[0], GROWTHS[GROWTHS.len() - 1]] {
                let moves = presorted(&board, growth, None, &budget).unwrap();
                let mut replay = board.clone();
                replay.apply_all(&moves).unwrap();
                assert!(replay.is_goal(), "{width}x{height} {growth:?}");
            }
        }
    }
}
