//! Boards at an exact shortest distance from the goal, for difficulty that means something.
//!
//! Boards of up to 9 cells come from their distance table ([`DistanceTable`]), uniformly among
//! those at the distance. Larger boards up to 4×4 are sampled: a random walk from the goal is
//! solved optimally, and if its shortest solution has `n ≥ d` moves, the board `n − d` moves
//! along that solution is exactly `d` from the goal (the rest of a shortest path is shortest).
//! A walk too short for `d` is followed by a longer one.
//!
//! The board depends on the shape, the distance and the seed alone: the walks are drawn with
//! [`SplitMix64`], whose sequence never changes, and IDA* returns the first shortest solution in
//! U, D, L, R order whatever its heuristic (tables), thread count or machine, since an
//! admissible heuristic never cuts a node on a shortest path. So a puzzle of the day is the
//! same everywhere.

use thiserror::Error;

use crate::board::{Board, Move, Shape};
use crate::distance::MAX_OPTIMAL_CELLS;
use crate::distance::table::DistanceTable;
use crate::pdb::PatternDatabase;
use crate::progress::ProgressEvent;
use crate::random::SplitMix64;
use crate::search::budget::Stopwatch;
use crate::search::idastar::{IdaOptions, idastar};
use crate::solve::{Options, SolveError, pattern_database};

/// The farthest any 4×4 board is from the goal (Brüngger et al. 1999; Korf and Schultze 2005).
pub const MAX_4X4_DISTANCE: usize = 80;

/// Why no board came back.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GenerateError {
    /// No board of the shape is that far from the goal.
    #[error("no {shape} board is {distance} moves from the goal: the farthest are {max}")]
    TooFar {
        /// The shape asked for.
        shape: Shape,
        /// The distance asked for.
        distance: usize,
        /// The largest distance of the shape.
        max: usize,
    },
    /// Exact distances are offered up to 4×4 (16 cells).
    #[error(
        "boards at an exact distance are offered up to {max_cells} cells (4x4), not on {shape}"
    )]
    TooLarge {
        /// The shape asked for.
        shape: Shape,
        /// The most cells offered.
        max_cells: usize,
    },
    /// The optimal search behind it stopped (the budget, a cancel, a table error).
    #[error("{0}")]
    Solve(#[from] SolveError),
}

/// A board whose shortest solution has exactly `distance` moves, the same for the same shape,
/// distance and seed on every machine. Within the options' budget (its deadline and cancel
/// flag), with the options' pattern databases, cache folder and threads.
///
/// # Errors
///
/// A [`GenerateError`] for a distance the shape cannot have or the generator does not offer,
/// or when the search for one runs out of its budget or is cancelled.
pub fn board_at_distance(
    shape: Shape,
    distance: usize,
    seed: u64,
    options: &Options,
) -> Result<Board, GenerateError> {
    board_sampled(shape, distance, seed, options, true)
}

/// The board [`board_at_distance`] gives for the same shape, distance and seed, found without
/// pattern databases: each candidate is solved by IDA* on Manhattan distance and linear
/// conflict, so nothing is read from the disk or built first. Quicker than building tables
/// for short distances (on 4×4 a first launch's 5-5-5 tables take about a third of a second
/// on two cores), much slower for long ones; within the options' budget and threads.
///
/// # Errors
///
/// As [`board_at_distance`].
pub fn board_at_distance_without_tables(
    shape: Shape,
    distance: usize,
    seed: u64,
    options: &Options,
) -> Result<Board, GenerateError> {
    board_sampled(shape, distance, seed, options, false)
}

/// A board from its distance table (up to 9 cells), else sampled: with the options' pattern
/// databases when `tables` (built or read first), else on Manhattan and linear conflict.
fn board_sampled(
    shape: Shape,
    distance: usize,
    seed: u64,
    options: &Options,
    tables: bool,
) -> Result<Board, GenerateError> {
    if let Some(board) = from_table(shape, distance, seed)? {
        return Ok(board);
    }
    check_sampled(shape, distance)?;
    let db = match tables {
        true => pattern_database(&Board::goal_of(shape), options).map_err(SolveError::from_pdb)?,
        false => None,
    };
    sample(shape, distance, seed, db.as_deref(), options)
}

/// A board of up to 9 cells from its distance table; `None` for larger shapes.
fn from_table(shape: Shape, distance: usize, seed: u64) -> Result<Option<Board>, GenerateError> {
    let Some(table) = DistanceTable::for_shape(shape) else {
        return Ok(None);
    };
    match table.board_at(distance, seed) {
        Some(board) => Ok(Some(board)),
        None => Err(GenerateError::TooFar {
            shape,
            distance,
            max: table.max_distance(),
        }),
    }
}

/// Whether a board of the shape at the distance can be sampled: up to 4×4, and on 4×4 no
/// farther than any board is.
fn check_sampled(shape: Shape, distance: usize) -> Result<(), GenerateError> {
    if shape.cells() > MAX_OPTIMAL_CELLS {
        return Err(GenerateError::TooLarge {
            shape,
            max_cells: MAX_OPTIMAL_CELLS,
        });
    }
    if (shape.width, shape.height) == (4, 4) && distance > MAX_4X4_DISTANCE {
        return Err(GenerateError::TooFar {
            shape,
            distance,
            max: MAX_4X4_DISTANCE,
        });
    }
    Ok(())
}

/// Random walks from the goal, each solved optimally with `db` (or Manhattan and linear
/// conflict), until one's shortest solution is at least `distance` long; the board `distance`
/// moves from the goal along that solution.
fn sample(
    shape: Shape,
    distance: usize,
    seed: u64,
    db: Option<&PatternDatabase>,
    options: &Options,
) -> Result<Board, GenerateError> {
    let ida = IdaOptions::with_tables(db, options.threads);
    let mut rng = SplitMix64::new(seed);
    let mut walk = distance + 2;
    let clock = Stopwatch::start();
    // Each candidate's search is quiet: its bounds are the candidate's, not the board's.
    let quiet = options.budget.quiet();
    let mut candidates = 0u64;
    loop {
        candidates += 1;
        let candidate = random_walk(shape, walk, &mut rng);
        let moves = idastar(&candidate, &ida, &quiet)
            .map_err(SolveError::GaveUp)?
            .solution
            .moves;
        options.budget.report_event(&ProgressEvent::Generate {
            candidates,
            seconds: clock.seconds(),
        });
        if moves.len() >= distance {
            let mut board = candidate;
            board
                .apply_all(&moves[..moves.len() - distance])
                .map_err(|_| SolveError::Internal("a solution replayed an illegal move".into()))?;
            return Ok(board);
        }
        // Too close: walk further next time.
        walk += walk / 4 + 2;
    }
}

/// The goal after `length` random blank moves, none undoing the one before.
fn random_walk(shape: Shape, length: usize, rng: &mut SplitMix64) -> Board {
    let mut board = Board::goal_of(shape);
    let mut last: Option<Move> = None;
    for _ in 0..length {
        let mut choices = [Move::Up; 4];
        let mut count = 0;
        for mv in Move::ALL {
            if board.can_move(mv) && last != Some(mv.inverse()) {
                choices[count] = mv;
                count += 1;
            }
        }
        let mv = choices[rng.below(count as u64) as usize];
        board.apply(mv);
        last = Some(mv);
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::budget::Budget;
    use crate::testing::TempDir;

    fn options(dir: &TempDir, partition: &str) -> Options {
        Options {
            partition: Some(partition.into()),
            pdb_dir: Some(dir.path().to_path_buf()),
            ..Options::default()
        }
    }

    #[test]
    fn small_boards_come_from_the_table_at_every_distance() {
        let shape = Shape::new(3, 3).unwrap();
        let table = DistanceTable::for_shape(shape).unwrap();
        for d in 0..=31 {
            let board = board_at_distance(shape, d, 5, &Options::default()).unwrap();
            assert_eq!(table.distance(&board), Some(d));
        }
        assert!(matches!(
            board_at_distance(shape, 32, 5, &Options::default()),
            Err(GenerateError::TooFar { max: 31, .. })
        ));
    }

    #[test]
    fn a_4x4_board_is_exactly_as_far_as_asked_whatever_the_tables() {
        let dir = TempDir::new("generate");
        let shape = Shape::new(4, 4).unwrap();
        for (distance, seed) in [(0, 1), (1, 2), (12, 3), (20, 4), (24, 5)] {
            let board = board_at_distance(shape, distance, seed, &options(&dir, "5-5-5")).unwrap();
            // An independent search: A* on Manhattan distance, no pattern databases.
            let optimal = crate::search::astar::astar(&board, &Budget::default()).unwrap();
            assert_eq!(optimal.len(), distance, "{board:?}");
            // Other tables, another thread count: the same board.
            let mut other = options(&dir, "6-6-3");
            other.threads = Some(2);
            assert_eq!(board_at_distance(shape, distance, seed, &other), Ok(board));
        }
        let a = board_at_distance(shape, 20, 1, &options(&dir, "5-5-5")).unwrap();
        let b = board_at_distance(shape, 20, 2, &options(&dir, "5-5-5")).unwrap();
        assert_ne!(a, b, "seeds give different boards");
    }

    #[test]
    fn without_tables_the_board_is_the_same_and_nothing_is_built() {
        let dir = TempDir::new("generate-without-tables");
        let untouched = TempDir::new("generate-without-tables-cache");
        let quiet = Options {
            pdb_dir: Some(untouched.path().to_path_buf()),
            ..Options::default()
        };
        let four = Shape::new(4, 4).unwrap();
        for (distance, seed) in [(1, 2), (12, 3), (24, 5), (24, 6)] {
            let board = board_at_distance_without_tables(four, distance, seed, &quiet).unwrap();
            let optimal = crate::search::astar::astar(&board, &Budget::default()).unwrap();
            assert_eq!(optimal.len(), distance, "{board:?}");
            let tabled = board_at_distance(four, distance, seed, &options(&dir, "5-5-5"));
            assert_eq!(tabled, Ok(board));
        }
        let three_by_four = Shape::new(3, 4).unwrap();
        assert_eq!(
            board_at_distance_without_tables(three_by_four, 18, 7, &quiet),
            board_at_distance(three_by_four, 18, 7, &options(&dir, "6-5"))
        );
        let files = std::fs::read_dir(untouched.path()).map_or(0, |dir| dir.count());
        assert_eq!(files, 0, "no tables were written");
    }

    #[test]
    fn impossible_requests_are_errors() {
        let dir = TempDir::new("generate-errors");
        let four = Shape::new(4, 4).unwrap();
        assert!(matches!(
            board_at_distance(four, 81, 1, &options(&dir, "5-5-5")),
            Err(GenerateError::TooFar { max: 80, .. })
        ));
        let five = Shape::new(5, 5).unwrap();
        assert!(matches!(
            board_at_distance(five, 10, 1, &Options::default()),
            Err(GenerateError::TooLarge { .. })
        ));
        let cancel = crate::search::budget::CancelFlag::new();
        cancel.cancel();
        let mut cancelled = options(&dir, "5-5-5");
        cancelled.budget = Budget::default().with_cancel(cancel);
        assert!(matches!(
            board_at_distance(four, 40, 1, &cancelled),
            Err(GenerateError::Solve(SolveError::GaveUp(_)))
        ));
    }
}
