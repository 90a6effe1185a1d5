//! How far a board is from the goal, exactly, for a meter, a hint or a review: the exact
//! distance where it can be had (a table on boards of up to 9 cells, in [`table`]; an optimal
//! search on 4×4 and smaller), and the best lower bound at hand on any board. (The cheap
//! estimates the searches use move by move are [`crate::estimate`]'s.)

pub mod table;

use crate::board::{Board, Move};
use crate::estimate::linear_conflict;
use crate::pdb::{Partition, cache};
use crate::search::idastar::{IdaOptions, idastar_within};
use crate::solve::{Options, SolveError, pattern_database};
use table::DistanceTable;

/// The largest boards (in cells) whose exact distance [`optimal_distance`] will search for:
/// beyond 4×4 an optimal search can take minutes.
pub const MAX_OPTIMAL_CELLS: usize = 16;

/// An admissible lower bound on the board's shortest solution, in microseconds on any board:
/// exact on boards of up to 9 cells (their distance table), the pattern databases of the
/// options' partition (or the strongest standard one) when this process has them loaded,
/// else Manhattan distance plus linear conflict. Never loads or builds anything but the small
/// distance table.
pub fn lower_bound(board: &Board, options: &Options) -> usize {
    if let Some(table) = DistanceTable::for_shape(board.shape()) {
        return table.distance(board).unwrap_or(0);
    }
    let fallback = linear_conflict(board);
    let partitions = match &options.partition {
        Some(name) => Partition::standard(board.shape(), name)
            .into_iter()
            .collect(),
        None => Partition::strongest_first(board.shape()),
    };
    partitions
        .iter()
        .find_map(cache::loaded)
        .and_then(|db| db.heuristic(board))
        .map_or(fallback, |bound| bound.max(fallback))
}

/// The exact number of moves of the board's shortest solution: from the distance table on
/// boards of up to 9 cells, else by IDA* with the options' pattern databases (loaded, or built
/// once and cached) within the options' budget, on boards of up to [`MAX_OPTIMAL_CELLS`].
/// Larger boards give [`SolveError::TooLarge`]; an unsolvable board [`SolveError::Unsolvable`].
///
/// # Errors
///
/// [`SolveError::Unsolvable`], [`SolveError::TooLarge`], or [`SolveError::GaveUp`] when the
/// budget runs out first.
pub fn optimal_distance(board: &Board, options: &Options) -> Result<usize, SolveError> {
    let solvability = crate::solvability::Solvability::of(board);
    if !solvability.solvable {
        return Err(SolveError::Unsolvable(solvability));
    }
    if let Some(table) = DistanceTable::for_shape(board.shape()) {
        return table
            .distance(board)
            .ok_or(SolveError::Unsolvable(solvability));
    }
    if board.tiles().len() > MAX_OPTIMAL_CELLS {
        return Err(SolveError::TooLarge {
            shape: board.shape(),
            max_cells: MAX_OPTIMAL_CELLS,
        });
    }
    within(board, options, 0, u32::MAX)?
        .map(|moves| moves.len())
        .ok_or_else(|| SolveError::Internal("IDA* ran dry on a solvable board".into()))
}

/// Where a board stands after a move, for a meter and a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AfterMove {
    /// The board after the move.
    pub board: Board,
    /// Its exact distance to the goal.
    pub distance: usize,
    /// A move that brings it one step closer (the first of a shortest solution); `None` at the
    /// goal.
    pub hint: Option<Move>,
}

/// The board that the move `mv` makes from `before`, whose exact distance is
/// `before_distance` (from [`optimal_distance`] or an earlier call), with its exact distance
/// and a hint: what a shortest-path meter shows after each move, and the next hint for free.
/// A move changes the distance by exactly one, so one IDA* iteration, to `before_distance − 1`,
/// decides it: found, the board came closer and the solution found gives the hint; not, it went
/// one further and undoing the move is a shortest first step. Several times faster than
/// [`optimal_distance`] on far boards. An illegal move is [`SolveError::IllegalMove`].
///
/// # Errors
///
/// [`SolveError::IllegalMove`] for a move off the board, or [`SolveError::GaveUp`] when the
/// budget runs out first.
pub fn after_move(
    before: &Board,
    before_distance: usize,
    mv: Move,
    options: &Options,
) -> Result<AfterMove, SolveError> {
    let board = before.moved(mv).ok_or(SolveError::IllegalMove(mv))?;
    if let Some(table) = DistanceTable::for_shape(board.shape()) {
        let unsolvable = || SolveError::Unsolvable(crate::solvability::Solvability::of(&board));
        let distance = table.distance(&board).ok_or_else(unsolvable)?;
        let hint = table.moves_closer(&board).and_then(|m| m.first().copied());
        return Ok(AfterMove {
            board,
            distance,
            hint,
        });
    }
    if board.tiles().len() > MAX_OPTIMAL_CELLS {
        return Err(SolveError::TooLarge {
            shape: board.shape(),
            max_cells: MAX_OPTIMAL_CELLS,
        });
    }
    let (distance, hint) = match before_distance.checked_sub(1) {
        None => (1, Some(mv.inverse())),
        Some(closer) => match within(&board, options, closer as u32, closer as u32)? {
            Some(moves) => (closer, moves.first().copied()),
            None => (before_distance + 1, Some(mv.inverse())),
        },
    };
    Ok(AfterMove {
        board,
        distance,
        hint,
    })
}

/// IDA* with the options' tables, its bounds kept within `first..=last`: the moves found.
fn within(
    board: &Board,
    options: &Options,
    first: u32,
    last: u32,
) -> Result<Option<Vec<Move>>, SolveError> {
    let db = pattern_database(board, options).map_err(SolveError::from_pdb)?;
    let ida = IdaOptions::with_tables(db.as_deref(), options.threads);
    idastar_within(board, &ida, &options.budget, first, last)
        .map(|found| found.map(|found| found.solution.moves))
        .map_err(SolveError::GaveUp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::random::random_solvable;
    use crate::search::astar::astar;
    use crate::search::budget::Budget;

    #[test]
    fn the_bound_is_exact_on_3x3_and_admissible_on_4x4() {
        let shape = Shape::new(3, 3).unwrap();
        for seed in 0..30 {
            let board = random_solvable(shape, seed);
            let optimal = astar(&board, &Budget::default()).unwrap().len();
            assert_eq!(lower_bound(&board, &Options::default()), optimal);
            assert_eq!(optimal_distance(&board, &Options::default()), Ok(optimal));
        }
        let shape = Shape::new(4, 4).unwrap();
        let dir = crate::testing::TempDir::new("measure");
        for seed in 0..5 {
            let board = crate::random::shuffled(shape, 30, seed);
            let options = Options {
                partition: Some("5-5-5".into()),
                pdb_dir: Some(dir.path().to_path_buf()),
                ..Options::default()
            };
            let exact = optimal_distance(&board, &options).unwrap();
            let bound = lower_bound(&board, &options);
            assert!(bound <= exact, "{board:?}: {bound} > {exact}");
            assert!(bound >= linear_conflict(&board));
        }
    }

    #[test]
    fn the_distance_and_hint_after_a_move_agree_with_a_fresh_search() {
        let dir = crate::testing::TempDir::new("after-move");
        let options = Options {
            partition: Some("5-5-5".into()),
            pdb_dir: Some(dir.path().to_path_buf()),
            ..Options::default()
        };
        let shape = Shape::new(4, 4).unwrap();
        let mut board = crate::random::shuffled(shape, 60, 3);
        let mut distance = optimal_distance(&board, &options).unwrap();
        let (mut closer, mut further) = (0, 0);
        for step in 0..12u64 {
            // Moves that come closer and moves that go further, both met.
            let moves: Vec<_> = board.neighbors().map(|(mv, _)| mv).collect();
            let mv = moves[(step as usize * 7 + 3) % moves.len()];
            let step = after_move(&board, distance, mv, &options).unwrap();
            board.apply(mv);
            assert_eq!(step.board, board);
            let fresh = optimal_distance(&board, &options).unwrap();
            assert_eq!(step.distance, fresh, "{board:?}");
            // The hint comes one step closer.
            let hinted = board.moved(step.hint.unwrap()).unwrap();
            assert_eq!(optimal_distance(&hinted, &options).unwrap(), fresh - 1);
            let after = step.distance;
            closer += usize::from(after < distance);
            further += usize::from(after > distance);
            distance = after;
        }
        assert!(
            closer > 0 && further > 0,
            "{closer} closer, {further} further"
        );
        let corner = Board::goal_of(shape);
        assert_eq!(
            after_move(&corner, 0, Move::Down, &options),
            Err(SolveError::IllegalMove(Move::Down))
        );
    }

    #[test]
    fn large_and_unsolvable_boards_are_errors() {
        let big = random_solvable(Shape::new(5, 5).unwrap(), 1);
        assert!(matches!(
            optimal_distance(&big, &Options::default()),
            Err(SolveError::TooLarge { .. })
        ));
        assert!(lower_bound(&big, &Options::default()) >= crate::manhattan(&big));
        let swapped = Board::new(3, 3, vec![2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert!(matches!(
            optimal_distance(&swapped, &Options::default()),
            Err(SolveError::Unsolvable(_))
        ));
    }
}
