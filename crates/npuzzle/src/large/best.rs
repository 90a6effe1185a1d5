//! The best solution so far during an anytime run, shared by every method that improves it,
//! and the windowed re-solves that improve it in place.

use crate::board::{Board, Move};
use crate::search::budget::{Budget, StopReason, Stopwatch};
use crate::solution::{Algorithm, Solution};

use super::Improve;
use super::shorten::Shortener;

/// The best solution so far during an anytime run, and who hears of improvements.
pub(super) struct Best<'a, F: FnMut(&Solution)> {
    pub(super) board: &'a Board,
    pub(super) solution: Solution,
    pub(super) clock: Stopwatch,
    pub(super) on_improve: F,
}

impl<F: FnMut(&Solution)> Best<'_, F> {
    /// Takes `moves` if they solve the board in fewer moves than the best.
    pub(super) fn offer(&mut self, moves: Vec<Move>, algorithm: Algorithm) -> bool {
        if moves.len() >= self.solution.len() {
            return false;
        }
        let mut replay = self.board.clone();
        if replay.apply_all(&moves).is_err() || !replay.is_goal() {
            return false;
        }
        self.solution.moves = moves;
        self.solution.algorithm = algorithm;
        self.solution.seconds = self.clock.seconds();
        self.solution.optimal = self.solution.len() <= self.solution.lower_bound;
        (self.on_improve)(&self.solution);
        true
    }

    /// Whether the best is proved shortest.
    pub(super) fn done(&self) -> bool {
        self.solution.len() <= self.solution.lower_bound
    }
}

/// Windowed re-solves with each window length in turn, each repeated while it gains.
fn improve_by_windows<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    windows: &[usize],
    nodes: u64,
    budget: &Budget,
) -> Result<(), StopReason> {
    for &length in windows {
        loop {
            if best.done() {
                return Ok(());
            }
            let result = shortener.pass(
                best.board,
                &best.solution.moves,
                length,
                (length / 2).max(1),
                nodes,
                budget,
            );
            match result {
                Ok((moves, improved)) => {
                    best.offer(moves, Algorithm::Anytime);
                    if !improved {
                        break;
                    }
                }
                Err((moves, reason)) => {
                    best.offer(moves, Algorithm::Anytime);
                    return Err(reason);
                }
            }
        }
    }
    Ok(())
}

/// [`improve_by_windows`] with every window length the options give.
pub(super) fn improve_by_all_windows<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<(), StopReason> {
    improve_by_windows(
        best,
        shortener,
        &improve.windows,
        improve.window_nodes,
        budget,
    )
}

/// [`improve_by_windows`] with the two shortest window lengths only: quick, for a new best.
pub(super) fn improve_by_short_windows<F: FnMut(&Solution)>(
    best: &mut Best<'_, F>,
    shortener: &Shortener,
    improve: &Improve,
    budget: &Budget,
) -> Result<(), StopReason> {
    let short = &improve.windows[..2.min(improve.windows.len())];
    improve_by_windows(best, shortener, short, improve.window_nodes, budget)
}

#[cfg(test)]
impl<'a> Best<'a, fn(&Solution)> {
    /// A best that tells no one of improvements, from a first solution (for the tests).
    pub(super) fn quiet(board: &'a Board, first: Solution) -> Self {
        Best {
            board,
            solution: first,
            clock: Stopwatch::start(),
            on_improve: |_| {},
        }
    }
}
