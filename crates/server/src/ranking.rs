//! A day's ranking: by time, then moves; ties share a rank ("1, 2, 2, 4"). The same order for
//! the server's answers, its page, its export and `verify`, which recomputes it.

use serde::{Deserialize, Serialize};

use crate::names::name_key;

/// One row of a day's ranking, as exported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankedResult {
    /// The place: 1 + the results strictly better (faster, or as fast in fewer moves).
    pub rank: u64,
    /// The player's name.
    pub name: String,
    /// Moves made.
    pub moves: u64,
    /// The day's shortest solution.
    pub optimal: u64,
    /// The total time, ms.
    pub time_ms: u64,
    /// The challenge code: the board, every move and its time.
    pub code: String,
}

/// What a result is ranked by: time, then moves.
pub fn rank_key(time_ms: u64, moves: u64) -> (u64, u64) {
    (time_ms, moves)
}

/// Something that holds a ranked row (the row itself, or the row with who made it).
pub trait Ranked {
    /// The row.
    fn row(&self) -> &RankedResult;
    /// The row, to set its rank.
    fn row_mut(&mut self) -> &mut RankedResult;

    /// What orders ties: the name's key.
    fn tie_key(&self) -> String {
        name_key(&self.row().name)
    }
}

impl Ranked for RankedResult {
    fn row(&self) -> &RankedResult {
        self
    }

    fn row_mut(&mut self) -> &mut RankedResult {
        self
    }
}

/// Sorts rows into the ranking's order (time, moves, then the name's key so that ties have one
/// order) and gives each its rank.
pub fn rank_in_place<T: Ranked>(items: &mut [T]) {
    items.sort_by_cached_key(|item| {
        let row = item.row();
        (rank_key(row.time_ms, row.moves), item.tie_key())
    });
    let mut rank = 0;
    let mut before = None;
    for (index, item) in items.iter_mut().enumerate() {
        let key = rank_key(item.row().time_ms, item.row().moves);
        if before != Some(key) {
            rank = index as u64 + 1;
        }
        before = Some(key);
        item.row_mut().rank = rank;
    }
}

/// A time as the page shows it: "1:02.345", or "41.250 s" under a minute.
pub fn time_text(time_ms: u64) -> String {
    let (minutes, ms) = (time_ms / 60_000, time_ms % 60_000);
    if minutes == 0 {
        format!("{}.{:03} s", ms / 1000, ms % 1000)
    } else {
        format!("{minutes}:{:02}.{:03}", ms / 1000, ms % 1000)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A result of `name` to rank, unranked yet (rank 0).
    pub(crate) fn row(name: &str, time_ms: u64, moves: u64) -> RankedResult {
        RankedResult {
            rank: 0,
            name: name.into(),
            moves,
            optimal: 36,
            time_ms,
            code: String::new(),
        }
    }

    #[test]
    fn faster_first_then_fewer_moves_and_ties_share_a_rank() {
        let mut rows = vec![
            row("dee", 9_000, 40),
            row("Bob", 5_000, 50),
            row("cat", 5_000, 40),
            row("al", 5_000, 50),
            row("eve", 12_000, 36),
        ];
        rank_in_place(&mut rows);
        let order: Vec<(&str, u64)> = rows.iter().map(|r| (r.name.as_str(), r.rank)).collect();
        assert_eq!(
            order,
            [("cat", 1), ("al", 2), ("Bob", 2), ("dee", 4), ("eve", 5)]
        );
    }

    #[test]
    fn times_read_as_a_person_reads_them() {
        assert_eq!(time_text(41_250), "41.250 s");
        assert_eq!(time_text(62_345), "1:02.345");
        assert_eq!(time_text(5), "0.005 s");
    }
}
