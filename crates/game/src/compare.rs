//! A review of a finished game: your moves against the shortest solution from the same start,
//! and the move from which your path could no longer be shortest.

use npuzzle::{Board, Move};

/// How a game compares with the best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The moves the player made.
    pub moves: usize,
    /// The shortest solution from the start (or the best the app found, if not `exact`).
    pub shortest: usize,
    /// Whether `shortest` is proved shortest.
    pub exact: bool,
    /// The move (counted from 1) that first left every shortest path; `None` if the player
    /// never did (or it cannot be told, when `shortest` is not exact).
    pub off_at: Option<usize>,
    /// Whether the app helped (a hint or a solution).
    pub helped: bool,
}

impl Summary {
    /// How many moves more than needed.
    pub fn extra(&self) -> usize {
        self.moves.saturating_sub(self.shortest)
    }
}

/// Compares the player's moves from `start` with the shortest, given the exact distance of any
/// board from solved (`distance`); the first move whose position is no closer to solved than
/// the one before it (it left every shortest path) is where the path went off. Returns `None`
/// if a distance is not known.
pub fn summarize(
    start: &Board,
    moves: &[Move],
    helped: bool,
    mut distance: impl FnMut(&Board) -> Option<usize>,
) -> Option<Summary> {
    let shortest = distance(start)?;
    let mut board = start.clone();
    let mut off_at = None;
    for (i, &mv) in moves.iter().enumerate() {
        board = board.moved(mv)?;
        // On a shortest path each move is one closer: d(after i + 1 moves) = shortest − i − 1.
        if distance(&board)? + i + 1 > shortest {
            off_at = Some(i + 1);
            break;
        }
    }
    Some(Summary {
        moves: moves.len(),
        shortest,
        exact: true,
        off_at,
        helped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::distance::table::DistanceTable;
    use npuzzle::parse_board;

    fn table_distance(board: &Board) -> Option<usize> {
        DistanceTable::for_shape(board.shape())?.distance(board)
    }

    #[test]
    fn a_detour_is_found_where_it_began() {
        // Two moves from solved: R then D (the blank goes right, then down).
        let start = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        assert_eq!(table_distance(&start), Some(2));
        let perfect = summarize(&start, &[Move::Right, Move::Down], false, table_distance).unwrap();
        assert_eq!(
            (perfect.shortest, perfect.extra(), perfect.off_at),
            (2, 0, None)
        );
        // Up and back down first: off at move 1, two moves more than needed.
        let detour = [Move::Up, Move::Down, Move::Right, Move::Down];
        let summary = summarize(&start, &detour, true, table_distance).unwrap();
        assert_eq!(summary.moves, 4);
        assert_eq!(summary.extra(), 2);
        assert_eq!(summary.off_at, Some(1));
        assert!(summary.helped);
        // A right move, then the detour: off at move 2.
        let late = [Move::Right, Move::Left, Move::Right, Move::Down];
        assert_eq!(
            summarize(&start, &late, false, table_distance)
                .unwrap()
                .off_at,
            Some(2)
        );
    }
}
